/**
 * A service's database, looked at from a test, on the engine the suite runs against (test/helpers/postgres.ts):
 * the SQLite file of the data folder, or the PostgreSQL database the data folder is given.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../../local-api/backup/backup.ts';
import { type Db, openPostgres, sqliteDb } from '../../local-api/store/db.ts';
import { engineEnv } from './postgres.ts';

const postgresUrl = async (dataDir: string) => (await engineEnv(resolve(dataDir))).PORTARIA_DATABASE;

/** Opens the database of a service's data folder, read-only unless asked (the service may be running). */
export async function openServiceDb(dataDir: string, options: { readonly?: boolean } = {}): Promise<Db> {
  const readonly = options.readonly ?? true;
  const url = await postgresUrl(dataDir);
  if (!url) return sqliteDb(new Database(databaseFile(dataDir), { readonly }));
  const db = await openPostgres(url);
  if (readonly) await db.exec('SET default_transaction_read_only = on');
  return db;
}

/** Reads the database of a service's data folder and closes it again. */
export async function withServiceDb<T>(
  dataDir: string,
  read: (db: Db) => T | Promise<T>,
  options: { readonly?: boolean } = {},
): Promise<T> {
  const db = await openServiceDb(dataDir, options);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

/**
 * What the service's database holds, as bytes, to check that a secret or an erased person is not in it. On SQLite,
 * the database file and its WAL as they lie on disk: what a copied disk gives away. On PostgreSQL the files are
 * the server's (another machine, another user), and it keeps a row's old versions in its pages until VACUUM and in
 * its WAL until recycled, which the service does not control: there, every row of every table, as text, as a dump
 * (or a replica) gives it away.
 */
export async function storedBytes(dataDir: string): Promise<Buffer> {
  const url = await postgresUrl(dataDir);
  if (!url) {
    return Buffer.concat(
      readdirSync(dataDir)
        .filter((file) => file.startsWith('portaria.db'))
        .map((file) => readFileSync(join(dataDir, file))),
    );
  }
  return await withServiceDb(dataDir, async (db) => {
    const tables = (await db
      .prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
      .pluck()
      .all()) as string[];
    const rows = tables.flatMap(
      async (table) => (await db.prepare(`SELECT t::text FROM "${table}" t`).pluck().all()) as string[],
    );
    return Buffer.from(rows.join('\n'));
  });
}

/**
 * The names (`<id>.<ext>`) of a company's files whose bytes the service holds: the files of its folder in the data
 * folder on SQLite, the rows of `stored_files` on PostgreSQL (local-api/files/bytes.ts).
 */
export async function storedFileNames(dataDir: string, companyId: string): Promise<string[]> {
  if (!(await postgresUrl(dataDir))) {
    const folder = join(dataDir, 'files', companyId);
    return existsSync(folder) ? readdirSync(folder).sort() : [];
  }
  return await withServiceDb(
    dataDir,
    async (db) =>
      (await db
        .prepare(
          `SELECT files.id || '.' || files.extension FROM stored_files JOIN files ON files.id = stored_files.id
           WHERE stored_files.companyId = ? ORDER BY 1`,
        )
        .pluck()
        .all(companyId)) as string[],
  );
}
