import { z } from 'zod';
import { type Context, joiningNested } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { bool, validate } from '../http/fields.ts';
import { prepared } from '../store/rows.ts';
import { type HostCreateInput, hostCreateInput, hostInputCodes } from './schema.ts';
import { createHost, updateHost } from './store.ts';

/*
 * Importing the host directory from a spreadsheet (docs/api.md, "Importing hosts"; the console's Hosts page reads
 * the CSV and sends its rows). Every row is checked before anything is written: a dry run answers what each row
 * would do, or why it cannot; an import with any bad row writes nothing; a good one writes every row in one
 * transaction. A row whose e-mail is a live host's updates that host (the fields it gives), others create one.
 */

/** Rows one import takes at most: a company's directory, in a body well under the service's limit. */
export const maxImportRows = 5000;

export const hostImportInput = z.object({
  dryRun: bool().optional().describe('check every row and answer what each would do, writing nothing'),
  invite: bool()
    .optional()
    .describe('send the account invitation to each host the import creates (`sendInvitationEmail`)'),
  hosts: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(maxImportRows)
    .describe('the rows: each a host body of POST /v1/hosts (a cell left empty is a field left out)'),
});
export type HostImportInput = z.output<typeof hostImportInput>;

const rowOutcome = z.object({
  row: z.number().int().describe('the row, counted from 0 in `hosts`'),
  email: z.string().nullable(),
  action: z.enum(['create', 'update']).optional(),
  hostId: z.string().optional().describe('the host the row updates; after an import, also the one it created'),
  error: z.object({ type: z.string(), field: z.string().optional() }).optional(),
});
type RowOutcome = z.output<typeof rowOutcome>;

export const hostImportAnswer = z.object({
  dryRun: z.boolean(),
  applied: z.boolean().describe('true when the rows were written'),
  created: z.number().int(),
  updated: z.number().int(),
  invalid: z.number().int(),
  rows: z.array(rowOutcome),
});

/** A row's failure as the answer says it: its error code and, when it names one, the field. */
function failure(error: unknown): RowOutcome['error'] {
  if (!(error instanceof ApiError)) throw error;
  const field = typeof error.extra.field === 'string' ? error.extra.field : undefined;
  return { type: error.type, ...(field ? { field } : {}) };
}

interface Checked {
  outcome: RowOutcome;
  input?: HostCreateInput;
}

/** Checks each row with the host body's own schema; the file's repeated e-mails are errors of their later rows. */
function checkRows(rows: readonly Record<string, unknown>[], live: ReadonlyMap<string, string>): Checked[] {
  const seen = new Set<string>();
  return rows.map((row, index): Checked => {
    const given = typeof row.email === 'string' ? row.email.trim() : null;
    try {
      const input = validate(hostCreateInput, row, hostInputCodes);
      if (input.phone && !input.countryCode) throw new ApiError('MISSING_COUNTRY_CODE');
      const key = input.email.toLowerCase();
      if (seen.has(key)) throw new ApiError('DUPLICATE_ROW', { field: 'email' });
      seen.add(key);
      const hostId = live.get(key);
      return {
        outcome: { row: index, email: input.email, ...(hostId ? { action: 'update', hostId } : { action: 'create' }) },
        input,
      };
    } catch (error) {
      return { outcome: { row: index, email: given, error: failure(error) } };
    }
  });
}

/** The company's live hosts, by e-mail in lower case: one statement for the whole file. */
async function liveHostsByEmail(ctx: Context, caller: Caller): Promise<Map<string, string>> {
  const rows = (await prepared(ctx.db, 'SELECT id, email FROM hosts WHERE companyId = ? AND deletedAt IS NULL').all(
    caller.companyId,
  )) as { id: string; email: string }[];
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

const counts = (outcomes: readonly RowOutcome[]) => ({
  created: outcomes.filter((o) => o.action === 'create').length,
  updated: outcomes.filter((o) => o.action === 'update').length,
  invalid: outcomes.filter((o) => o.error !== undefined).length,
});

/**
 * A dry run, or the import: all rows or none. A row refused at the write itself (a kiosk's hub manages its hosts)
 * rolls back every row, and the error is answered as the request's.
 */
export async function importHosts(ctx: Context, caller: Caller, input: HostImportInput) {
  const checked = checkRows(input.hosts, await liveHostsByEmail(ctx, caller));
  const outcomes = checked.map((c) => c.outcome);
  if (input.dryRun || outcomes.some((o) => o.error)) {
    const answer = { dryRun: input.dryRun ?? false, applied: false, ...counts(outcomes), rows: outcomes };
    if (!input.dryRun) throw new ApiError('INVALID_ROWS', answer);
    return answer;
  }
  const written = await joiningNested(ctx, async () => {
    const done: RowOutcome[] = [];
    for (const { outcome, input: host } of checked) {
      if (!host) throw new ApiError('INTERNAL');
      if (outcome.hostId) {
        const { email: _email, sendInvitationEmail: _send, ...changes } = host;
        await updateHost(ctx, caller, outcome.hostId, changes);
        done.push(outcome);
      } else {
        const row = await createHost(ctx, caller, input.invite ? { ...host, sendInvitationEmail: true } : host);
        done.push({ ...outcome, hostId: row.id });
      }
    }
    return done;
  });
  return { dryRun: false, applied: true, ...counts(written), rows: written };
}
