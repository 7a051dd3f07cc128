import type { Context } from '../context.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { syncState, updateSyncState } from './state.ts';
import { type FeedTable, feedTableNamed, feedTables, recentVisitsMs } from './tables.ts';

/*
 * The change feed: `sync_changes` holds one entry per row of the feed's tables, moved to a fresh sequence number
 * (AUTOINCREMENT: never reused, so monotonic) each time the row is written. Triggers keep it, so no write path
 * can forget it, including the command line writing while the service runs. A reader asks for what changed after
 * the sequence number it has reached, and receives each row as it is now (or a tombstone when it is gone).
 */

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkIdentifiers(spec: FeedTable): void {
  for (const name of [spec.table, spec.key, spec.company, ...spec.omit, ...spec.sealed]) {
    if (!identifier.test(name)) throw new Error(`change feed: ${name} is not a plain SQL identifier`);
  }
}

function triggerSql(spec: FeedTable, event: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const row = event === 'DELETE' ? 'OLD' : 'NEW';
  return `CREATE TRIGGER sync_feed_${spec.table}_${event.toLowerCase()} AFTER ${event} ON ${spec.table} BEGIN
    DELETE FROM sync_changes WHERE tableName = '${spec.table}' AND rowKey = ${row}.${spec.key};
    INSERT INTO sync_changes (tableName, rowKey, companyId, deleted)
      VALUES ('${spec.table}', ${row}.${spec.key}, ${row}.${spec.company}, ${event === 'DELETE' ? 1 : 0});
  END`;
}

/**
 * Creates the feed's triggers for tables that have none yet and enters their existing rows into the feed, in one
 * transaction: a table added to `feedTables` joins the feed, history included, at the next start.
 */
export async function installChangeFeed(db: Db, tables: readonly FeedTable[] = feedTables): Promise<void> {
  const engine = db.sqlite ? sqliteFeed : postgresFeed;
  const hasTrigger = db.prepare(engine.hasTrigger);
  const hasTable = db.prepare(engine.hasTable);
  for (const spec of tables) {
    checkIdentifiers(spec);
    if (await hasTrigger.get(engine.triggerName(spec))) continue;
    if (!(await hasTable.get(db.sqlite ? spec.table : spec.table.toLowerCase()))) {
      throw new Error(`change feed: table ${spec.table} does not exist`);
    }
    await db.transaction(async () => {
      for (const sql of engine.triggers(spec)) await db.exec(sql);
      await db.prepare('DELETE FROM sync_changes WHERE tableName = ?').run(spec.table);
      await db.exec(`INSERT INTO sync_changes (tableName, rowKey, companyId, deleted)
        SELECT '${spec.table}', ${spec.key}, ${spec.company}, 0 FROM ${spec.table}`);
    });
  }
}

/** Where each engine keeps its triggers, and the triggers that keep the feed. */
const sqliteFeed = {
  hasTrigger: "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?",
  hasTable: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
  triggerName: (spec: FeedTable) => `sync_feed_${spec.table}_insert`,
  triggers: (spec: FeedTable) => (['INSERT', 'UPDATE', 'DELETE'] as const).map((event) => triggerSql(spec, event)),
};

/** On PostgreSQL one trigger per table calls the schema's `sync_feed_entry` (migrations/postgres/0014_schema.sql). */
const postgresFeed = {
  hasTrigger: 'SELECT 1 FROM pg_trigger WHERE tgname = ?',
  hasTable: 'SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?',
  triggerName: (spec: FeedTable) => `sync_feed_${spec.table}`.toLowerCase(),
  triggers: (spec: FeedTable) => [
    `CREATE TRIGGER sync_feed_${spec.table} AFTER INSERT OR UPDATE OR DELETE ON ${spec.table}
      FOR EACH ROW EXECUTE FUNCTION sync_feed_entry('${spec.key.toLowerCase()}', '${spec.company.toLowerCase()}')`,
  ],
};

/**
 * Moves a row's entry to the end of the feed without writing the row: the hub does so for every row a kiosk's
 * mutation concerns, so the kiosk receives the hub's version even when the mutation changed nothing there. A key
 * that names another company's row is left alone: that row is not the kiosk's to receive.
 */
export async function touchRow(ctx: Pick<Context, 'db'>, table: string, key: string, companyId: string): Promise<void> {
  const spec = feedTableNamed(table);
  if (!spec) return;
  const owner = (await prepared(
    ctx.db,
    `SELECT ${spec.company} AS companyId FROM ${spec.table} WHERE ${spec.key} = ?`,
  ).get(key)) as { companyId: string } | undefined;
  if (owner && owner.companyId !== companyId) return;
  const exists = owner !== undefined;
  await prepared(ctx.db, 'DELETE FROM sync_changes WHERE tableName = ? AND rowKey = ?').run(table, key);
  await prepared(ctx.db, 'INSERT INTO sync_changes (tableName, rowKey, companyId, deleted) VALUES (?, ?, ?, ?)').run(
    table,
    key,
    companyId,
    exists ? 0 : 1,
  );
}

/**
 * Forgets all but the newest `keep` tombstones (entries of rows deleted outright). A reader whose cursor is older
 * than the newest forgotten one may have missed a deletion, so it is sent through a full resync.
 */
export async function pruneTombstones(ctx: Pick<Context, 'db'>, keep: number): Promise<void> {
  const cutoff = (await prepared(
    ctx.db,
    'SELECT seq FROM sync_changes WHERE deleted = 1 ORDER BY seq DESC LIMIT 1 OFFSET ?',
  ).get(keep)) as { seq: number } | undefined;
  if (!cutoff) return;
  await ctx.db.transaction(async () => {
    await prepared(ctx.db, 'DELETE FROM sync_changes WHERE deleted = 1 AND seq <= ?').run(cutoff.seq);
    await updateSyncState(ctx, { horizon: Math.max((await syncState(ctx)).horizon, cutoff.seq) });
  });
}

export type SqlValue = string | number | null;
export type FeedRow = Record<string, SqlValue>;

export interface Change {
  table: string;
  key: string;
  /** The row as it is now; null when it is gone (a tombstone). */
  row: FeedRow | null;
}

export interface ChangesPage {
  companyId: string;
  /** True when the reader must start over: everything follows, and what is not in it no longer exists. */
  reset: boolean;
  changes: Change[];
  cursor: string;
  hasMore: boolean;
}

/** Marks the cursors of a full pass that has more pages: its tables' `keep` conditions hold until its end. */
const fullPass = 'full';

/**
 * The feed's id in cursors: the node id of this database's `sync_state`, which `portaria restore` renews; on
 * PostgreSQL with the database's own id besides, which a restore into a new database changes (docs/deployment.md,
 * "Backups"). A restored hub's feed is then another feed to its kiosks, even once it has grown past their cursors.
 */
async function feedId(db: Db, nodeId: string): Promise<string> {
  if (db.sqlite) return nodeId;
  return `${nodeId}-${await prepared(db, 'SELECT oid FROM pg_database WHERE datname = current_database()').pluck().get()}`;
}

/**
 * A cursor is `<feed id>.<sequence number>`, with `.full` inside a full pass. A cursor from another feed (another
 * hub, a new database), beyond the feed's end or older than its horizon is unknown: undefined.
 */
function positionOf(
  cursor: string | undefined,
  feed: { id: string; horizon: number; last: number },
): { seq: number; full: boolean } | undefined {
  const [id, position, mark, ...rest] = (cursor ?? '').split('.');
  const seq = Number(position);
  if (id !== feed.id || !/^\d+$/.test(position ?? '') || rest.length > 0) return undefined;
  if (mark !== undefined && mark !== fullPass) return undefined;
  if (seq < feed.horizon || seq > feed.last) return undefined;
  return { seq, full: mark === fullPass };
}

/**
 * The feed's entries after a position. A full pass (a kiosk starting over) leaves out rows failing their table's
 * `keep` condition, so a new kiosk does not download the company's history; a pass that follows the feed sends
 * every change, so what happens to an old row (an erasure, the retention's anonymisation) reaches the kiosks.
 */
function feedQuery(tables: readonly FeedTable[], full: boolean): string {
  const filters = tables
    .filter((t) => full && t.keep)
    .map(
      (t) => `AND NOT (c.tableName = '${t.table}' AND EXISTS (
        SELECT 1 FROM ${t.table} r WHERE r.${t.key} = c.rowKey AND NOT (${t.keep})))`,
    );
  return `SELECT c.seq, c.tableName, c.rowKey FROM sync_changes c
    WHERE c.companyId = :companyId AND c.seq > :after ${filters.join(' ')}
    ORDER BY c.seq LIMIT :limit`;
}

/** The row as it travels: without the columns that stay at the hub, its secrets opened. */
function travellingRow(ctx: Pick<Context, 'secrets'>, spec: FeedTable, stored: FeedRow): FeedRow {
  const row: FeedRow = { ...stored };
  for (const column of spec.omit) delete row[column];
  for (const column of spec.sealed) {
    const value = row[column];
    if (typeof value === 'string') row[column] = ctx.secrets.open(value);
  }
  return row;
}

/**
 * The last sequence number a reader of the company may reach. SQLite has one writer at a time, so the number last
 * drawn is committed. On PostgreSQL writers of a company take their turns (the schema's `sync_changes_in_order`),
 * and the company's largest visible number is the end: a number drawn and not yet committed is larger, and is
 * read once it is. The horizon keeps the end where pruned tombstones were.
 */
async function feedEnd(db: Db, companyId: string, horizon: number): Promise<number> {
  if (db.sqlite) {
    const sequence = await prepared(db, "SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'").pluck().get();
    return (sequence as number | undefined) ?? 0;
  }
  const last = await prepared(db, 'SELECT MAX(seq) FROM sync_changes WHERE companyId = ?').pluck().get(companyId);
  return Math.max((last as number | null) ?? 0, horizon);
}

/** One page of a company's changes after `since` (a cursor from an earlier page; none to start from the top). */
export async function readChanges(
  ctx: Pick<Context, 'db' | 'clock' | 'secrets'>,
  companyId: string,
  since: string | undefined,
  limit: number,
  tables: readonly FeedTable[] = feedTables,
): Promise<ChangesPage> {
  return await ctx.db.transaction(async () => {
    const state = await syncState(ctx);
    const last = await feedEnd(ctx.db, companyId, state.horizon);
    const id = await feedId(ctx.db, state.nodeId);
    const position = positionOf(since, { id, horizon: state.horizon, last });
    const full = position === undefined || position.full;
    const entries = (await prepared(ctx.db, feedQuery(tables, full)).all({
      companyId,
      after: position?.seq ?? 0,
      limit,
      recentSince: ctx.clock.now() - recentVisitsMs,
    })) as { seq: number; tableName: string; rowKey: string }[];
    const changes: Change[] = [];
    for (const entry of entries) {
      const spec = feedTableNamed(entry.tableName, tables);
      if (!spec) continue;
      const stored = (await prepared(ctx.db, `SELECT * FROM ${spec.table} WHERE ${spec.key} = ?`).get(entry.rowKey)) as
        | FeedRow
        | undefined;
      changes.push({ table: spec.table, key: entry.rowKey, row: stored ? travellingRow(ctx, spec, stored) : null });
    }
    const hasMore = entries.length === limit;
    // A reader that got the end has seen the whole feed as it is now, other companies' entries included.
    const reached = hasMore ? (entries.at(-1)?.seq ?? 0) : last;
    return {
      companyId,
      reset: position === undefined,
      changes,
      cursor: `${id}.${reached}${full && hasMore ? `.${fullPass}` : ''}`,
      hasMore,
    };
  });
}
