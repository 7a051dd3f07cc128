import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { deleteQueuedFiles } from '../files/bytes.ts';
import { forgetFile } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import { emailKey } from '../rules/identity.ts';
import { newRecordId } from '../rules/ids.ts';
import { formatInZone } from '../rules/time.ts';
import type { Db } from '../store/db.ts';
import { jsonTextElements, prepared, textPosition } from '../store/rows.ts';
import {
  isPersonsRow,
  learnFrom,
  type Person,
  type PersonIdentifiers,
  personOf,
  redactJson,
  redactText,
  tellingValues,
} from './person.ts';
import { anonymiseSql, holdsPersonalData, type PersonalTable, personalTables } from './personal-data.ts';

const dayMs = 86_400_000;

type Row = Record<string, unknown> & { id: string; deletedAt: number | null };

/** Databases whose WAL still holds the page images from before an anonymisation (see `settleErasures`). */
const walToTruncate = new WeakSet<Db>();

/**
 * Takes the person's data out of the rows, erases their files (`forgetFile`: the bytes, and the rows marked deleted
 * without their hash and size, which are the person's too); returns how many files.
 */
async function anonymise(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  table: PersonalTable,
  rows: Row[],
  now: number,
): Promise<number> {
  let files = 0;
  for (const row of rows) {
    for (const column of table.files) {
      const path = row[column];
      if (typeof path !== 'string' || path === '') continue;
      await forgetFile(ctx, companyId, path, now);
      files++;
    }
    await prepared(ctx.db, anonymiseSql(table)).run({ id: row.id, now });
  }
  if (rows.length > 0) walToTruncate.add(ctx.db);
  return files;
}

/**
 * Copies the WAL into the database and empties it: the page images from before an erasure stay in the WAL until
 * it is overwritten, and an erasure is not done while they do. A reader in progress can keep some of it for now.
 */
function truncateWal(ctx: Context): void {
  // PostgreSQL has no WAL of page images to empty here: VACUUM reclaims dead rows (docs/deployment.md).
  const [result] = (ctx.db.sqlite?.pragma('wal_checkpoint(TRUNCATE)') ?? []) as { busy: number }[];
  if (result?.busy) ctx.log.warn('the WAL could not be emptied after an erasure: a reader held it');
}

/** After the transaction of an anonymisation: the files go, and the WAL is emptied of what the rows held. */
export async function settleErasures(ctx: Context): Promise<void> {
  await deleteQueuedFiles(ctx);
  if (walToTruncate.delete(ctx.db)) truncateWal(ctx);
}

/** What is known of the person to look for elsewhere: the ids of their rows and the texts that tell them. */
export interface Traces {
  ids: string[];
  values: string[];
}

/** SQL true for a row whose `column` holds one of the ids (`:ids`) or texts (`:values`, without regard to case). */
const mentions = (db: Db, column: string) =>
  `(EXISTS (SELECT 1 FROM ${jsonTextElements(db, ':ids')} WHERE ${textPosition(db, column, 'value')} > 0)
    OR EXISTS (SELECT 1 FROM ${jsonTextElements(db, ':values')}
               WHERE ${textPosition(db, `lower(${column})`, 'lower(value)')} > 0))`;

const traceParams = (traces: Traces) => ({ ids: JSON.stringify(traces.ids), values: JSON.stringify(traces.values) });

export interface JobAbout {
  id: number;
  kind: string;
  status: string;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  payload: string;
}

/** The company's jobs whose payload holds one of the ids or texts, oldest first. */
export async function jobsAbout(ctx: Pick<Context, 'db'>, companyId: string, traces: Traces): Promise<JobAbout[]> {
  if (traces.ids.length + traces.values.length === 0) return [];
  return (await prepared(
    ctx.db,
    `SELECT id, kind, status, attempts, createdAt, updatedAt, payload FROM jobs
     WHERE companyId = :companyId AND ${mentions(ctx.db, 'payload')} ORDER BY id`,
  ).all({ companyId, ...traceParams(traces) })) as JobAbout[];
}

/** What a delivered job keeps once the person it carried is erased: its kind, key, status, attempts and times. */
export const deliveryProof = JSON.stringify({ erased: true });

/**
 * The queue's jobs that carry the person. Not yet delivered: a job about one of their rows is dropped (its news is
 * gone with the row), any other (a meeting's guest list, a blocklist entry) is sent without them; delivered or
 * given up: only the proof of delivery is kept. Answers how many jobs changed.
 */
async function scrubQueue(ctx: Pick<Context, 'db'>, companyId: string, traces: Traces): Promise<number> {
  const jobs = await jobsAbout(ctx, companyId, traces);
  for (const job of jobs) {
    if (job.status === 'done' || job.status === 'failed') {
      await prepared(ctx.db, 'UPDATE jobs SET payload = ?, lastError = NULL WHERE id = ?').run(deliveryProof, job.id);
    } else if (traces.ids.some((id) => job.payload.includes(id))) {
      await prepared(ctx.db, 'DELETE FROM jobs WHERE id = ?').run(job.id);
    } else {
      const payload = JSON.stringify(redactJson(JSON.parse(job.payload) as unknown, traces.values));
      await prepared(ctx.db, 'UPDATE jobs SET payload = ? WHERE id = ?').run(payload, job.id);
    }
  }
  return jobs.length;
}

/**
 * A kiosk's mutations not yet at the hub, and the hub's mutations it could not apply, that carry the person: they
 * are removed (a pending check-in of an erased person is not pushed).
 */
async function scrubSyncQueues(ctx: Pick<Context, 'db'>, companyId: string, traces: Traces): Promise<number> {
  if (traces.ids.length + traces.values.length === 0) return 0;
  const params = { companyId, ...traceParams(traces) };
  let removed = 0;
  for (const table of ['sync_outbox', 'sync_rejections']) {
    removed += (
      await prepared(ctx.db, `DELETE FROM ${table} WHERE companyId = :companyId AND ${mentions(ctx.db, 'args')}`).run(
        params,
      )
    ).changes;
  }
  return removed;
}

interface MeetingText {
  id: string;
  guests: string;
  title: string;
  message: string | null;
  notes: string | null;
  location: string | null;
}

/** Takes the person out of the company's meetings: off the guest lists, and out of titles, messages and notes. */
async function scrubMeetings(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  person: Person,
  values: string[],
  now: number,
) {
  const meetings = (await prepared(
    ctx.db,
    'SELECT id, guests, title, message, notes, location FROM meetings WHERE companyId = ?',
  ).all(companyId)) as MeetingText[];
  let changed = 0;
  for (const meeting of meetings) {
    const guests = JSON.parse(meeting.guests) as string[];
    const kept = guests.filter((guest) => !person.emails.has(emailKey(guest) ?? ''));
    const text = (value: string | null) => (value === null ? null : redactText(value, values));
    const scrubbed = { title: text(meeting.title), message: text(meeting.message), notes: text(meeting.notes) };
    const location = text(meeting.location);
    const same =
      kept.length === guests.length &&
      scrubbed.title === meeting.title &&
      scrubbed.message === meeting.message &&
      scrubbed.notes === meeting.notes &&
      location === meeting.location;
    if (same) continue;
    await prepared(
      ctx.db,
      `UPDATE meetings SET guests = :guests, title = :title, message = :message, notes = :notes,
       location = :location, updatedAt = :now WHERE id = :id`,
    ).run({ ...scrubbed, location, guests: JSON.stringify(kept), now, id: meeting.id });
    changed++;
  }
  if (changed > 0) walToTruncate.add(ctx.db);
  return changed;
}

/** Takes the person's name, e-mail, phone and documents out of the texts of the company's notifications. */
async function scrubNotifications(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  values: string[],
  now: number,
): Promise<number> {
  if (values.length === 0) return 0;
  const rows = (await prepared(
    ctx.db,
    `SELECT id, message FROM notifications WHERE companyId = :companyId AND message IS NOT NULL
     AND ${mentions(ctx.db, 'message')}`,
  ).all({ companyId, ...traceParams({ ids: [], values }) })) as { id: string; message: string }[];
  for (const row of rows) {
    await prepared(ctx.db, 'UPDATE notifications SET message = ?, updatedAt = ? WHERE id = ?').run(
      redactText(row.message, values),
      now,
      row.id,
    );
  }
  if (rows.length > 0) walToTruncate.add(ctx.db);
  return rows.length;
}

/** A table's rows found to be the person's. */
export interface FoundRows {
  table: PersonalTable;
  rows: Row[];
}

/**
 * Every row of the company that holds the person's data: matched by their identifiers, or by id (`seeds`, by
 * table), or made from a row found (a visit from an invitee's). What a row found says of the person (its e-mail,
 * CPF, document, name and phone) is looked for in turn, until nothing new is found.
 */
export async function findPersonsRows(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  person: Person,
  seeds: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): Promise<FoundRows[]> {
  const candidates = await Promise.all(
    personalTables.map(async (table) => ({
      table,
      rows: (await prepared(
        ctx.db,
        `SELECT * FROM ${table.table} WHERE companyId = ? AND (${holdsPersonalData(table)})`,
      ).all(companyId)) as Row[],
      found: new Map<string, Row>(),
    })),
  );
  const foundIn = (table: string) => candidates.find((c) => c.table.table === table)?.found;
  for (let grew = true; grew; ) {
    grew = false;
    for (const { table, rows, found } of candidates) {
      const linked = table.erasedWith ? foundIn(table.erasedWith.table) : undefined;
      for (const row of rows) {
        if (found.has(row.id)) continue;
        const isLinked = linked?.has(String(row[table.erasedWith?.column ?? ''])) === true;
        if (!seeds.get(table.table)?.has(row.id) && !isLinked && !isPersonsRow(person, row)) continue;
        found.set(row.id, row);
        learnFrom(person, row);
        grew = true;
      }
    }
  }
  return candidates.map(({ table, found }) => ({ table, rows: [...found.values()] }));
}

export interface ErasureCounts {
  visits: number;
  invitees: number;
  visitors: number;
  blocklist: number;
  files: number;
  meetings: number;
  notifications: number;
  deliveries: number;
}

const countOf = (found: FoundRows[], table: string) => found.find((f) => f.table.table === table)?.rows.length ?? 0;

/**
 * Erases what the company holds of the person: the rows found, their files, the meetings, notifications, queued
 * deliveries and pending mutations that name them. Runs inside the caller's transaction; publishes nothing.
 */
async function eraseFound(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  person: Person,
  found: FoundRows[],
  now: number,
) {
  const rows = found.flatMap((f) => f.rows);
  const traces: Traces = { ids: rows.map((row) => row.id), values: tellingValues(rows) };
  let files = 0;
  for (const { table, rows: tableRows } of found) files += await anonymise(ctx, companyId, table, tableRows, now);
  const counts: ErasureCounts = {
    visits: countOf(found, 'visits'),
    invitees: countOf(found, 'invitees'),
    visitors: countOf(found, 'visitors'),
    blocklist: countOf(found, 'blocklist'),
    files,
    meetings: await scrubMeetings(ctx, companyId, person, traces.values, now),
    notifications: await scrubNotifications(ctx, companyId, traces.values, now),
    deliveries: await scrubQueue(ctx, companyId, traces),
  };
  await scrubSyncQueues(ctx, companyId, traces);
  return counts;
}

/** The person the identifiers name; MISSING_IDENTIFIER when they name nobody (a name without a phone). */
export function requirePerson(who: PersonIdentifiers): Person {
  const person = personOf(who);
  if (!person) throw new ApiError('MISSING_IDENTIFIER');
  return person;
}

/**
 * A visitor's erasure (LGPD art. 18, GDPR art. 17) in one transaction with its audit entry: the person's rows in
 * every table of the caller's company (deleted ones too), their files, and their traces in meetings,
 * notifications, queued deliveries and sync queues. Kiosks learn of it by the feed (`privacy_erasures`, written
 * before the rows change, so it reaches a kiosk before the anonymised rows do) and erase their own copies.
 */
export async function eraseVisitor(ctx: Context, caller: Caller, who: PersonIdentifiers): Promise<ErasureCounts> {
  const person = requirePerson(who);
  const counts = await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    const found = await findPersonsRows(ctx, caller.companyId, person);
    await ctx.events.decide('privacy.erased', caller);
    if (found.some((f) => f.rows.length > 0)) {
      const rowIds = Object.fromEntries(found.map((f) => [f.table.table, f.rows.map((row) => row.id)]));
      await prepared(ctx.db, 'INSERT INTO privacy_erasures (id, companyId, createdAt, rowIds) VALUES (?, ?, ?, ?)').run(
        newRecordId(ctx.random),
        caller.companyId,
        now,
        JSON.stringify(rowIds),
      );
    }
    const result = await eraseFound(ctx, caller.companyId, person, found, now);
    // Published once everything is scrubbed: the events' objects (and the deliveries they queue) hold no trace.
    for (const { table, rows } of found) {
      for (const row of rows.filter((r) => r.deletedAt === null)) {
        const tombstone = (await prepared(ctx.db, `SELECT * FROM ${table.table} WHERE id = ?`).get(row.id)) as Row;
        await ctx.events.publish(table.deletedEvent, caller, async () => await table.object(ctx, caller, tombstone));
      }
    }
    await ctx.events.publish('privacy.erased', caller, () => ({ type: 'erasure', ...result }));
    return result;
  });
  await ctx.db.afterCommit(() => settleErasures(ctx));
  return counts;
}

/**
 * On a kiosk: the hub's erasure, received by the feed. The kiosk's copies of the rows it names still hold the
 * person's data (the anonymised rows come after it); they say whom to look for in what only the kiosk holds (its
 * visitor records, pictures and NDAs, queued deliveries, check-ins not yet pushed). Runs in the pull's transaction.
 */
export async function applyHubErasure(
  ctx: Pick<Context, 'db' | 'clock'>,
  companyId: string,
  rowIds: string,
): Promise<void> {
  const named = JSON.parse(rowIds) as Record<string, string[]>;
  const seeds = new Map(Object.entries(named).map(([table, ids]) => [table, new Set(ids)]));
  const person: Person = { emails: new Set(), cpfs: new Set(), documents: new Set(), namePhones: new Map() };
  const found = await findPersonsRows(ctx, companyId, person, seeds);
  await eraseFound(ctx, companyId, person, found, ctx.clock.now());
}

/**
 * A row deleted through the API keeps no personal data: it is anonymised in the deletion's transaction, its files
 * are queued for deletion, and the deliveries about it are dropped or reduced to their proof.
 */
export async function forgetDeletedRow(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  tableName: string,
  id: string,
  now: number,
) {
  const table = personalTables.find((t) => t.table === tableName);
  const row = (await prepared(ctx.db, `SELECT * FROM ${tableName} WHERE id = ? AND companyId = ?`).get(
    id,
    companyId,
  )) as Row | undefined;
  if (!table || !row) return;
  await anonymise(ctx, companyId, table, [row], now);
  await scrubQueue(ctx, companyId, { ids: [id], values: [] });
}

export interface Retention {
  retentionDays: number | null;
  lastSweepAt: number | null;
  updatedAt: number | null;
}

export async function findRetention(ctx: Context, companyId: string): Promise<Retention> {
  const row = (await prepared(
    ctx.db,
    'SELECT retentionDays, lastSweepAt, updatedAt FROM privacy_settings WHERE companyId = ?',
  ).get(companyId)) as Retention | undefined;
  return row ?? { retentionDays: null, lastSweepAt: null, updatedAt: null };
}

export function retentionObject(retention: Retention, caller: Caller) {
  const shown = (at: number | null) => (at === null ? null : formatInZone(at, caller.timeZone));
  return {
    type: 'retention',
    retentionDays: retention.retentionDays,
    lastSweepAt: shown(retention.lastSweepAt),
    updatedAt: shown(retention.updatedAt),
  };
}

/** Sets the company's retention and applies it at once (the daily sweep keeps applying it). */
export async function saveRetention(ctx: Context, caller: Caller, retentionDays: number | null): Promise<Retention> {
  await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    await ctx.events.decide('privacy.retention.updated', caller);
    await prepared(
      ctx.db,
      `INSERT INTO privacy_settings (companyId, createdAt, updatedAt, retentionDays) VALUES (?, ?, ?, ?)
       ON CONFLICT (companyId) DO UPDATE SET retentionDays = excluded.retentionDays, updatedAt = excluded.updatedAt`,
    ).run(caller.companyId, now, now, retentionDays);
    await ctx.events.publish('privacy.retention.updated', caller, () => ({ type: 'retention', retentionDays }));
  });
  await sweepCompany(ctx, caller);
  return await findRetention(ctx, caller.companyId);
}

export interface SweepCounts {
  visits: number;
  invitees: number;
  visitors: number;
  files: number;
  meetings: number;
  notifications: number;
  jobs: number;
}

/**
 * Anonymises what the company holds older than its retention: visits (by check-in), invitees (by expected time),
 * visitor records (by last visit), with their files; meetings that ended before (guest list, title, message and
 * notes); notifications sent before (their text). The deliveries about any of them go with them, whatever their
 * own age (pending ones dropped, delivered ones reduced to their proof), and finished deliveries older than the
 * retention are dropped. Writes an audit entry when it removed anything.
 */
export async function sweepCompany(ctx: Context, caller: Caller): Promise<SweepCounts | undefined> {
  const { retentionDays } = await findRetention(ctx, caller.companyId);
  if (retentionDays === null) return undefined;
  const counts = await inTransaction(ctx, async () => {
    await ctx.events.decide('privacy.retention.swept', caller);
    const now = ctx.clock.now();
    const before = now - retentionDays * dayMs;
    const found: Record<string, number> = {};
    const ids: string[] = [];
    let files = 0;
    for (const table of personalTables) {
      if (!table.retainedFrom) continue;
      const rows = (await prepared(
        ctx.db,
        `SELECT * FROM ${table.table} WHERE companyId = ? AND ${table.retainedFrom} < ? AND (${holdsPersonalData(table)})`,
      ).all(caller.companyId, before)) as Row[];
      files += await anonymise(ctx, caller.companyId, table, rows, now);
      found[table.table] = rows.length;
      ids.push(...rows.map((row) => row.id));
    }
    const meetings = (await prepared(
      ctx.db,
      `UPDATE meetings SET guests = '[]', title = '', message = NULL, notes = NULL,
       deletedAt = COALESCE(deletedAt, :now), updatedAt = :now
       WHERE companyId = :companyId AND "end" < :before AND (guests <> '[]' OR title <> '' OR message IS NOT NULL
       OR notes IS NOT NULL) RETURNING id`,
    ).all({ now, before, companyId: caller.companyId })) as { id: string }[];
    const notifications = (await prepared(
      ctx.db,
      `UPDATE notifications SET message = NULL, deletedAt = COALESCE(deletedAt, :now), updatedAt = :now
       WHERE companyId = :companyId AND createdAt < :before AND message IS NOT NULL RETURNING id`,
    ).all({ now, before, companyId: caller.companyId })) as { id: string }[];
    ids.push(...meetings.map((m) => m.id), ...notifications.map((n) => n.id));
    const scrubbed = await scrubQueue(ctx, caller.companyId, { ids, values: [] });
    const aged = (
      await prepared(
        ctx.db,
        "DELETE FROM jobs WHERE companyId = ? AND status IN ('done', 'failed') AND updatedAt < ?",
      ).run(caller.companyId, before)
    ).changes;
    await prepared(ctx.db, 'UPDATE privacy_settings SET lastSweepAt = ? WHERE companyId = ?').run(
      now,
      caller.companyId,
    );
    if (meetings.length + notifications.length + aged > 0) walToTruncate.add(ctx.db);
    const result: SweepCounts = {
      visits: found.visits ?? 0,
      invitees: found.invitees ?? 0,
      visitors: found.visitors ?? 0,
      files,
      meetings: meetings.length,
      notifications: notifications.length,
      jobs: scrubbed + aged,
    };
    if (Object.values(result).some((n) => n > 0)) {
      await ctx.events.publish('privacy.retention.swept', caller, () => ({
        type: 'retentionSweep',
        retentionDays,
        ...result,
      }));
    }
    return result;
  });
  await ctx.db.afterCommit(() => settleErasures(ctx));
  return counts;
}

/** The sweep of every company with a retention set; one company's failure does not stop the others'. */
export async function sweepAll(ctx: Context): Promise<void> {
  const companies = (await prepared(
    ctx.db,
    'SELECT companyId FROM privacy_settings WHERE retentionDays IS NOT NULL',
  ).all()) as { companyId: string }[];
  for (const { companyId } of companies) {
    const caller = await companyCaller(ctx, companyId);
    if (!caller) continue;
    try {
      await sweepCompany(ctx, caller);
    } catch (error) {
      ctx.log.error({ err: error, companyId }, 'retention sweep failed');
    }
  }
  await ctx.db.afterCommit(() => deleteQueuedFiles(ctx));
}

/** Sweeps at start (files left by a crash included) and then every `intervalMs`, a day by default. */
export function startRetentionSweeper(ctx: Context, intervalMs = dayMs): { stop(): void } {
  const run = async () => {
    try {
      await sweepAll(ctx);
    } catch (error) {
      ctx.log.error({ err: error }, 'retention sweep failed');
    }
  };
  const first = setTimeout(() => void run(), 0);
  const timer = setInterval(() => void run(), intervalMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
