import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Context } from '../context.ts';
import { prepared } from '../store/rows.ts';

/*
 * Where the bytes of a stored file (a visit's picture or signed NDA, an invitee's picture, a company's logo) live,
 * decided here and nowhere else. The file's row (`files`) is the same on both engines; its bytes are not:
 * - SQLite (a kiosk, a hub of one process): a file in the data folder, `files/<company>/<id>.<ext>`, written and
 *   fsynced before the transaction that records it commits, removed if it rolls back; erased files are queued
 *   (`file_deletions`) in the erasing transaction and removed once it has committed.
 * - PostgreSQL (a hub of several processes, on several machines, that share the database and no folder): a row of
 *   `stored_files`, written, read and erased in the same transactions as the row that names the file, so every
 *   process serves every file, and the database's backups and replicas hold them (docs/deployment.md).
 */

/** A stored file as its row names it: its company and its name, `<32 hex>.<ext>` (see files/store.ts). */
export interface StoredFileName {
  companyId: string;
  /** `<id>.<ext>`, already checked against the file-name pattern by the caller. */
  name: string;
}

const idOf = (file: StoredFileName) => file.name.slice(0, file.name.indexOf('.'));
const folderPath = (ctx: Pick<Context, 'dataDir'>, file: StoredFileName) =>
  join(ctx.dataDir, 'files', file.companyId, file.name);

/**
 * Writes a file's bytes inside the transaction that records its row (which must come first: on PostgreSQL the
 * bytes refer to it). Answers what undoes the write if that transaction rolls back: on SQLite, removing the file
 * (it was fsynced, so a committed row never names missing bytes); on PostgreSQL nothing, the rollback does it.
 */
export async function writeFileBytes(
  ctx: Pick<Context, 'db' | 'dataDir'>,
  file: StoredFileName,
  bytes: Buffer,
): Promise<() => void> {
  if (!ctx.db.sqlite) {
    await prepared(ctx.db, 'INSERT INTO stored_files (id, companyId, bytes) VALUES (?, ?, ?)').run(
      idOf(file),
      file.companyId,
      bytes,
    );
    return () => {};
  }
  const path = folderPath(ctx, file);
  mkdirSync(join(ctx.dataDir, 'files', file.companyId), { recursive: true, mode: 0o700 });
  const remove = () => rmSync(path, { force: true });
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } catch (error) {
    remove();
    throw error;
  } finally {
    closeSync(fd);
  }
  return remove;
}

/** A file's bytes; undefined once erasure or retention has deleted them. */
export async function readFileBytes(
  ctx: Pick<Context, 'db' | 'dataDir'>,
  file: StoredFileName,
): Promise<Buffer | undefined> {
  if (!ctx.db.sqlite) {
    const row = (await prepared(ctx.db, 'SELECT bytes FROM stored_files WHERE id = ? AND companyId = ?').get(
      idOf(file),
      file.companyId,
    )) as { bytes: Buffer } | undefined;
    return row?.bytes;
  }
  try {
    return readFileSync(folderPath(ctx, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Erases a file's bytes as part of the transaction that forgets the file: on PostgreSQL they are deleted with it;
 * on SQLite the file is queued, and `deleteQueuedFiles` removes it once the transaction has committed (a queued
 * file outlives a crash in between, and is removed at the next erasure).
 */
export async function eraseFileBytes(ctx: Pick<Context, 'db'>, file: StoredFileName, now: number): Promise<void> {
  if (!ctx.db.sqlite) {
    await prepared(ctx.db, 'DELETE FROM stored_files WHERE id = ? AND companyId = ?').run(idOf(file), file.companyId);
    return;
  }
  await prepared(
    ctx.db,
    'INSERT INTO file_deletions (path, companyId, createdAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  ).run(join('files', file.companyId, file.name), file.companyId, now);
}

/**
 * Removes the files queued for deletion, after the transactions that queued them have committed (SQLite only:
 * PostgreSQL's bytes went with their transaction). A path is taken relative to the data folder, and a path that
 * leads out of it is never deleted: the database does not get to name any file on the machine.
 */
export async function deleteQueuedFiles(ctx: Pick<Context, 'db' | 'dataDir' | 'log'>): Promise<void> {
  if (!ctx.db.sqlite) return;
  const queued = (await prepared(ctx.db, 'SELECT path FROM file_deletions').all()) as { path: string }[];
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
    await prepared(ctx.db, 'DELETE FROM file_deletions WHERE path = ?').run(path);
  }
}
