import type { Caller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import type { DomainEvent, EventListener, EventName } from '../events.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { formatInZone } from '../rules/time.ts';
import { insertRow, prepared } from '../store/rows.ts';

/**
 * Check-ins and arrivals are the visitors' own doing, and the visits table records them already; every other event
 * (check-outs, allow/deny, updates, deletes, settings, erasures, and the events other parts add) is audited.
 */
const unaudited: ReadonlySet<EventName> = new Set(['visit.checkin', 'invitee.arrived']);

/** Where an event's object names the host who acted. */
const actorField: Partial<Record<EventName, string>> = {
  'visit.checkout': 'checkoutByHostId',
  'visit.allowed': 'authorizedById',
  'visit.denied': 'authorizedById',
};

interface AuditRow {
  id: number;
  companyId: string;
  at: number;
  action: string;
  objectType: string | null;
  objectId: string | null;
  actorHostId: string | null;
  details: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The object's top-level numbers and booleans: text is left out, because text may be a person's data. */
function detailsOf(object: Record<string, unknown>): Record<string, number | boolean> {
  const details: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(object)) {
    if (typeof value === 'number' || typeof value === 'boolean') details[key] = value;
  }
  return details;
}

function auditEntry(ctx: Pick<Context, 'db' | 'clock'>, event: DomainEvent): void {
  const object = event.object();
  const actor = actorField[event.name];
  insertRow(ctx.db, 'audit_log', {
    companyId: event.caller.companyId,
    at: ctx.clock.now(),
    action: event.name,
    objectType: text(object.type),
    objectId: text(object.id),
    actorHostId: actor ? text(object[actor]) : null,
    details: JSON.stringify(detailsOf(object)),
  });
}

/**
 * An entry for an action that is not an event of its own (the front desk letting a visitor in without the answers
 * the company requires), written inside the action's transaction. Its details are the caller's to choose: unlike
 * an event's, they may hold text (the reason given).
 */
export function recordAudit(
  ctx: Pick<Context, 'db' | 'clock'>,
  caller: Caller,
  entry: { action: string; objectType: string; objectId: string; details: Record<string, unknown> },
): void {
  insertRow(ctx.db, 'audit_log', {
    companyId: caller.companyId,
    at: ctx.clock.now(),
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    actorHostId: null,
    details: JSON.stringify(entry.details),
  });
}

/** Writes the audit entry inside the transaction of the action: the entry exists if and only if the action does. */
export function auditListener(ctx: Pick<Context, 'db' | 'clock'>): EventListener {
  return (event) => {
    if (!unaudited.has(event.name)) auditEntry(ctx, event);
  };
}

export const auditQueryFields: QueryFields = {
  action: { kind: 'text' },
  objectType: { kind: 'text' },
  objectId: { kind: 'text' },
  actorHostId: { kind: 'text' },
  at: { kind: 'timestamp' },
};

/** A page of the company's entries, oldest first: pages stay stable while new entries are appended. */
export function listAudit(ctx: Context, caller: Caller, query: ListQuery): Record<string, unknown>[] {
  const where = query.where ? `AND ${query.where}` : '';
  const rows = prepared(
    ctx.db,
    `SELECT * FROM audit_log WHERE companyId = :companyId ${where} ORDER BY ${query.orderBy} LIMIT :limit OFFSET :offset`,
  ).all({ ...query.params, companyId: caller.companyId, limit: query.limit, offset: query.offset }) as AuditRow[];
  return rows.map(({ companyId: _company, at, details, ...row }) => ({
    ...row,
    type: 'audit',
    at: formatInZone(at, caller.timeZone),
    details: JSON.parse(details) as unknown,
  }));
}
