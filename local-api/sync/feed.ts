import { type Context, runtimePart } from '../context.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { syncState, updateSyncState } from './state.ts';
import { type FeedTable, feedTableNamed, feedTables, recentVisitsMs } from './tables.ts';

/*
 * The change feed: `sync_changes` holds one entry per row of the feed's tables, moved to a fresh sequence number
 * (AUTOINCREMENT: never reused, so monotonic) each time the row is written. Triggers keep it, so no write path
 * can forget it, including the command line writing while the service runs. A reader asks for what changed after
 * the sequence number it has reached, and receives each row as it is now (or a tombstone when it is gone); a new
 * reader starts with a snapshot of the rows it needs, read from the tables (`readChanges`).
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

/** Marks the cursors of a snapshot that has more pages: `<feed id>.<position>.full.<table>.<last key>`. */
const snapshotMark = 'full';

/**
 * The feed's id in cursors: the node id of this database's `sync_state`, which `portaria restore` renews; on
 * PostgreSQL with the database's own id besides, which a restore into a new database changes (docs/deployment.md,
 * "Backups"). A restored hub's feed is then another feed to its kiosks, even once it has grown past their cursors.
 * Read with where the company's feed ends and what the hub holds of the asking kiosk, in one statement.
 */
function feedStateSql(db: Db): string {
  const client =
    '(SELECT lastMutationId FROM sync_clients WHERE companyId = :companyId AND clientId = :clientId) AS lastMutationId';
  // SQLite has one writer at a time, so the number last drawn is committed. On PostgreSQL writers of a company
  // take their turns (the schema's `sync_changes_in_order`), and the company's largest visible number is the end:
  // a number drawn and not yet committed is larger, and is read once it is.
  if (db.sqlite) {
    return `SELECT s.nodeId AS feedId, s.horizon,
      (SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes') AS last, ${client}
      FROM sync_state s WHERE s.id = 1`;
  }
  return `SELECT s.nodeId || '-' || (SELECT CAST(oid AS TEXT) FROM pg_database WHERE datname = current_database())
      AS feedId, s.horizon, (SELECT MAX(seq) FROM sync_changes WHERE companyId = :companyId) AS last, ${client}
    FROM sync_state s WHERE s.id = 1`;
}

interface FeedState {
  feedId: string;
  horizon: number;
  last: number | null;
  lastMutationId: number | null;
}

interface Position {
  seq: number;
  /** Inside a snapshot: the table it has reached (its index in the feed's tables) and the last key sent of it. */
  snapshot?: { table: number; key: string };
}

/**
 * A cursor is `<feed id>.<sequence number>`, with the snapshot's progress after `.full` inside a snapshot. A cursor
 * from another feed (another hub, a new database), beyond the feed's end or older than its horizon is unknown:
 * undefined.
 */
function positionOf(
  cursor: string | undefined,
  feed: { id: string; horizon: number; last: number },
): Position | undefined {
  const [id, position, mark, table, key, ...rest] = (cursor ?? '').split('.');
  const seq = Number(position);
  if (id !== feed.id || !/^\d+$/.test(position ?? '') || rest.length > 0) return undefined;
  if (seq < feed.horizon || seq > feed.last) return undefined;
  if (mark === undefined) return { seq };
  if (mark !== snapshotMark || (table !== undefined && !/^\d{1,3}$/.test(table))) return undefined;
  // A cursor of a full pass from before snapshots (`….full`) goes on with a snapshot from its start.
  return { seq, snapshot: { table: Number(table ?? 0), key: Buffer.from(key ?? '', 'base64url').toString() } };
}

const cursorOf = (id: string, position: Position) => {
  const { snapshot } = position;
  if (!snapshot) return `${id}.${position.seq}`;
  return `${id}.${position.seq}.${snapshotMark}.${snapshot.table}.${Buffer.from(snapshot.key).toString('base64url')}`;
};

/** The columns that travel of each table of the feed, by table. */
type Columns = ReadonlyMap<string, readonly string[]>;

/** The columns of the feed's tables as the store reads them, read once per process (`rowJson`). */
async function feedColumns(ctx: Pick<Context, 'db' | 'runtime'>, tables: readonly FeedTable[]): Promise<Columns> {
  const known = runtimePart(ctx, 'sync.feedColumns', () => new Map<string, readonly string[]>());
  for (const spec of tables) {
    if (known.has(spec.table)) continue;
    // A row of nulls, read as the store reads rows: its keys are the columns as `SELECT *` names them.
    const probe = await prepared(
      ctx.db,
      `SELECT r.* FROM (SELECT 1 AS one) o LEFT JOIN ${spec.table} r ON 1 = 0`,
    ).get();
    known.set(
      spec.table,
      Object.keys(probe as object).filter((column) => !spec.omit.includes(column)),
    );
  }
  return known;
}

/**
 * The row of alias `r` as JSON text, in the statement that finds it: a page's rows are read with its entries,
 * whatever their tables, not one by one. PostgreSQL's functions take 100 arguments at most: its object is built
 * in parts.
 */
function rowJson(db: Db, columns: readonly string[]): string {
  const pair = (column: string) => `'${column}', r."${column}"`;
  if (db.sqlite) return `json_object(${columns.map(pair).join(', ')})`;
  const parts: string[] = [];
  for (let i = 0; i < columns.length; i += 50) {
    parts.push(
      `jsonb_build_object(${columns
        .slice(i, i + 50)
        .map(pair)
        .join(', ')})`,
    );
  }
  return `CAST(${parts.join(' || ')} AS TEXT)`;
}

/** The JSON of the row a `(table, key)` pair names, null when there is none: one branch per table of the feed. */
function rowsByKey(
  db: Db,
  tables: readonly FeedTable[],
  columns: Columns,
  tableOf: (index: number, spec: FeedTable) => string,
  key: string,
): string {
  const branches = tables.map(
    (spec, index) =>
      `WHEN ${tableOf(index, spec)} THEN (SELECT ${rowJson(db, columns.get(spec.table) ?? [])} FROM ${spec.table} r
        WHERE r.${spec.key} = ${key})`,
  );
  return `CASE ${branches.join(' ')} END`;
}

/** A page of the feed's entries after a position, up to the feed's end as read, each with its row. */
function feedPageSql(db: Db, tables: readonly FeedTable[], columns: Columns): string {
  return `SELECT c.seq, c.tableName AS tableName, c.rowKey AS rowKey,
      ${rowsByKey(db, tables, columns, (_, spec) => `c.tableName = '${spec.table}'`, 'c.rowKey')} AS body
    FROM sync_changes c
    WHERE c.companyId = :companyId AND c.seq > :after AND c.seq <= :last
    ORDER BY c.seq LIMIT :limit`;
}

/**
 * A page of a snapshot: the rows of the company a kiosk needs, table after table (in the feed's order) and by key
 * within a table, from the snapshot's position on (the table it has reached, the last key it sent of it), read from
 * the tables themselves, not from the feed: a new kiosk does not walk the company's history. Each table's `snapshot`
 * conditions choose its rows by an index of theirs; a table sent whole is walked by its key (SQLite's `+` keeps it
 * from sorting all of the company's rows for each page instead), so a page costs its rows, not the table. Each
 * branch stops at a page's rows; the row's JSON is built for the page's rows alone.
 */
function snapshotPageSql(db: Db, tables: readonly FeedTable[], columns: Columns, from: number): string {
  const branches = tables.flatMap((spec, index) => {
    if (index < from) return [];
    const after = index === from ? `AND ${spec.key} > :key` : '';
    const company = db.sqlite && !spec.snapshot ? `+${spec.company}` : spec.company;
    return (spec.snapshot ?? ['1 = 1']).map(
      (condition, n) => `SELECT t, k FROM (SELECT ${index} AS t, ${spec.key} AS k FROM ${spec.table}
        WHERE ${company} = :companyId AND (${condition}) ${after} ORDER BY ${spec.key} LIMIT :limit) b${index}_${n}`,
    );
  });
  return `SELECT p.t, p.k, ${rowsByKey(db, tables, columns, (index) => `p.t = ${index}`, 'p.k')} AS body
    FROM (${branches.join(' UNION ALL ')} ORDER BY t, k LIMIT :limit) p
    ORDER BY p.t, p.k`;
}

/** The row as it travels: without the columns that stay at the hub, its secrets opened. */
function travellingRow(ctx: Pick<Context, 'secrets'>, spec: FeedTable, json: string): FeedRow {
  const row = JSON.parse(json) as FeedRow;
  for (const column of spec.omit) delete row[column];
  for (const column of spec.sealed) {
    const value = row[column];
    if (typeof value === 'string') row[column] = ctx.secrets.open(value);
  }
  return row;
}

export interface ReadOptions {
  /** The asking kiosk's client id: the page then says the last of its mutations the hub applied. */
  clientId?: string | undefined;
  tables?: readonly FeedTable[];
}

/**
 * One page of a company's changes after `since` (a cursor from an earlier page; none to start from the top), in two
 * statements at most, one when nothing changed; no transaction, since each page is read to the feed's end as the
 * first statement saw it. Without a cursor it starts a snapshot: the rows the kiosk needs as they are now (`reset`),
 * page by page, and then the feed from where it stood when the snapshot began, so what changed meanwhile follows.
 */
export async function readChanges(
  ctx: Pick<Context, 'db' | 'clock' | 'secrets' | 'runtime'>,
  companyId: string,
  since: string | undefined,
  limit: number,
  options: ReadOptions = {},
): Promise<ChangesPage & { lastMutationId: number | null }> {
  const tables = options.tables ?? feedTables;
  const state = (await prepared(ctx.db, feedStateSql(ctx.db)).get({
    companyId,
    clientId: options.clientId ?? null,
  })) as FeedState;
  const last = Math.max(state.last ?? 0, state.horizon);
  const known = positionOf(since, { id: state.feedId, horizon: state.horizon, last });
  const position: Position = known ?? { seq: last, snapshot: { table: 0, key: '' } };
  const page = (changes: Change[], next: Position, hasMore: boolean) => ({
    companyId,
    reset: known === undefined,
    changes,
    cursor: cursorOf(state.feedId, next),
    hasMore,
    lastMutationId: state.lastMutationId,
  });
  const { snapshot } = position;
  // A snapshot past the last table (a cursor made up) has ended.
  if (snapshot && snapshot.table >= tables.length) return page([], { seq: position.seq }, position.seq < last);
  if (snapshot) {
    const columns = await feedColumns(ctx, tables);
    const rows = (await prepared(ctx.db, snapshotPageSql(ctx.db, tables, columns, snapshot.table)).all({
      companyId,
      key: snapshot.key,
      limit,
      recentSince: ctx.clock.now() - recentVisitsMs,
    })) as { t: number; k: string; body: string | null }[];
    const changes = rows.flatMap(({ t, k, body }) => {
      const spec = tables[t];
      return spec && body !== null ? [{ table: spec.table, key: k, row: travellingRow(ctx, spec, body) }] : [];
    });
    const end = rows.at(-1);
    // The snapshot's end: the feed follows from where it stood at its start.
    if (rows.length < limit || !end) return page(changes, { seq: position.seq }, position.seq < last);
    return page(changes, { seq: position.seq, snapshot: { table: end.t, key: end.k } }, true);
  }
  // Nothing after the position: an idle poll costs the one statement.
  if (position.seq >= last) return page([], { seq: last }, false);
  const columns = await feedColumns(ctx, tables);
  const entries = (await prepared(ctx.db, feedPageSql(ctx.db, tables, columns)).all({
    companyId,
    after: position.seq,
    last,
    limit,
  })) as { seq: number; tableName: string; rowKey: string; body: string | null }[];
  const changes = entries.flatMap(({ tableName, rowKey, body }) => {
    const spec = feedTableNamed(tableName, tables);
    return spec ? [{ table: spec.table, key: rowKey, row: body === null ? null : travellingRow(ctx, spec, body) }] : [];
  });
  const hasMore = entries.length === limit;
  // A reader that got the end has seen the whole feed as it is now, other companies' entries included.
  return page(changes, { seq: hasMore ? (entries.at(-1)?.seq ?? last) : last }, hasMore);
}
