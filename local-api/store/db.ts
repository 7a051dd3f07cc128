import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { privateDatabase } from './private-files.ts';

export type Db = Database.Database;

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Migrations are files `NNNN_slug.sql`; the number is the schema version they bring the database to. */
export function loadMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

/**
 * Opens the database with the settings the kiosk relies on.
 *
 * WAL lets readers (the HTTP handlers, `portaria company create`, backups) work while a writer commits.
 * `synchronous=FULL` fsyncs the WAL on every commit: a kiosk gets unplugged, and NORMAL may lose the last
 * acknowledged check-ins on power loss (never on a process crash). See docs/reliability.md.
 * `secure_delete` zeroes what a delete or an update frees, so an erased visitor's data does not linger in free
 * space of the file. The file and its WAL and shared memory are the user's alone (mode 0600).
 */
export function openDatabase(file: string, migrations = loadMigrations()): Db {
  privateDatabase(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
}

export function migrate(db: Db, migrations: Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS __migrations__ (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    appliedAt INTEGER NOT NULL
  ) STRICT`);
  const applied = db.prepare('SELECT version, name FROM __migrations__ ORDER BY version').all() as {
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
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, Date.now());
    }).immediate();
  }
}
