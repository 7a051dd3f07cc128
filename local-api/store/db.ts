import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { Db, Engine } from './engine.ts';
import { PostgresDb } from './postgres.ts';
import { SqliteDb } from './sqlite.ts';

export type { Db, Engine, RunResult, SqlStatement } from './engine.ts';

import { privateDatabase } from './private-files.ts';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Migrations are files `NNNN_slug.sql`; the number is the schema version they bring the database to. SQLite's are
 * in `migrations/`, PostgreSQL's in `migrations/postgres/`: its first one creates the schema as SQLite's first
 * fourteen leave it, and each later change is one file per engine under the same number.
 */
export function loadMigrations(engine: Engine = 'sqlite', dir = migrationsDir): Migration[] {
  const folder = engine === 'sqlite' ? dir : join(dir, 'postgres');
  return readdirSync(folder)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(join(folder, file), 'utf8'),
    }));
}

/** A better-sqlite3 handle as the store's Db (store/sqlite.ts). */
export const sqliteDb = (database: Database.Database): Db => new SqliteDb(database);

/**
 * Opens the database with the settings the kiosk relies on.
 *
 * WAL lets readers (the HTTP handlers, `portaria company create`, backups) work while a writer commits.
 * `synchronous=FULL` fsyncs the WAL on every commit: a kiosk gets unplugged, and NORMAL may lose the last
 * acknowledged check-ins on power loss (never on a process crash). See docs/reliability.md.
 * `secure_delete` zeroes what a delete or an update frees, so an erased visitor's data does not linger in free
 * space of the file. The file and its WAL and shared memory are the user's alone (mode 0600).
 */
export async function openDatabase(file: string, migrations = loadMigrations()): Promise<Db> {
  privateDatabase(file);
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('secure_delete = ON');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = sqliteDb(database);
  await migrate(db, migrations);
  return db;
}

export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//.test(location);

/**
 * Opens (and migrates) a PostgreSQL database: `postgres://user:password@host:port/database`. Several hub processes
 * may start at once: an advisory lock lets one of them migrate while the others wait.
 */
export async function openPostgres(url: string, migrations = loadMigrations('postgres')): Promise<Db> {
  const db = await PostgresDb.connect(
    url,
    [...loadMigrations('sqlite'), ...migrations].map((migration) => migration.sql),
  );
  try {
    // On one session of the pool: an advisory lock belongs to the connection that took it.
    await db.onOneConnection(async () => {
      await db.exec('SELECT pg_advisory_lock(7364021)');
      try {
        await migrate(db, migrations);
      } finally {
        await db.exec('SELECT pg_advisory_unlock(7364021)');
      }
    });
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

export async function migrate(db: Db, migrations: Migration[]): Promise<void> {
  // SQLite's STRICT tables know INTEGER (8 bytes); PostgreSQL's INTEGER has 4, too few for milliseconds.
  const integer = db.sqlite ? 'INTEGER' : 'BIGINT';
  await db.exec(`CREATE TABLE IF NOT EXISTS __migrations__ (
    version ${integer} PRIMARY KEY,
    name TEXT NOT NULL,
    appliedAt ${integer} NOT NULL
  )${db.sqlite ? ' STRICT' : ''}`);
  const applied = (await db.prepare('SELECT version, name FROM __migrations__ ORDER BY version').all()) as {
    version: number;
    name: string;
  }[];
  const known = new Map(migrations.map((m) => [m.version, m.name]));
  for (const row of applied) {
    if (known.get(row.version) !== row.name) {
      // A database written by a newer (or different) Portaria: refuse rather than guess at its schema.
      throw new Error(`database has migration ${row.version}_${row.name} that this version of Portaria does not know`);
    }
  }
  const done = new Set(applied.map((row) => row.version));
  const record = db.prepare('INSERT INTO __migrations__ (version, name, appliedAt) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    await db.transaction(async () => {
      await db.exec(migration.sql);
      await record.run(migration.version, migration.name, Date.now());
    });
  }
}
