import { z } from 'zod';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { inviteeObjects } from './present.ts';
import { inviteeCreateInput, inviteeInputCodes, inviteeObjectSchema } from './schema.ts';
import { createInvitee } from './store.ts';

/** Rows of one upload: a CSV of a day's guests, an event's list. */
export const bulkInviteeLimit = 500;

export const bulkInviteeInput = z.object({
  // Each row is checked by itself (`inviteeCreateInput`, without a picture): a bad row is its own error, not the
  // request's.
  invitees: z
    .array(z.record(z.string(), z.unknown()))
    .min(1)
    .max(bulkInviteeLimit)
    .describe(`The invitees, as POST /v1/invitees takes each (no pictureUrl); 1 to ${bulkInviteeLimit}`),
  dryRun: z.boolean().optional().describe('true: check every row and create nothing (the preview)'),
});

const rowError = z.object({
  index: z.number().int().min(0).describe('The row, from 0, as sent'),
  type: z.string().describe('The error code POST /v1/invitees would answer for the row alone'),
  field: z.string().optional(),
});
export type BulkRowError = z.output<typeof rowError>;

export const bulkInviteeAnswer = z.object({
  dryRun: z.boolean(),
  created: z.number().int().min(0).describe('Invitees created: every row, or none'),
  errors: z.array(rowError).describe("Each refused row's first problem; none when every row is good"),
  invitees: z.array(inviteeObjectSchema).describe('The invitees created (none on a dry run or with errors)'),
});
/** The invitees as presented (present.ts), which the schema documents. */
export type BulkInviteeAnswer = Omit<z.output<typeof bulkInviteeAnswer>, 'invitees'> & {
  invitees: Record<string, unknown>[];
};

const bulkRow = inviteeCreateInput.omit({ pictureUrl: true });

/** Thrown to roll the upload's transaction back: a dry run, or a row refused. */
class RolledBack extends Error {}

/**
 * Creates every invitee of the upload in one transaction, or none (docs/api.md, "Invitees in bulk"). Each row is
 * checked as POST /v1/invitees checks one, store rules included (the host, a taken card number, the custom
 * fields): each row is written in a savepoint of its own (createInvitee's transaction, nested), so that a refused row is reported and the next row is
 * still tried. A dry run, or any refused row, rolls everything back, invitation e-mails included (their jobs are
 * written in the same transaction).
 */
export async function createInviteesInBulk(
  ctx: Context,
  caller: Caller,
  rows: readonly Record<string, unknown>[],
  dryRun: boolean,
): Promise<BulkInviteeAnswer> {
  const errors: BulkRowError[] = [];
  let answer: BulkInviteeAnswer | undefined;
  try {
    await inTransaction(ctx, async () => {
      const created = [];
      for (const [index, row] of rows.entries()) {
        try {
          created.push(await createInvitee(ctx, caller, validate(bulkRow, row, inviteeInputCodes)));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const field = typeof error.extra.field === 'string' ? { field: error.extra.field } : {};
          errors.push({ index, type: error.type satisfies ErrorCode, ...field });
        }
      }
      if (dryRun || errors.length > 0) throw new RolledBack();
      answer = { dryRun, created: created.length, errors, invitees: await inviteeObjects(ctx, caller, created) };
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return answer ?? { dryRun, created: 0, errors, invitees: [] };
}
