import { z } from 'zod';

/** One person accounted for in the roll call: their visit on the roster, when, and by whom. */
export const rosterTickSchema = z.object({
  visitId: z.string().describe("the visit of the roster's row (its `id`)"),
  checkedAt: z.string().describe('when they were accounted for, in the company zone'),
  checkedBy: z.string().describe('the credential that ticked them: a front-desk session or a key'),
});

/** GET/POST /v1/roster/check: the evacuation roll call of the roster. */
export const rosterCheckSchema = z.object({
  startedAt: z
    .string()
    .nullable()
    .describe('when this roll call began (its first tick, or the last `POST`); null before any'),
  startedBy: z.string().nullable().describe('the credential that began it'),
  accounted: z.array(rosterTickSchema).describe('the people accounted for, first ticked first'),
});

export type RosterTick = z.output<typeof rosterTickSchema>;
export type RosterCheck = z.output<typeof rosterCheckSchema>;
