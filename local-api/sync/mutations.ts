import { z } from 'zod';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { DomainEvent, EventName } from '../events.ts';
import { ApiError } from '../http/errors.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { findInvitee } from '../invitees/store.ts';
import { findLiveRow, prepared } from '../store/rows.ts';
import { type VisitRow, visitColumns } from '../visits/contract.ts';
import {
  authorizationInput,
  checkoutInput,
  inviteeCheckinInput,
  visitCreateInput,
  visitSyncFields,
} from '../visits/schema.ts';
import {
  authorizeVisit,
  checkinInvitee,
  checkinWalkIn,
  checkoutVisit,
  getVisit,
  inviteeAnswers,
} from '../visits/store.ts';
import { compareHlc, isHlc } from './hlc.ts';
import type { RowRef } from './outbox.ts';

/*
 * What a kiosk does that its hub must learn, as named mutations. On the kiosk a domain event becomes a mutation
 * (`mutationOfEvent`), its arguments read from the row inside the write's transaction; at the hub the mutation is
 * validated with the API's own schemas and applied through the API's own store functions (`applyMutation`).
 */

export interface MutationKind<Args> {
  /** The hub's check of what a kiosk sent; the API's input schemas where there is one. */
  args: z.ZodType<Args>;
  /** The rows the mutation concerns: held back from pulls on the kiosk while pending, re-sent by the hub after. */
  rows(args: Args): RowRef[];
  /** The row an earlier mutation made that this one changes (a check-out's visit): see `applyPush`. */
  needs?(args: Args): RowRef;
  /** Applies it at the hub, inside the push's transaction; throws ApiError when it cannot be applied. */
  apply(ctx: Context, caller: Caller, args: Args, hlc: string): Promise<void>;
}

const kind = <Args>(spec: MutationKind<Args>) => spec as unknown as MutationKind<unknown>;

const visitRef = (id: string): RowRef => ({ table: 'visits', key: id });

/** A register's timestamp (see `sync_registers`). */
export async function registerHlc(ctx: Pick<Context, 'db'>, table: string, key: string, register: string) {
  const row = (await prepared(
    ctx.db,
    'SELECT hlc FROM sync_registers WHERE tableName = ? AND rowKey = ? AND register = ?',
  ).get(table, key, register)) as { hlc: string } | undefined;
  return row?.hlc;
}

export async function setRegisterHlc(
  ctx: Pick<Context, 'db'>,
  table: string,
  key: string,
  register: string,
  hlc: string,
) {
  await prepared(
    ctx.db,
    `INSERT INTO sync_registers (tableName, rowKey, register, hlc) VALUES (?, ?, ?, ?)
     ON CONFLICT (tableName, rowKey, register) DO UPDATE SET hlc = excluded.hlc`,
  ).run(table, key, register, hlc);
}

const inviteeCheckinArgs = z.object({
  inviteeId: z.string().max(64),
  checkin: inviteeCheckinInput.required({ id: true }),
  /** The kiosk's record of the visit, as a walk-in's arguments: what the hub records if it lost the invitation. */
  record: visitCreateInput.optional(),
});
const checkoutArgs = z.object({ id: z.string().max(64), checkout: checkoutInput });
const authorizeArgs = z.object({
  id: z.string().max(64),
  status: z.enum(['ALLOWED', 'DENIED']),
  authorizedAt: z.iso.datetime(),
  authorization: authorizationInput,
  /** The decision's own timestamp, when it is older than the mutation's: a decision sent again (see recovery.ts). */
  decidedHlc: z.string().refine(isHlc).optional(),
});

/** The mutations a kiosk pushes, by name. A new kind of offline write is one entry here and one in `recorders`. */
export const mutationKinds: Readonly<Record<string, MutationKind<unknown>>> = {
  /** A walk-in check-in: the API's own idempotent POST /v1/visits, with the visit id the kiosk made. */
  'visit.checkin': kind({
    args: visitCreateInput,
    rows: (args) => [visitRef(args.visit.id)],
    apply: async (ctx, caller, args) => {
      await checkinWalkIn(ctx, caller, args, { replayed: true });
    },
  }),
  /**
   * An invitee's check-in, replayed: recorded even when the hub canceled the invitee meanwhile, flagged; and from
   * the kiosk's record, flagged, when the hub no longer has the invitation (deleted, or lost to a restore).
   */
  'invitee.checkin': kind({
    args: inviteeCheckinArgs,
    rows: (args) => [visitRef(args.checkin.id), { table: 'invitees', key: args.inviteeId }],
    apply: async (ctx, caller, args) => {
      if (args.record && !(await findInvitee(ctx, caller, args.inviteeId))) {
        await checkinWalkIn(ctx, caller, args.record, { replayed: true, lostInviteeId: args.inviteeId });
      } else {
        await checkinInvitee(ctx, caller, args.inviteeId, args.checkin, { replayed: true });
      }
    },
  }),
  /** A check-out is never undone: the first to reach the hub holds, a later one changes nothing. */
  'visit.checkout': kind({
    args: checkoutArgs,
    rows: (args) => [visitRef(args.id)],
    needs: (args) => visitRef(args.id),
    apply: async (ctx, caller, args) => {
      try {
        await checkoutVisit(ctx, caller, args.id, args.checkout);
      } catch (error) {
        if (!(error instanceof ApiError && error.type === 'ALREADY_CHECKOUT')) throw error;
      }
    },
  }),
  /** Allow or deny: last writer wins, by hybrid logical clock, whichever order the decisions arrive in. */
  'visit.authorize': kind({
    args: authorizeArgs,
    rows: (args) => [visitRef(args.id)],
    needs: (args) => visitRef(args.id),
    apply: async (ctx, caller, args, mutationHlc) => {
      await getVisit(ctx, caller, args.id);
      const hlc = args.decidedHlc ?? mutationHlc;
      const held = await registerHlc(ctx, 'visits', args.id, 'authorization');
      if (held !== undefined && compareHlc(held, hlc) >= 0) return;
      await authorizeVisit(ctx, caller, args.id, args.status, args.authorization);
      await prepared(ctx.db, 'UPDATE visits SET authorizedAt = ? WHERE id = ?').run(
        Date.parse(args.authorizedAt),
        args.id,
      );
      await setRegisterHlc(ctx, 'visits', args.id, 'authorization', hlc);
    },
  }),
};

/** Stored values as input text: times as ISO 8601 with milliseconds, JSON parsed, booleans as booleans. */
function inputValue(column: keyof VisitRow, value: unknown): unknown {
  if (visitColumns.times.includes(column)) return new Date(Number(value)).toISOString();
  if (visitColumns.json.includes(column)) return JSON.parse(String(value)) as unknown;
  if (visitColumns.booleans.includes(column)) return value === 1;
  return value;
}

/** The given columns of the row as input fields; absent (null) values are left out, as a client would. */
function inputFields(row: VisitRow, columns: readonly (keyof VisitRow)[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const column of columns) {
    const value = row[column];
    if (value !== null && value !== undefined) fields[column] = inputValue(column, value);
  }
  return fields;
}

async function visitRowOf(ctx: Pick<Context, 'db'>, event: DomainEvent): Promise<VisitRow> {
  return (await prepared(ctx.db, 'SELECT * FROM visits WHERE id = ?').get(
    String((await event.object()).id),
  )) as VisitRow;
}

/** A visit's check-in as the kiosk's mutation: a walk-in's, or an invitee's with the kiosk's record beside it. */
async function checkinOf(ctx: Pick<Context, 'db'>, row: VisitRow): Promise<Mutation> {
  const record = {
    visit: inputFields(row, visitSyncFields.walkIn),
    visitor: inputFields(row, visitSyncFields.visitor),
  };
  if (row.inviteeId === null) return { name: 'visit.checkin', args: record, rows: [visitRef(row.id)] };
  const checkin = inputFields(row, visitSyncFields.inviteeCheckin);
  // Answers copied from the invitee are left for the hub to copy from its own invitee, with their field types.
  const invitee = await findLiveRow<InviteeRow>(ctx.db, 'invitees', row.companyId, row.inviteeId);
  if (invitee && row.customFields === JSON.stringify(inviteeAnswers(invitee))) delete checkin.customFields;
  return {
    name: 'invitee.checkin',
    args: { inviteeId: row.inviteeId, checkin, record },
    rows: [visitRef(row.id), { table: 'invitees', key: row.inviteeId }],
  };
}

function checkoutOf(row: VisitRow): Mutation {
  const checkout = inputFields(row, visitSyncFields.checkout);
  return { name: 'visit.checkout', args: { id: row.id, checkout }, rows: [visitRef(row.id)] };
}

function authorizationOf(row: VisitRow, status: 'ALLOWED' | 'DENIED', decidedHlc?: string): Mutation {
  const args = {
    id: row.id,
    status,
    authorizedAt: new Date(Number(row.authorizedAt)).toISOString(),
    authorization: inputFields(row, visitSyncFields.authorization),
    ...(decidedHlc === undefined ? {} : { decidedHlc }),
  };
  return { name: 'visit.authorize', args, rows: [visitRef(row.id)] };
}

/**
 * The mutations that bring a hub that lost a visit (or part of it) to the kiosk's record of it: its check-in, its
 * check-out, and its allow or deny with the decision's timestamp (`decidedHlc`).
 */
export async function visitMutations(ctx: Pick<Context, 'db'>, row: VisitRow, decidedHlc: string): Promise<Mutation[]> {
  const mutations = [await checkinOf(ctx, row)];
  if (row.checkoutAt !== null) mutations.push(checkoutOf(row));
  const status = row.authorizationStatus;
  if ((status === 'ALLOWED' || status === 'DENIED') && row.authorizedAt !== null) {
    mutations.push(authorizationOf(row, status, decidedHlc));
  }
  return mutations;
}

export interface Mutation {
  name: string;
  args: unknown;
  rows: RowRef[];
}

/**
 * How each domain event reaches the hub from a kiosk: as a mutation, or not at all (`null`: an invitee arrives by
 * its check-in's mutation; a retention sweep is done at each service). Events not listed change data the hub owns
 * (hosts, invitees, a visit's details, the access-control and privacy settings, erasures) and are refused on a
 * kiosk.
 */
const recorders: Partial<Record<EventName, (ctx: Context, event: DomainEvent) => Promise<Mutation | null>>> = {
  'visit.checkin': async (ctx, event) => await checkinOf(ctx, await visitRowOf(ctx, event)),
  'visit.checkout': async (ctx, event) => checkoutOf(await visitRowOf(ctx, event)),
  'visit.allowed': async (ctx, event) => authorizationOf(await visitRowOf(ctx, event), 'ALLOWED'),
  'visit.denied': async (ctx, event) => authorizationOf(await visitRowOf(ctx, event), 'DENIED'),
  'invitee.arrived': async () => null,
  // Visitor records are each service's own (recognition at its door), not the hub's.
  'visitor.deleted': async () => null,
  // Every service applies the company's retention (synced from the hub) to the rows it holds.
  'privacy.retention.swept': async () => null,
};

/** Whether a kiosk makes the write of this event itself for its hub company (as a mutation, or needing none). */
export const isKioskWrite = (name: EventName): boolean => Object.hasOwn(recorders, name);

/** The mutation an event makes on a kiosk; `undefined` when the event is not a kiosk's to make. */
export async function mutationOfEvent(ctx: Context, event: DomainEvent): Promise<Mutation | null | undefined> {
  const recorder = recorders[event.name];
  return recorder ? await recorder(ctx, event) : undefined;
}
