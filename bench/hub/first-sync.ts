/**
 * The first sync of a new kiosk on a company with a long history on the PostgreSQL hub. The visits are written
 * straight into the hub's database in SQL (`INSERT … SELECT generate_series`), with their feed entries, oldest
 * first, as the feed's triggers would have left them; then a kiosk process is started on the company and timed
 * until its first sync has ended (its "sync online" log line).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { removeDir, startService } from '../../test/helpers/service.ts';
import { settledLogLines, upstreamArgs } from '../../test/helpers/sync-service.ts';
import { databaseFile } from '../seed.ts';
import type { StatementCounter } from './cluster.ts';

export interface FirstSyncFigures {
  visits: number;
  seedSeconds: number;
  /** Visits a new kiosk receives: the open ones and those of the last week (the feed's `keep`). */
  keptVisits: number;
  /** Visits the kiosk's database held afterwards (read from its SQLite file once it stopped). */
  receivedVisits: number;
  /** From the kiosk's "listening" to its first sync's end, s. */
  firstSyncSeconds: number;
  /** Statements the hub's database ran meanwhile (pg_stat_statements, top level). */
  statements: number;
}

const dayMs = 86_400_000;
/** The history spans two years; the newest `openVisits` visits are still open. */
const historyMs = 730 * dayMs;
const openVisits = 50;

/**
 * Writes `count` visits of the company, one every (two years ÷ count) up to now, and their feed entries, in one
 * transaction. As bench/seed.ts does on SQLite, the tables' secondary indexes are dropped during the load and made
 * again from their own definitions (pg_indexes). The triggers are off for the session (`session_replication_role`):
 * the feed entries are written by the same statement, in the visits' order, instead of one trigger call per row.
 * The visitor records a check-in also makes stay out: they are not in the feed.
 */
async function seedVisits(
  databaseUrl: string,
  companyId: string,
  count: number,
  log: (line: string) => void,
): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const started = performance.now();
  try {
    await db.query('BEGIN');
    await db.query('SET LOCAL session_replication_role = replica');
    await db.query("SET LOCAL maintenance_work_mem = '256MB'");
    const { rows: indexes } = await db.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.schemaname = current_schema() AND i.tablename IN ('visits', 'sync_changes')
         AND NOT x.indisprimary`,
    );
    for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
    await db.query(
      `WITH seeded AS (
         INSERT INTO visits (id, companyId, createdAt, updatedAt, name, checkinAt, checkinType, checkoutAt,
           checkoutType, isInsideCompany, cardNumber)
         SELECT '00000000-0000-4000-8000-' || lpad(to_hex(g), 12, '0'), $1::text, t, t, 'Seeded Visitor ' || g, t,
           'walkin', CASE WHEN open THEN NULL ELSE t + 3600000 END, CASE WHEN open THEN NULL ELSE 'kiosk' END,
           CASE WHEN open THEN 1 ELSE 0 END, lpad((g % 1000000)::text, 6, '0')
         FROM generate_series(1, $2::bigint) g,
           LATERAL (SELECT $3::bigint - ($2::bigint - g) * ($5::bigint / $2::bigint) AS t,
             g > $2::bigint - $4::bigint AS open) v
         RETURNING id, companyId)
       INSERT INTO sync_changes (tableName, rowKey, companyId, deleted) SELECT 'visits', id, companyId, 0 FROM seeded`,
      [companyId, count, Date.now(), openVisits, historyMs],
    );
    const inserted = performance.now();
    for (const index of indexes) await db.query(index.definition);
    const indexed = performance.now();
    await db.query('COMMIT');
    log(
      `  rows ${((inserted - started) / 1000).toFixed(1)} s, ${indexes.length} indexes ` +
        `${((indexed - inserted) / 1000).toFixed(1)} s, commit ${((performance.now() - indexed) / 1000).toFixed(1)} s`,
    );
    await db.query('ANALYZE visits');
    await db.query('ANALYZE sync_changes');
    return (performance.now() - started) / 1000;
  } finally {
    await db.end();
  }
}

async function keptVisits(databaseUrl: string, companyId: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM visits WHERE companyId = $1 AND (checkoutAt IS NULL OR checkinAt >= $2)',
      [companyId, Date.now() - 7 * dayMs],
    );
    return Number(rows[0]?.n);
  } finally {
    await db.end();
  }
}

function visitsIn(dataDir: string): number {
  const db = new Database(databaseFile(dataDir), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM visits').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A hub on `database`, a company with `visits` visits, a new kiosk's first sync. */
export async function measureFirstSync(
  database: { name: string; url: string },
  visits: number,
  counter: StatementCounter,
  log: (line: string) => void,
): Promise<FirstSyncFigures> {
  const hub = await startService({ database: database.url, env: { PORTARIA_LOG_LEVEL: 'warn' } });
  try {
    const company = await hub.company('Bench History', 'UTC');
    const seedSeconds = await seedVisits(database.url, company.id, visits, log);
    log(`seeded ${visits.toLocaleString('en-US')} visits in ${seedSeconds.toFixed(1)} s`);
    await counter.reset();
    const kiosk = await startService({ args: upstreamArgs(hub.url, company.apiKey) });
    const listeningAt = Date.now();
    let figures: Omit<FirstSyncFigures, 'receivedVisits'>;
    try {
      const [online] = await settledLogLines(kiosk, 'sync online', 1, 900_000);
      if (!online) throw new Error(`the kiosk did not finish its first sync: ${kiosk.stderr().slice(-600)}`);
      figures = {
        visits,
        seedSeconds,
        keptVisits: await keptVisits(database.url, company.id),
        firstSyncSeconds: ((online.time as number) - listeningAt) / 1000,
        statements: (await counter.count(database.name)).calls,
      };
    } finally {
      await kiosk.stop();
    }
    try {
      return { ...figures, receivedVisits: visitsIn(kiosk.dataDir) };
    } finally {
      removeDir(kiosk.dataDir);
    }
  } finally {
    await hub.stop();
    removeDir(hub.dataDir);
  }
}
