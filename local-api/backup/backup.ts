import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import { type Context, systemRandom } from '../context.ts';
import { hexId, type Random } from '../rules/ids.ts';
import { loadMigrations } from '../store/db.ts';
import { privateDatabase, privateFile, privateFolder } from '../store/private-files.ts';
import { type HeldServiceLock, lockDataFolder, ServiceLockedError } from '../store/service-lock.ts';
import { renewedIdentity } from '../sync/state.ts';

/*
 * Online backups of the database with SQLite's backup API (they run while the service writes), on a schedule in
 * the running service and on demand (`portaria backup`), and the restore that checks a backup before using it
 * (`portaria restore`). See docs/reliability.md, "Backups".
 */

export const databaseFile = (dataDir: string) => join(dataDir, 'portaria.db');
export const backupsDir = (dataDir: string) => join(dataDir, 'backups');

/** Scheduled and on-demand backups: `portaria-2026-11-22T12-00-00-000Z.db`, which sort by time. */
const backupName = /^portaria-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/;
export const backupFileName = (now: number, prefix = 'portaria') =>
  `${prefix}-${new Date(now).toISOString().replace(/[:.]/g, '-')}.db`;

/** Why a database file cannot be used; thrown by `verifyDatabaseFile` and `restoreDatabase`. */
export class BackupError extends Error {}

/**
 * Checks a database file as a restore needs it: SQLite's integrity check passes, no foreign key dangles, and it is
 * Portaria's, at a schema version this Portaria knows. Returns that version.
 */
export function verifyDatabaseFile(file: string): number {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened: ${(error as Error).message}`);
  }
  try {
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    if (integrity[0]?.integrity_check !== 'ok') {
      throw new BackupError(`${file} fails the integrity check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
    }
    if ((db.pragma('foreign_key_check') as unknown[]).length > 0) {
      throw new BackupError(`${file} has rows that refer to missing rows`);
    }
    const applied = db.prepare('SELECT version, name FROM __migrations__ ORDER BY version').all() as {
      version: number;
      name: string;
    }[];
    const known = new Map(loadMigrations().map((m) => [m.version, m.name]));
    const unknown = applied.find((m) => known.get(m.version) !== m.name);
    if (unknown)
      throw new BackupError(`${file} comes from another Portaria (migration ${unknown.version}_${unknown.name})`);
    return applied.at(-1)?.version ?? 0;
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a Portaria database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/** Where a backup's SHA-256 digest is written: beside it, in the format of `sha256sum` (so `sha256sum -c` checks it). */
export const digestFile = (backupFile: string) => `${backupFile}.sha256`;

/** The SHA-256 of a file, read as a stream: a large database is hashed without holding up the service. */
async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Writes the digest file of `backupFile` whole (temporary name, fsync, rename), mode 0600. */
function writeDigest(backupFile: string, sha256: string): void {
  const file = digestFile(backupFile);
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, `${sha256}  ${basename(backupFile)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}

/**
 * Refuses a backup whose bytes are not the ones its digest was written for: SQLite's integrity check sees a
 * damaged page, not a changed byte inside a row (an e-mail of an unindexed column). A backup without a digest
 * (made before digests were written, or copied without it) is refused unless the caller accepts it outright.
 */
async function verifyDigest(file: string, options: { withoutDigest?: boolean }): Promise<void> {
  let expected: string | undefined;
  try {
    expected = /^([0-9a-f]{64})\b/i.exec(readFileSync(digestFile(file), 'utf8'))?.[1]?.toLowerCase();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (options.withoutDigest) return;
    throw new BackupError(
      `${file} has no SHA-256 digest (${digestFile(file)}): restore it with --without-digest only if you trust it`,
    );
  }
  if (!expected) throw new BackupError(`${digestFile(file)} is not a SHA-256 digest`);
  let actual: string;
  try {
    actual = await sha256Of(file);
  } catch (error) {
    throw new BackupError(`${file} cannot be read: ${(error as Error).message}`);
  }
  if (actual !== expected) {
    throw new BackupError(`${file} does not match its SHA-256 digest (${digestFile(file)}): it was altered or damaged`);
  }
}

/**
 * Copies a live database into `outFile`, written as `.partial` and renamed when complete, so a backup file that
 * exists is whole, then writes its SHA-256 digest beside it (`<file>.sha256`). Each step copies every page: SQLite
 * restarts a backup whenever another connection writes between steps, and a kiosk that never pauses would never
 * let a step-by-step copy finish. The copy leaves WAL mode, so the backup is one self-contained file. The backup
 * and its digest are created 0600, and a folder made for them 0700.
 */
export async function backupDatabase(
  db: Database.Database,
  outFile: string,
): Promise<{ file: string; bytes: number; sha256: string }> {
  mkdirSync(dirname(outFile), { recursive: true, mode: 0o700 });
  const partial = `${outFile}.partial`;
  rmSync(partial, { force: true });
  privateFile(partial);
  await db.backup(partial, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
  const copy = new Database(partial, { fileMustExist: true });
  copy.pragma('journal_mode = DELETE');
  copy.close();
  const sha256 = await sha256Of(partial);
  renameSync(partial, outFile);
  writeDigest(outFile, sha256);
  return { file: outFile, bytes: statSync(outFile).size, sha256 };
}

/** A `.partial` this old was left by a copy that died; a younger one may be another copy being written now. */
const abandonedPartialMs = 3_600_000;

/**
 * Keeps the newest `keep` scheduled backups with their digests (and no abandoned half-written ones); other files
 * are never touched.
 */
export function pruneBackups(dir: string, keep: number): string[] {
  if (!existsSync(dir)) return [];
  const names = readdirSync(dir);
  const abandoned = (name: string) => {
    try {
      return Date.now() - statSync(join(dir, name)).mtimeMs > abandonedPartialMs;
    } catch {
      return false; // renamed or removed meanwhile by the copy that owned it
    }
  };
  const stale = [
    ...names.filter((name) => name.endsWith('.db.partial') && abandoned(name)),
    ...names
      .filter((name) => backupName.test(name))
      .sort()
      .reverse()
      .slice(keep),
  ];
  for (const name of stale) {
    rmSync(join(dir, name), { force: true });
    rmSync(digestFile(join(dir, name)), { force: true });
  }
  return stale;
}

/** The time of the newest scheduled backup, read from its name. */
function newestBackupAt(dir: string): number | undefined {
  if (!existsSync(dir)) return undefined;
  const newest = readdirSync(dir)
    .filter((name) => backupName.test(name))
    .sort()
    .at(-1);
  if (!newest) return undefined;
  const [date = '', time = ''] = newest.slice('portaria-'.length, -'.db'.length).split('T');
  const [h, m, s, ms] = time.replace('Z', '').split('-');
  return Date.parse(`${date}T${h}:${m}:${s}.${ms}Z`);
}

export interface BackupSchedule {
  /** Time between backups; 0 turns them off. */
  intervalMs: number;
  /** Backups kept in `<data>/backups/`; older ones are deleted. */
  keep: number;
}

export const defaultBackupSchedule: BackupSchedule = { intervalMs: 86_400_000, keep: 7 };

/**
 * Backs the running service's database up every `intervalMs` into `<data>/backups/`, keeping the newest `keep`.
 * The first backup comes when the newest one is an interval old (at once if there is none), but never in the
 * first minute, so a start is not slowed by it: a kiosk restarted every night still gets its backups.
 */
export function startBackupSchedule(
  ctx: Pick<Context, 'db' | 'clock' | 'log' | 'dataDir'>,
  schedule: BackupSchedule,
): { stop(): Promise<void> } {
  const sqlite = ctx.db.sqlite;
  // On PostgreSQL the engine's own tools back up the hub (docs/deployment.md, "Backups").
  if (schedule.intervalMs <= 0 || !sqlite) return { stop: async () => {} };
  const dir = backupsDir(ctx.dataDir);
  privateFolder(dir);
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const backUp = async () => {
    try {
      const { file, bytes } = await backupDatabase(sqlite, join(dir, backupFileName(ctx.clock.now())));
      const pruned = pruneBackups(dir, schedule.keep);
      ctx.log.info({ file, bytes, pruned: pruned.length }, 'scheduled backup written');
    } catch (error) {
      ctx.log.error({ err: error }, 'scheduled backup failed');
    }
  };
  const next = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = backUp().finally(() => {
        running = undefined;
        next(schedule.intervalMs);
      });
    }, delay);
    timer.unref();
  };
  const newest = newestBackupAt(dir);
  const due = newest === undefined ? 0 : newest + schedule.intervalMs - ctx.clock.now();
  next(Math.max(due, Math.min(schedule.intervalMs, 60_000)));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

function schemaVersion(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT MAX(version) AS version FROM __migrations__').get() as { version: number }).version;
  } finally {
    db.close();
  }
}

/**
 * Restores `<data>/portaria.db` from a backup: the backup is checked first (its SHA-256 digest, then SQLite's
 * checks); the current database is kept in `<data>/backups/pre-restore-….db`; the copy goes through SQLite, so a
 * service that holds the folder (allowed with `force` only, and only at the same schema version) sees the restored
 * data at its next statement. The restored database takes a new sync identity, so its kiosks see a feed to start
 * over (docs/sync.md, "A hub restored from an older backup").
 */
export async function restoreDatabase(
  dataDir: string,
  from: string,
  options: { force?: boolean; now?: number; withoutDigest?: boolean; random?: Random } = {},
): Promise<{ restoredVersion: number; safetyCopy?: string }> {
  await verifyDigest(from, options);
  const restoredVersion = verifyDatabaseFile(from);
  const live = databaseFile(dataDir);
  privateFolder(dataDir);
  // Held for the whole restore: no service starts on the folder meanwhile.
  let lock: HeldServiceLock | undefined;
  try {
    lock = lockDataFolder(dataDir);
  } catch (error) {
    if (!(error instanceof ServiceLockedError)) throw error;
    if (!options.force) throw new BackupError(`${error.message}: stop it first, or restore into it with --force`);
    if (schemaVersion(live) !== restoredVersion) {
      throw new BackupError('the running service has another schema version than the backup: stop it, then restore');
    }
  }
  try {
    return await copyInto(dataDir, live, from, restoredVersion, options.random ?? systemRandom, options.now);
  } finally {
    lock?.release();
  }
}

async function copyInto(
  dataDir: string,
  live: string,
  from: string,
  restoredVersion: number,
  random: Random,
  now = Date.now(),
): Promise<{ restoredVersion: number; safetyCopy?: string }> {
  privateFolder(backupsDir(dataDir));
  let safetyCopy: string | undefined;
  if (existsSync(live)) {
    const current = new Database(live, { fileMustExist: true });
    try {
      current.pragma('busy_timeout = 5000');
      safetyCopy = (await backupDatabase(current, join(backupsDir(dataDir), backupFileName(now, 'pre-restore')))).file;
    } finally {
      current.close();
    }
  }
  privateDatabase(live);
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(live, { progress: ({ totalPages }) => Math.max(totalPages, 100) });
  } finally {
    source.close();
  }
  verifyDatabaseFile(live);
  renewSyncIdentity(live, random);
  return { restoredVersion, safetyCopy };
}

/** The restored database is not the one its kiosks last synced with: see `renewedIdentity`. */
function renewSyncIdentity(file: string, random: Random): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const state = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_state'").get()
      ? (db.prepare('SELECT hlc FROM sync_state WHERE id = 1').get() as { hlc: string } | undefined)
      : undefined;
    if (!state) return;
    db.prepare('UPDATE sync_state SET nodeId = :nodeId, hlc = :hlc WHERE id = 1').run(
      renewedIdentity(state.hlc, hexId(random, 16)),
    );
  } finally {
    db.close();
  }
}
