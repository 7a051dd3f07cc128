import { z } from 'zod';
import { visitObjectSchema } from '../visits/schema.ts';

/** One person inside: their latest open visit, and the other open visits of the same person (a repeated check-in). */
export const rosterPersonSchema = visitObjectSchema.extend({
  duplicateVisits: z
    .array(z.object({ id: z.string(), checkinAt: z.string() }))
    .describe('the same person checked in again without checking out, newest first; empty for most'),
});

/** GET /v1/roster: who is inside now, one row per person, and who waits at the door for a decision. */
export const rosterSchema = z.object({
  inside: z.array(rosterPersonSchema).describe('checked in, not checked out, let in (not waiting, denied or blocked)'),
  waiting: z.array(visitObjectSchema).describe('checked in and waiting for a host to allow or deny them'),
  at: z.string().describe('when the roster was read, in the company zone'),
});
