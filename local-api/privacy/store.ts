import { unlinkSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { anonymiseSql, holdsPersonalData, type PersonalTable, personalTables } from './personal-data.ts';
import type { ErasureInput } from './schema.ts';

const dayMs = 86_400_000;

type Row = Record<string, unknown> & { id: string; deletedAt: number | null };

/** Takes the person's data out of the rows and queues their files for deletion; returns how many files. */
function anonymise(ctx: Context, caller: Caller, table: PersonalTable, rows: Row[], now: number): number {
  let files = 0;
  for (const row of rows) {
    for (const column of table.files) {
      const path = row[column];
      if (typeof path !== 'string' || path === '') continue;
      prepared(ctx.db, 'INSERT OR IGNORE INTO file_deletions (path, companyId, createdAt) VALUES (?, ?, ?)').run(
        path,
        caller.companyId,
        now,
      );
      files++;
    }
    prepared(ctx.db, anonymiseSql(table)).run({ id: row.id, now });
  }
  return files;
}

/**
 * Deletes the files erasures and retention left to delete. A path is taken relative to the data folder, and a
 * path that leads out of it is never deleted: the database does not get to name any file on the machine.
 */
export function deleteQueuedFiles(ctx: Context): void {
  const queued = prepared(ctx.db, 'SELECT path FROM file_deletions').all() as { path: string }[];
  for (const { path } of queued) {
    const file = resolve(ctx.dataDir, path);
    const inside = relative(ctx.dataDir, file);
    if (inside !== '' && !inside.startsWith('..') && !isAbsolute(inside)) {
      try {
        unlinkSync(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          ctx.log.warn({ err: error }, 'a file of an erased visitor could not be deleted; trying again later');
          continue;
        }
      }
    } else {
      ctx.log.warn({ path }, 'a queued file lies outside the data folder: not deleted');
    }
    prepared(ctx.db, 'DELETE FROM file_deletions WHERE path = ?').run(path);
  }
}

/**
 * Copies the WAL into the database and empties it: the page images from before an erasure stay in the WAL until
 * it is overwritten, and an erasure is not done while they do. A reader in progress can keep some of it for now.
 */
function truncateWal(ctx: Context): void {
  const [result] = ctx.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (result?.busy) ctx.log.warn('the WAL could not be emptied after an erasure: a reader held it');
}

export interface ErasureCounts {
  visits: number;
  invitees: number;
  files: number;
}

function identifierConditions(who: ErasureInput): { sql: string; params: Record<string, string> } {
  const conditions: string[] = [];
  const params: Record<string, string> = {};
  if (who.email) {
    conditions.push('email = :email'); // e-mail columns compare without case
    params.email = who.email;
  }
  if (who.cpf) {
    conditions.push("REPLACE(REPLACE(REPLACE(cpf, '.', ''), '-', ''), ' ', '') = :cpf");
    params.cpf = who.cpf.replace(/\D/g, '');
  }
  if (who.document) {
    conditions.push('TRIM(document) = :document');
    params.document = who.document.trim();
  }
  if (conditions.length === 0) throw new ApiError('MISSING_IDENTIFIER');
  return { sql: conditions.join(' OR '), params };
}

/**
 * A visitor's erasure (LGPD art. 18, GDPR art. 17): every invitee and visit of the caller's company that carries
 * the e-mail, CPF or document given (deleted ones too), and the visits made from those invitees, are anonymised in
 * one transaction with the audit entry; sent and failed deliveries that carried them are dropped.
 */
export function eraseVisitor(ctx: Context, caller: Caller, who: ErasureInput): ErasureCounts {
  const { sql, params } = identifierConditions(who);
  const counts = inTransaction(ctx, () => {
    const now = ctx.clock.now();
    const erased = new Map<string, string[]>();
    const found: Record<string, number> = {};
    let files = 0;
    for (const table of personalTables) {
      const linked = table.erasedWith ? `OR ${table.erasedWith.column} IN (SELECT value FROM json_each(:linked))` : '';
      const rows = prepared(
        ctx.db,
        `SELECT * FROM ${table.table} WHERE companyId = :companyId AND (${holdsPersonalData(table)})
         AND (${sql} ${linked})`,
      ).all({
        ...params,
        companyId: caller.companyId,
        ...(table.erasedWith ? { linked: JSON.stringify(erased.get(table.erasedWith.table) ?? []) } : {}),
      }) as Row[];
      files += anonymise(ctx, caller, table, rows, now);
      for (const row of rows.filter((r) => r.deletedAt === null)) {
        const tombstone = prepared(ctx.db, `SELECT * FROM ${table.table} WHERE id = ?`).get(row.id) as Row;
        ctx.events.publish(table.deletedEvent, caller, () => table.object(ctx, caller, tombstone));
      }
      erased.set(
        table.table,
        rows.map((row) => row.id),
      );
      found[table.table] = rows.length;
    }
    const dropJob = prepared(
      ctx.db,
      "DELETE FROM jobs WHERE companyId = ? AND status <> 'pending' AND instr(payload, ?) > 0",
    );
    for (const id of [...erased.values()].flat()) dropJob.run(caller.companyId, id);
    const result = { visits: found.visits ?? 0, invitees: found.invitees ?? 0, files };
    ctx.events.publish('privacy.erased', caller, () => ({ type: 'erasure', ...result }));
    return result;
  });
  deleteQueuedFiles(ctx);
  truncateWal(ctx);
  return counts;
}

export interface Retention {
  retentionDays: number | null;
  lastSweepAt: number | null;
  updatedAt: number | null;
}

export function findRetention(ctx: Context, companyId: string): Retention {
  const row = prepared(
    ctx.db,
    'SELECT retentionDays, lastSweepAt, updatedAt FROM privacy_settings WHERE companyId = ?',
  ).get(companyId) as Retention | undefined;
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
export function saveRetention(ctx: Context, caller: Caller, retentionDays: number | null): Retention {
  inTransaction(ctx, () => {
    const now = ctx.clock.now();
    prepared(
      ctx.db,
      `INSERT INTO privacy_settings (companyId, createdAt, updatedAt, retentionDays) VALUES (?, ?, ?, ?)
       ON CONFLICT (companyId) DO UPDATE SET retentionDays = excluded.retentionDays, updatedAt = excluded.updatedAt`,
    ).run(caller.companyId, now, now, retentionDays);
    ctx.events.publish('privacy.retention.updated', caller, () => ({ type: 'retention', retentionDays }));
  });
  sweepCompany(ctx, caller);
  return findRetention(ctx, caller.companyId);
}

export interface SweepCounts extends ErasureCounts {
  jobs: number;
}

/**
 * Anonymises the company's visits and invitees older than its retention, with their files, and drops finished
 * deliveries older than it (their bodies carried the same data). Writes an audit entry when it removed anything.
 */
export function sweepCompany(ctx: Context, caller: Caller): SweepCounts | undefined {
  const { retentionDays } = findRetention(ctx, caller.companyId);
  if (retentionDays === null) return undefined;
  const counts = inTransaction(ctx, () => {
    const now = ctx.clock.now();
    const before = now - retentionDays * dayMs;
    const found: Record<string, number> = {};
    let files = 0;
    for (const table of personalTables) {
      const rows = prepared(
        ctx.db,
        `SELECT * FROM ${table.table} WHERE companyId = ? AND ${table.retainedFrom} < ? AND (${holdsPersonalData(table)})`,
      ).all(caller.companyId, before) as Row[];
      files += anonymise(ctx, caller, table, rows, now);
      found[table.table] = rows.length;
    }
    const jobs = prepared(ctx.db, "DELETE FROM jobs WHERE companyId = ? AND status <> 'pending' AND updatedAt < ?").run(
      caller.companyId,
      before,
    ).changes;
    prepared(ctx.db, 'UPDATE privacy_settings SET lastSweepAt = ? WHERE companyId = ?').run(now, caller.companyId);
    const result = { visits: found.visits ?? 0, invitees: found.invitees ?? 0, files, jobs };
    if (result.visits + result.invitees + result.jobs > 0) {
      ctx.events.publish('privacy.retention.swept', caller, () => ({
        type: 'retentionSweep',
        retentionDays,
        ...result,
      }));
    }
    return result;
  });
  deleteQueuedFiles(ctx);
  if (counts.visits + counts.invitees + counts.jobs > 0) truncateWal(ctx);
  return counts;
}

/** The sweep of every company with a retention set; one company's failure does not stop the others'. */
export function sweepAll(ctx: Context): void {
  const companies = prepared(
    ctx.db,
    'SELECT companyId FROM privacy_settings WHERE retentionDays IS NOT NULL',
  ).all() as { companyId: string }[];
  for (const { companyId } of companies) {
    const caller = companyCaller(ctx, companyId);
    if (!caller) continue;
    try {
      sweepCompany(ctx, caller);
    } catch (error) {
      ctx.log.error({ err: error, companyId }, 'retention sweep failed');
    }
  }
  deleteQueuedFiles(ctx);
}

/** Sweeps at start (files left by a crash included) and then every `intervalMs`, a day by default. */
export function startRetentionSweeper(ctx: Context, intervalMs = dayMs): { stop(): void } {
  const run = () => {
    try {
      sweepAll(ctx);
    } catch (error) {
      ctx.log.error({ err: error }, 'retention sweep failed');
    }
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, intervalMs);
  first.unref();
  timer.unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
