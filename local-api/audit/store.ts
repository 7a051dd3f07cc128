import { type Context, inTransaction, runtimePart } from '../context.ts';
import { type Caller, deviceOwnerCredentialId } from '../credentials/caller.ts';
import type { DomainEvent, EventListener, EventName } from '../events.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { formatInZone } from '../rules/time.ts';
import { insertRow, jsonTextElements, prepared } from '../store/rows.ts';

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
  actorCredentialId: string | null;
  actorRole: string | null;
  details: string;
}

/**
 * Who acted, as the audit log records it: the company, the credential and its role; and the person, when a console
 * session acted (its credential id is `session:<id>`, an API key's is the key's id).
 */
export interface AuditActor {
  companyId: string;
  credentialId: string | null;
  role: string | null;
  hostId?: string | undefined;
}

/** The one place a request's caller becomes the actor of an entry. */
export const auditActor = (caller: Caller): AuditActor => ({
  companyId: caller.companyId,
  credentialId: caller.credentialId,
  role: caller.role,
  hostId: caller.hostId,
});

/** The device owner, acting on the data folder (the command line, the device's first start, an enrolment). */
export const deviceOwnerActor = (companyId: string): AuditActor => ({
  companyId,
  credentialId: deviceOwnerCredentialId,
  role: 'owner',
});

/** What an entry says happened. */
export interface AuditFact {
  action: string;
  objectType?: string | null;
  objectId?: string | null;
  actorHostId?: string | null;
  /**
   * An event's details are its numbers and booleans only (text may be a person's data); an action recorded by
   * name may add text its actor chose to give (the reason the front desk waived a requirement).
   */
  details?: Record<string, unknown>;
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

/**
 * Appends an entry. Inside a write's transaction it commits or rolls back with the write; outside one (a refused
 * PIN, a read) it commits at once.
 */
export async function recordAudit(
  ctx: Pick<Context, 'db' | 'clock'>,
  actor: AuditActor,
  fact: AuditFact,
): Promise<void> {
  await appendEntry(ctx.db, actor, fact, ctx.clock.now());
}

async function appendEntry(db: Context['db'], actor: AuditActor, fact: AuditFact, at: number): Promise<void> {
  await insertRow(db, 'audit_log', {
    companyId: actor.companyId,
    at,
    action: fact.action,
    objectType: fact.objectType ?? null,
    objectId: fact.objectId ?? null,
    // A signed-in person is the one who acted, whatever host the object names.
    actorHostId: actor.hostId ?? fact.actorHostId ?? null,
    actorCredentialId: actor.credentialId,
    actorRole: actor.role,
    details: JSON.stringify(fact.details ?? {}),
  });
}

/**
 * Reads of the same thing by the same credential are recorded once a minute: the front desk's lists refresh every
 * few seconds, and an entry (an fsync on a kiosk's flash) per refresh would say no more about who saw what.
 */
export const readCoalesceMs = 60_000;
const maxRememberedReads = 10_000;

/**
 * Read entries wait here and are written together, one transaction (one fsync) within `readFlushMs` of the first:
 * a read is no write, and a commit per visit read cost the read a third of its speed (docs/benchmarks.md). Whoever
 * reads the log first writes what waits (`listAudit`), and so does the service as it stops; a crash loses at most
 * the last `readFlushMs` of reads (docs/reliability.md).
 */
export const readFlushMs = 1000;

/** The service's reads recorded lately (by caller and object) and the read entries waiting to be written. */
interface ReadLog {
  lastReads: Map<string, number>;
  pending: { entries: [AuditActor, AuditFact, number][]; timer: NodeJS.Timeout } | undefined;
}

const readLogOf = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart<ReadLog>(ctx, 'audit.reads', () => ({ lastReads: new Map(), pending: undefined }));

/** Writes the read entries that wait, if any. */
export async function flushReads(ctx: Pick<Context, 'db' | 'runtime'>): Promise<void> {
  const log = readLogOf(ctx);
  const pending = log.pending;
  if (!pending) return;
  log.pending = undefined;
  clearTimeout(pending.timer);
  if (!ctx.db.open) return;
  await inTransaction(ctx, async () => {
    for (const [actor, fact, at] of pending.entries) await appendEntry(ctx.db, actor, fact, at);
  });
}

/** Records a read of personal data (a list of visitors, a visit, a picture, an NDA), stamped when it happened. */
export function recordRead(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, actor: AuditActor, fact: AuditFact): void {
  const log = readLogOf(ctx);
  const seen = log.lastReads;
  const key = [actor.companyId, actor.credentialId, fact.action, fact.objectId].join('\n');
  const now = ctx.clock.now();
  const last = seen.get(key);
  if (last !== undefined && now - last < readCoalesceMs) return;
  if (seen.size >= maxRememberedReads) seen.clear();
  seen.set(key, now);
  if (!log.pending) {
    const { db, runtime } = ctx;
    // A flush that fails (the database closing under it) loses these reads, as a crash would.
    const flush = () => void flushReads({ db, runtime }).catch(() => {});
    log.pending = { entries: [], timer: setTimeout(flush, readFlushMs).unref() };
  }
  log.pending.entries.push([actor, fact, now]);
}

/** A caller's read of one personal record (`objectId`) or of a list (`size` records). */
export function auditRead(
  ctx: Pick<Context, 'db' | 'clock' | 'runtime'>,
  caller: Caller,
  read: { action: string; objectType: string; objectId?: string; size?: number },
): void {
  recordRead(ctx, auditActor(caller), {
    action: read.action,
    objectType: read.objectType,
    objectId: read.objectId ?? null,
    details: read.size === undefined ? {} : { size: read.size },
  });
}

async function auditEntry(ctx: Pick<Context, 'db' | 'clock'>, event: DomainEvent): Promise<void> {
  const object = await event.object();
  const actor = actorField[event.name];
  await recordAudit(ctx, auditActor(event.caller), {
    action: event.name,
    objectType: text(object.type),
    objectId: text(object.id),
    actorHostId: actor ? text(object[actor]) : null,
    details: detailsOf(object),
  });
}

/** Writes the audit entry inside the transaction of the action: the entry exists if and only if the action does. */
export function auditListener(ctx: Pick<Context, 'db' | 'clock'>): EventListener {
  return async (event) => {
    if (!unaudited.has(event.name)) await auditEntry(ctx, event);
  };
}

export const auditQueryFields: QueryFields = {
  action: { kind: 'text' },
  objectType: { kind: 'text' },
  objectId: { kind: 'text' },
  actorHostId: { kind: 'text' },
  actorCredentialId: { kind: 'text' },
  actorRole: { kind: 'text' },
  at: { kind: 'timestamp' },
};

/** A page of the company's entries, oldest first: pages stay stable while new entries are appended. */
export async function listAudit(ctx: Context, caller: Caller, query: ListQuery): Promise<Record<string, unknown>[]> {
  await flushReads(ctx);
  const where = query.where ? `AND ${query.where}` : '';
  const rows = (await prepared(
    ctx.db,
    `SELECT * FROM audit_log WHERE companyId = :companyId ${where} ORDER BY ${query.orderBy} LIMIT :limit OFFSET :offset`,
  ).all({ ...query.params, companyId: caller.companyId, limit: query.limit, offset: query.offset })) as AuditRow[];
  return rows.map((row) => auditObject(row, caller));
}

const auditObject = ({ companyId: _company, at, details, ...row }: AuditRow, caller: Caller) => ({
  ...row,
  type: 'audit',
  at: formatInZone(at, caller.timeZone),
  details: JSON.parse(details) as unknown,
});

/** The company's entries about the given objects (a person's visits, invitees…), oldest first. */
export async function auditOfObjects(
  ctx: Context,
  caller: Caller,
  ids: readonly string[],
): Promise<Record<string, unknown>[]> {
  const rows = (await prepared(
    ctx.db,
    `SELECT * FROM audit_log WHERE companyId = ? AND objectId IN (SELECT value FROM ${jsonTextElements(ctx.db, '?')})
     ORDER BY id`,
  ).all(caller.companyId, JSON.stringify(ids))) as AuditRow[];
  return rows.map((row) => auditObject(row, caller));
}
