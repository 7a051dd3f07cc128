import { z } from 'zod';

const count = (what: string) => z.number().int().min(0).describe(what);

/** GET /v1/today: the front desk's day at a glance, counted by the service for the company's day. */
export const todaySchema = z.object({
  day: z.string().describe("today, YYYY-MM-DD, in the company's zone"),
  at: z.string().describe('when the counts were read, in the company zone'),
  inside: count('people inside now, as the roster counts them (one per person)'),
  expected: count('invitees expected today who have not arrived'),
  waiting: count('visits waiting now for a host to allow or deny them'),
  blocked: count('visits stopped by the blocklist today'),
  denied: count('visits denied today (not stopped by the blocklist)'),
  notificationFailures: count(
    "today's messages to hosts that failed: given up, or still retried after a failed attempt",
  ),
  withoutHost: count('people inside now whose visit names no host'),
  unanswered: count('today\'s hosts escalated (docs/api.md, "Escalation") who have not answered yet'),
  unansweredHosts: z
    .array(z.object({ visitId: z.string(), hostName: z.string(), visitorName: z.string() }))
    .describe('who they are, newest first, at most 20: "Ana has not answered about Bob"'),
});

export type Today = z.output<typeof todaySchema>;
