/**
 * The two engines' schemas are written as two sets of migrations (local-api/store/migrations and its postgres/
 * folder): the store's SQL, written once, runs on both only if they hold the same tables with the same columns.
 * This test fails when a migration adds a table or a column to one engine and not to the other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type Db, loadMigrations, migrate, openPostgres, sqliteDb } from '../../local-api/store/db.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';

/** What only one engine has, on purpose (each named where it is made). */
const onlyOn: Record<'sqlite' | 'postgres', { tables: readonly string[]; columns: readonly string[] }> = {
  // SQLite's own bookkeeping of AUTOINCREMENT keys.
  sqlite: { tables: ['sqlite_sequence'], columns: [] },
  postgres: {
    // What hub processes share that a kiosk's one process keeps in memory: the versions of cached callers (the
    // schema), wrong-key counts (migration 0020); and the bytes of files, which SQLite keeps in the data folder
    // (migration 0016).
    tables: ['cache_versions', 'key_guesses', 'stored_files'],
    // The listed tables' creation order, which SQLite keeps as the hidden rowid (migration 0017).
    columns: ['rowid'],
  },
};

type Shape = Map<string, Set<string>>;

async function sqliteShape(): Promise<Shape> {
  const db = sqliteDb(new Database(':memory:'));
  await migrate(db, loadMigrations('sqlite'));
  const tables = (await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()) as string[];
  const shape: Shape = new Map();
  for (const table of tables) {
    const columns = (await db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table)) as string[];
    shape.set(table.toLowerCase(), new Set(columns.map((column) => column.toLowerCase())));
  }
  await db.close();
  return shape;
}

async function postgresShape(db: Db): Promise<Shape> {
  const rows = (await db
    .prepare(
      `SELECT c.table_name AS "table", c.column_name AS "column" FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'`,
    )
    .all()) as { table: string; column: string }[];
  const shape: Shape = new Map();
  for (const { table, column } of rows) {
    const columns = shape.get(table) ?? new Set<string>();
    columns.add(column);
    shape.set(table, columns);
  }
  return shape;
}

/** `shape` without what only `engine` has: the tables, and the columns, named as PostgreSQL folds them. */
function comparable(shape: Shape, engine: 'sqlite' | 'postgres'): Record<string, string[]> {
  const { tables, columns } = onlyOn[engine];
  const kept: Record<string, string[]> = {};
  for (const [table, names] of [...shape].sort(([a], [b]) => a.localeCompare(b))) {
    if (tables.includes(table)) continue;
    kept[table] = [...names].filter((name) => !columns.includes(name)).sort();
  }
  return kept;
}

describe('the schema on both engines', { skip: withoutPostgres }, () => {
  let postgres: Db;

  before(async () => {
    postgres = await openPostgres(await freshDatabase('schema_parity'));
  });
  after(async () => {
    await postgres.close();
  });

  it('has the same tables with the same columns, but for what one engine alone needs', async () => {
    const sqlite = await sqliteShape();
    const pg = await postgresShape(postgres);
    for (const [engine, shape] of [
      ['sqlite', sqlite],
      ['postgres', pg],
    ] as const) {
      for (const table of onlyOn[engine].tables) assert.ok(shape.has(table), `${table} is still ${engine}'s own`);
    }
    assert.ok(Object.keys(comparable(sqlite, 'sqlite')).length > 20, 'the migrated schema has its tables');
    assert.deepEqual(comparable(pg, 'postgres'), comparable(sqlite, 'sqlite'));
  });
});
