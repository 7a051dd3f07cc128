import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { resolveCustomFieldObjects } from '../custom-fields/store.ts';
import {
  decodePicture,
  type FileBatch,
  fileUrlOf,
  fileUrls,
  inTransactionWithFiles,
  type Upload,
} from '../files/store.ts';
import { findHost, hostNameQueryField } from '../hosts/store.ts';
import { hostSummaries } from '../hosts/summaries.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { meetingsById } from '../meetings/objects.ts';
import { newCardNumber, newUuid } from '../rules/ids.ts';
import { parseTimestampInput } from '../rules/time.ts';
import { findLiveRow, insertRow, listRows, objectToRow, prepared, rowToObject, updateRow } from '../store/rows.ts';
import { requireVisitorType } from '../visitor-types/store.ts';
import { visitorDataFields } from '../visitors/contract.ts';
import {
  type InviteeCreateInput,
  type InviteeStatus,
  type InviteeUpdateInput,
  inviteeColumns,
  inviteeStatuses,
  reachableBy,
} from './schema.ts';

export type InviteeRow = Record<string, unknown> & {
  id: string;
  companyId: string;
  hostId: string;
  status: InviteeStatus;
  cardNumber: number;
  requiresAuthorization: number;
  meetingId: string | null;
  pictureFile: string | null;
};

const textFields = [...visitorDataFields, 'hostId', 'visitorTypeId'];

export const inviteeQueryFields: QueryFields = {
  ...Object.fromEntries(textFields.map((key) => [key, { kind: 'text' as const }])),
  expectedAt: { kind: 'timestamp' },
  cardNumber: { kind: 'number' },
  status: { kind: 'text', values: Object.fromEntries(inviteeStatuses.map((s) => [s, s])) },
  hostName: hostNameQueryField,
};

/** The invitee objects of docs/api.md, "Invitees" for a page of rows: hosts fetched once for the page. */
export function inviteeObjects(ctx: Context, caller: Caller, rows: InviteeRow[]): Record<string, unknown>[] {
  const hosts = hostSummaries(
    ctx,
    caller,
    rows.map((r) => r.hostId),
  );
  const meetings = meetingsById(
    ctx,
    caller,
    rows.map((r) => r.meetingId),
  );
  return rows.map((row) => {
    const object = rowToObject(row, inviteeColumns, caller.timeZone, ['companyId', 'deletedAt', 'pictureFile']);
    const picture = fileUrls(ctx, row.pictureFile);
    object.type = 'invitee';
    object.host = hosts.get(row.hostId) ?? null;
    object.meeting = row.meetingId ? (meetings.get(row.meetingId) ?? null) : null;
    object.pictureUrl = picture.url ?? object.pictureUrl;
    object.pictureSignedUrl = picture.signedUrl;
    return object;
  });
}

export const inviteeObject = (ctx: Context, caller: Caller, row: InviteeRow) =>
  inviteeObjects(ctx, caller, [row])[0] as Record<string, unknown>;

export function findInvitee(ctx: Context, caller: Caller, id: string): InviteeRow | undefined {
  return findLiveRow<InviteeRow>(ctx.db, 'invitees', caller.companyId, id);
}

export function getInvitee(ctx: Context, caller: Caller, id: string): InviteeRow {
  const row = findInvitee(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

function cardNumberTaken(ctx: Context, caller: Caller, cardNumber: number, exceptId?: string): boolean {
  const row = prepared(
    ctx.db,
    'SELECT id FROM invitees WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL',
  ).get(caller.companyId, cardNumber) as { id: string } | undefined;
  return row !== undefined && row.id !== exceptId;
}

/**
 * A random int32 that no live invitee and no visit of the company holds: the gate tells people apart by it.
 * A visit made from an invitee keeps the invitee's number, so the two tables share one space of numbers.
 */
export function freeCardNumber(ctx: Context, caller: Caller): number {
  const visitHolds = prepared(
    ctx.db,
    'SELECT 1 FROM visits WHERE companyId = ? AND cardNumber = ? AND deletedAt IS NULL',
  );
  for (;;) {
    const candidate = newCardNumber(ctx.random);
    if (!cardNumberTaken(ctx, caller, candidate) && !visitHolds.get(caller.companyId, String(candidate))) {
      return candidate;
    }
  }
}

function resolveExpectedAt(value: string | number, caller: Caller): number {
  const at = parseTimestampInput(value, caller.timeZone);
  if (at === undefined) throw new ApiError('INVALID_EXPECTED_AT');
  return at;
}

function requireHost(ctx: Context, caller: Caller, hostId: string): void {
  if (!findHost(ctx, caller, hostId)) throw new ApiError('HOST_NOT_FOUND');
}

/**
 * Fields resolved before storage: the expected time into milliseconds, the host checked to be the company's, the
 * custom fields checked against their definitions. The picture is `picturePlan`'s.
 */
function resolvedFields(ctx: Context, caller: Caller, input: InviteeUpdateInput) {
  const { expectedAt, pictureUrl: _picture, customFields, ...rest } = input;
  if (rest.hostId !== undefined) requireHost(ctx, caller, rest.hostId);
  requireVisitorType(ctx, caller, rest.visitorTypeId);
  return {
    ...objectToRow(rest, inviteeColumns),
    ...(customFields !== undefined
      ? { customFields: JSON.stringify(resolveCustomFieldObjects(ctx, caller, customFields)) }
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
function pictureColumns(plan: PicturePlan, files: FileBatch, currentFile: string | null) {
  if (plan.kind === 'keep') return {};
  files.retire(currentFile);
  if (plan.kind === 'url') return { pictureUrl: plan.url, pictureFile: null };
  return { pictureUrl: null, pictureFile: files.save(plan.upload) };
}

export function createInvitee(
  ctx: Context,
  caller: Caller,
  input: InviteeCreateInput,
  extra: { meetingId?: string } = {},
): InviteeRow {
  if (!reachableBy.some((key) => input[key])) throw new ApiError('MISSING_EMAIL');
  const picture = picturePlan(input.pictureUrl, null);
  return inTransactionWithFiles(ctx, caller, (files) => {
    const fields = resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && cardNumberTaken(ctx, caller, input.cardNumber)) {
      throw new ApiError('ALREADY_EXISTS');
    }
    const id = newUuid(ctx.random);
    const now = ctx.clock.now();
    ctx.events.decide('invitee.created', caller);
    insertRow(ctx.db, 'invitees', {
      status: 'confirmed',
      cardNumber: freeCardNumber(ctx, caller),
      ...fields,
      ...pictureColumns(picture, files, null),
      ...extra,
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = getInvitee(ctx, caller, id);
    ctx.events.publish('invitee.created', caller, () => inviteeObject(ctx, caller, row));
    return row;
  });
}

/** Updates an invitee; `picture`, a picture sent as itself (PUT /v1/invitee/:id/picture), replaces the stored one. */
export function updateInvitee(
  ctx: Context,
  caller: Caller,
  id: string,
  input: InviteeUpdateInput,
  picture?: Upload,
): InviteeRow {
  return inTransactionWithFiles(ctx, caller, (files) => {
    const current = getInvitee(ctx, caller, id);
    const plan: PicturePlan = picture
      ? { kind: 'upload', upload: picture }
      : picturePlan(input.pictureUrl, current.pictureFile);
    const fields = resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && cardNumberTaken(ctx, caller, input.cardNumber, id)) {
      throw new ApiError('ALREADY_EXISTS');
    }
    ctx.events.decide('invitee.updated', caller);
    updateRow(ctx.db, 'invitees', caller.companyId, id, {
      ...fields,
      ...pictureColumns(plan, files, current.pictureFile),
      updatedAt: ctx.clock.now(),
    });
    const row = getInvitee(ctx, caller, id);
    ctx.events.publish('invitee.updated', caller, () => inviteeObject(ctx, caller, row));
    return row;
  });
}

/** Marks an invitee arrived as part of its check-in; the check-in holds the transaction. */
export function markInviteeArrived(ctx: Context, caller: Caller, id: string): void {
  ctx.events.decide('invitee.arrived', caller);
  updateRow(ctx.db, 'invitees', caller.companyId, id, { status: 'arrived', updatedAt: ctx.clock.now() });
  // Read back only if a listener wants the object (it runs inside this transaction, so it sees the update).
  ctx.events.publish('invitee.arrived', caller, () => inviteeObject(ctx, caller, getInvitee(ctx, caller, id)));
}

export function deleteInvitee(ctx: Context, caller: Caller, id: string): void {
  inTransaction(ctx, () => {
    const row = getInvitee(ctx, caller, id);
    const now = ctx.clock.now();
    ctx.events.decide('invitee.deleted', caller);
    updateRow(ctx.db, 'invitees', caller.companyId, id, { deletedAt: now, updatedAt: now });
    ctx.events.publish('invitee.deleted', caller, () => inviteeObject(ctx, caller, { ...row, deletedAt: now }));
  });
}

export const listInvitees = (ctx: Context, caller: Caller, query: ListQuery) =>
  listRows<InviteeRow>(ctx.db, 'invitees', caller.companyId, query);
