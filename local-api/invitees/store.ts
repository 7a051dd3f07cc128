import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { guestsScope, requireOwnGuest } from '../credentials/guests.ts';
import { resolveCustomFieldObjects } from '../custom-fields/store.ts';
import { decodePicture, type FileBatch, fileUrlOf, inTransactionWithFiles, type Upload } from '../files/store.ts';
import { findHost, hostNameQueryField } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { type InvitationOptions, inviteeWritten } from '../invitations/queue.ts';
import { newCardNumber, newUuid } from '../rules/ids.ts';
import { parseTimestampInput } from '../rules/time.ts';
import { findLiveRow, insertRow, listRows, objectToRow, prepared, updateRow } from '../store/rows.ts';
import { requireVisitorType } from '../visitor-types/store.ts';
import { type InviteeRow, inviteeColumnQueryFields, inviteeColumns } from './contract.ts';
import { inviteeObject } from './present.ts';
import { type InviteeCreateInput, type InviteeUpdateInput, reachableBy } from './schema.ts';

export const inviteeQueryFields: QueryFields = { ...inviteeColumnQueryFields, hostName: hostNameQueryField };

export async function findInvitee(ctx: Context, caller: Caller, id: string): Promise<InviteeRow | undefined> {
  return await findLiveRow<InviteeRow>(ctx.db, 'invitees', caller.companyId, id, guestsScope(caller));
}

export async function getInvitee(ctx: Context, caller: Caller, id: string): Promise<InviteeRow> {
  const row = await findInvitee(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

async function cardNumberTaken(ctx: Context, caller: Caller, cardNumber: number, exceptId?: string): Promise<boolean> {
  const row = (await prepared(
    ctx.db,
    'SELECT id FROM invitees WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL',
  ).get(caller.companyId, cardNumber)) as { id: string } | undefined;
  return row !== undefined && row.id !== exceptId;
}

/**
 * A random int32 that no live invitee and no visit of the company holds: the gate tells people apart by it.
 * A visit made from an invitee keeps the invitee's number, so the two tables share one space of numbers.
 */
export async function freeCardNumber(ctx: Context, caller: Caller): Promise<number> {
  // Both tables in one statement: a check-in without a card number (an API walk-in, a push) pays one look-up.
  const holds = prepared(
    ctx.db,
    `SELECT 1 FROM invitees WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL
     UNION ALL SELECT 1 FROM visits WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL`,
  );
  for (;;) {
    const candidate = newCardNumber(ctx.random);
    if (!(await holds.get(caller.companyId, candidate, caller.companyId, String(candidate)))) return candidate;
  }
}

function resolveExpectedAt(value: string | number, caller: Caller): number {
  const at = parseTimestampInput(value, caller.timeZone);
  if (at === undefined) throw new ApiError('INVALID_EXPECTED_AT');
  return at;
}

async function requireHost(ctx: Context, caller: Caller, hostId: string): Promise<void> {
  if (!(await findHost(ctx, caller, hostId))) throw new ApiError('HOST_NOT_FOUND');
}

/**
 * Fields resolved before storage: the expected time into milliseconds, the host checked to be the company's (and
 * the caller's own, for people who invite only for themselves), the custom fields checked against their
 * definitions. The picture is `picturePlan`'s.
 */
async function resolvedFields(ctx: Context, caller: Caller, input: InviteeUpdateInput) {
  const { expectedAt, pictureUrl: _picture, customFields, sendInvitationEmail: _send, ...rest } = input;
  if (rest.hostId !== undefined) {
    requireOwnGuest(caller, 'invite', rest.hostId);
    await requireHost(ctx, caller, rest.hostId);
  }
  await requireVisitorType(ctx, caller, rest.visitorTypeId);
  return {
    ...objectToRow(rest, inviteeColumns),
    ...(customFields !== undefined
      ? { customFields: JSON.stringify(await resolveCustomFieldObjects(ctx, caller, customFields)) }
      : {}),
    ...(expectedAt !== undefined ? { expectedAt: resolveExpectedAt(expectedAt, caller) } : {}),
  };
}

/** What an input `pictureUrl` does: nothing, set a URL (or none), or store an uploaded picture. */
type PicturePlan = { kind: 'keep' } | { kind: 'url'; url: string | null } | { kind: 'upload'; upload: Upload };

/**
 * Reads `pictureUrl` as docs/api.md, "Invitees" allows it: a URL is kept as text, anything else is a Base64 picture to store.
 * The object's own file path (a client sending back what it read) changes nothing.
 */
function picturePlan(value: string | null | undefined, currentFile: string | null): PicturePlan {
  if (value === undefined) return { kind: 'keep' };
  if (value === null || value.trim() === '') return { kind: 'url', url: null };
  if (currentFile && value.startsWith(fileUrlOf(currentFile))) return { kind: 'keep' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) && !value.startsWith('data:')) {
    if (value.length > 2000) throw new ApiError('INVALID_PARAMETER', { field: 'pictureUrl' });
    return { kind: 'url', url: value };
  }
  return { kind: 'upload', upload: decodePicture(value, 'pictureUrl', 'invitee-picture') };
}

/** The row's picture columns after the plan; a replaced stored picture is retired. */
async function pictureColumns(plan: PicturePlan, files: FileBatch, currentFile: string | null) {
  if (plan.kind === 'keep') return {};
  await files.retire(currentFile);
  if (plan.kind === 'url') return { pictureUrl: plan.url, pictureFile: null };
  return { pictureUrl: null, pictureFile: await files.save(plan.upload) };
}

export async function createInvitee(
  ctx: Context,
  caller: Caller,
  input: InviteeCreateInput,
  extra: { meetingId?: string } = {},
): Promise<InviteeRow> {
  if (!reachableBy.some((key) => input[key])) throw new ApiError('MISSING_EMAIL');
  const picture = picturePlan(input.pictureUrl, null);
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    const fields = await resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && (await cardNumberTaken(ctx, caller, input.cardNumber))) {
      throw new ApiError('ALREADY_EXISTS');
    }
    const id = newUuid(ctx.random);
    const now = ctx.clock.now();
    await ctx.events.decide('invitee.created', caller);
    await insertRow(ctx.db, 'invitees', {
      status: 'confirmed',
      cardNumber: await freeCardNumber(ctx, caller),
      ...fields,
      ...(await pictureColumns(picture, files, null)),
      ...extra,
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getInvitee(ctx, caller, id);
    await ctx.events.publish('invitee.created', caller, async () => await inviteeObject(ctx, caller, row));
    await inviteeWritten(ctx, caller, undefined, row, { sendInvitationEmail: input.sendInvitationEmail });
    return row;
  });
}

/**
 * Updates an invitee; `picture`, a picture sent as itself (PUT /v1/invitee/:id/picture), replaces the stored one.
 * `invitation` adds to what the input says about the invitation e-mail (a meeting's write).
 */
export async function updateInvitee(
  ctx: Context,
  caller: Caller,
  id: string,
  input: InviteeUpdateInput,
  picture?: Upload,
  invitation: InvitationOptions = {},
): Promise<InviteeRow> {
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    const current = await getInvitee(ctx, caller, id);
    requireOwnGuest(caller, 'invite', current.hostId);
    const plan: PicturePlan = picture
      ? { kind: 'upload', upload: picture }
      : picturePlan(input.pictureUrl, current.pictureFile);
    const fields = await resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && (await cardNumberTaken(ctx, caller, input.cardNumber, id))) {
      throw new ApiError('ALREADY_EXISTS');
    }
    await ctx.events.decide('invitee.updated', caller);
    await updateRow(ctx.db, 'invitees', caller.companyId, id, {
      ...fields,
      ...(await pictureColumns(plan, files, current.pictureFile)),
      updatedAt: ctx.clock.now(),
    });
    const row = await getInvitee(ctx, caller, id);
    await ctx.events.publish('invitee.updated', caller, async () => await inviteeObject(ctx, caller, row));
    await inviteeWritten(ctx, caller, current, row, { sendInvitationEmail: input.sendInvitationEmail, ...invitation });
    return row;
  });
}

/** Marks an invitee arrived as part of its check-in; the check-in holds the transaction. */
export async function markInviteeArrived(ctx: Context, caller: Caller, id: string): Promise<void> {
  await ctx.events.decide('invitee.arrived', caller);
  await updateRow(ctx.db, 'invitees', caller.companyId, id, { status: 'arrived', updatedAt: ctx.clock.now() });
  // Read back only if a listener wants the object (it runs inside this transaction, so it sees the update).
  await ctx.events.publish(
    'invitee.arrived',
    caller,
    async () => await inviteeObject(ctx, caller, await getInvitee(ctx, caller, id)),
  );
}

export async function deleteInvitee(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getInvitee(ctx, caller, id);
    requireOwnGuest(caller, 'invite', row.hostId);
    const now = ctx.clock.now();
    await ctx.events.decide('invitee.deleted', caller);
    await updateRow(ctx.db, 'invitees', caller.companyId, id, { deletedAt: now, updatedAt: now });
    await ctx.events.publish(
      'invitee.deleted',
      caller,
      async () => await inviteeObject(ctx, caller, { ...row, deletedAt: now }),
    );
    await inviteeWritten(ctx, caller, row, { ...row, deletedAt: now });
  });
}

export const listInvitees = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<InviteeRow>(ctx.db, 'invitees', caller.companyId, query, guestsScope(caller));
