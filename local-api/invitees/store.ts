import type { Caller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { findHost } from '../hosts/store.ts';
import { hostSummaries } from '../hosts/summaries.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { newCardNumber, newUuid } from '../rules/ids.ts';
import { parseTimestampInput } from '../rules/time.ts';
import { insertRow, objectToRow, prepared, rowToObject, updateRow } from '../store/rows.ts';
import { emitWebhookEvent } from '../webhooks/events.ts';
import {
  type InviteeCreateInput,
  type InviteeStatus,
  type InviteeUpdateInput,
  inviteeColumns,
  inviteeStatuses,
} from './schema.ts';

export type InviteeRow = Record<string, unknown> & {
  id: string;
  companyId: string;
  hostId: string;
  status: InviteeStatus;
  cardNumber: number;
  requiresAuthorization: number;
  meetingId: string | null;
};

const textFields = [
  'name',
  'hostId',
  'phone',
  'cpf',
  'rg',
  'document',
  'email',
  'address',
  'company',
  'position',
  'sector',
];

export const inviteeQueryFields: QueryFields = {
  ...Object.fromEntries(textFields.map((key) => [key, { kind: 'text' as const }])),
  expectedAt: { kind: 'timestamp' },
  cardNumber: { kind: 'number' },
  status: { kind: 'text', values: Object.fromEntries(inviteeStatuses.map((s) => [s, s])) },
  hostName: {
    kind: 'text',
    related: {
      foreignKey: 'hostId',
      select: (comparison) =>
        `SELECT id FROM hosts WHERE companyId = :companyId AND deletedAt IS NULL AND name ${comparison}`,
    },
  },
};

/** The invitee objects of section 2.8 for a page of rows: hosts fetched once for the page. */
export function inviteeObjects(ctx: Context, caller: Caller, rows: InviteeRow[]): Record<string, unknown>[] {
  const hosts = hostSummaries(
    ctx,
    caller,
    rows.map((r) => r.hostId),
  );
  return rows.map((row) => {
    const { companyId: _company, deletedAt: _deleted, ...object } = rowToObject(row, inviteeColumns, caller.timeZone);
    return { ...object, type: 'invitee', host: hosts.get(row.hostId) ?? null, meeting: null };
  });
}

export const inviteeObject = (ctx: Context, caller: Caller, row: InviteeRow) =>
  inviteeObjects(ctx, caller, [row])[0] as Record<string, unknown>;

export function findInvitee(ctx: Context, caller: Caller, id: string): InviteeRow | undefined {
  return prepared(ctx.db, 'SELECT * FROM invitees WHERE id = ? AND companyId = ? AND deletedAt IS NULL').get(
    id,
    caller.companyId,
  ) as InviteeRow | undefined;
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

/** A random int32 no live invitee of the company holds: the gate must tell invitees apart by it. */
export function freeCardNumber(ctx: Context, caller: Caller): number {
  for (;;) {
    const candidate = newCardNumber(ctx.random);
    if (!cardNumberTaken(ctx, caller, candidate)) return candidate;
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

/** Fields resolved before storage: the expected time into milliseconds, the host checked to be the company's. */
function resolvedFields(ctx: Context, caller: Caller, input: InviteeUpdateInput) {
  const { expectedAt, ...rest } = input;
  if (rest.hostId !== undefined) requireHost(ctx, caller, rest.hostId);
  return {
    ...objectToRow(rest, inviteeColumns),
    ...(expectedAt !== undefined ? { expectedAt: resolveExpectedAt(expectedAt, caller) } : {}),
  };
}

export function createInvitee(
  ctx: Context,
  caller: Caller,
  input: InviteeCreateInput,
  extra: { meetingId?: string } = {},
): InviteeRow {
  if (!input.email && !input.phone && !input.document) throw new ApiError('MISSING_EMAIL');
  return inTransaction(ctx, () => {
    const fields = resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && cardNumberTaken(ctx, caller, input.cardNumber)) {
      throw new ApiError('ALREADY_EXISTS');
    }
    const id = newUuid(ctx.random);
    const now = ctx.clock.now();
    insertRow(ctx.db, 'invitees', {
      status: 'confirmed',
      cardNumber: freeCardNumber(ctx, caller),
      ...fields,
      ...extra,
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = getInvitee(ctx, caller, id);
    emitWebhookEvent(ctx, caller, 'invitee.created', inviteeObject(ctx, caller, row));
    return row;
  });
}

export function updateInvitee(ctx: Context, caller: Caller, id: string, input: InviteeUpdateInput): InviteeRow {
  return inTransaction(ctx, () => {
    getInvitee(ctx, caller, id);
    const fields = resolvedFields(ctx, caller, input);
    if (input.cardNumber !== undefined && cardNumberTaken(ctx, caller, input.cardNumber, id)) {
      throw new ApiError('ALREADY_EXISTS');
    }
    updateRow(ctx.db, 'invitees', caller.companyId, id, { ...fields, updatedAt: ctx.clock.now() });
    const row = getInvitee(ctx, caller, id);
    emitWebhookEvent(ctx, caller, 'invitee.updated', inviteeObject(ctx, caller, row));
    return row;
  });
}

/** Sets an invitee's status as a side effect of another write (a check-in); the caller holds the transaction. */
export function setInviteeStatus(ctx: Context, caller: Caller, id: string, status: InviteeStatus): void {
  updateRow(ctx.db, 'invitees', caller.companyId, id, { status, updatedAt: ctx.clock.now() });
  if (status === 'arrived') {
    emitWebhookEvent(ctx, caller, 'invitee.arrived', inviteeObject(ctx, caller, getInvitee(ctx, caller, id)));
  }
}

export function deleteInvitee(ctx: Context, caller: Caller, id: string): void {
  inTransaction(ctx, () => {
    getInvitee(ctx, caller, id);
    const now = ctx.clock.now();
    updateRow(ctx.db, 'invitees', caller.companyId, id, { deletedAt: now, updatedAt: now });
  });
}

export function listInvitees(ctx: Context, caller: Caller, query: ListQuery): InviteeRow[] {
  const where = query.where ? `AND ${query.where}` : '';
  const sql = `SELECT * FROM invitees WHERE companyId = :companyId AND deletedAt IS NULL ${where}
    ORDER BY ${query.orderBy} LIMIT :limit OFFSET :offset`;
  return prepared(ctx.db, sql).all({
    ...query.params,
    companyId: caller.companyId,
    limit: query.limit,
    offset: query.offset,
  }) as InviteeRow[];
}
