/**
 * The hub's ceiling: a bare node:http server on node-postgres (a pool of connections, every query awaited) that
 * answers the sync protocol's push and pull with the least work that keeps the same durable writes, as its own
 * process:
 *
 *   node --import tsx bench/hub/bare-server.ts --database postgres://…/db [--pool 10]
 *
 * - `POST /v1/sync/push`: one transaction per batch, as the hub's; per mutation one visit-sized row written (a
 *   check-in inserts it, a check-out updates it) and its feed entry moved to the end (one upsert). Every mutation
 *   is answered `applied`.
 * - `GET /v1/sync/changes?since=<seq>&limit=N`: the company's feed entries after `since` joined to their rows.
 * - `GET /v1/hosts?limit=1`: one indexed read, the cheap request.
 *
 * No validation, no idempotency, no authentication: the bearer token is taken as the company id.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import pg from 'pg';

const schema = `
CREATE TABLE IF NOT EXISTS bare_visits (
  id TEXT PRIMARY KEY, companyId TEXT NOT NULL, createdAt BIGINT NOT NULL, updatedAt BIGINT NOT NULL,
  visitorId TEXT, name TEXT, email TEXT, phone TEXT, document TEXT, hostId TEXT, cardNumber TEXT,
  checkinAt BIGINT NOT NULL, checkinType TEXT, checkoutAt BIGINT, checkoutType TEXT,
  isInsideCompany BIGINT NOT NULL DEFAULT 1, customFields TEXT NOT NULL DEFAULT '[]');
CREATE INDEX IF NOT EXISTS bare_visits_checkin ON bare_visits (companyId, checkinAt);
CREATE TABLE IF NOT EXISTS bare_feed (
  seq BIGSERIAL PRIMARY KEY, rowKey TEXT NOT NULL UNIQUE, companyId TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS bare_feed_company ON bare_feed (companyId, seq);`;

interface Mutation {
  id: number;
  name: string;
  args: { visit?: { id: string; checkinAt: string }; visitor?: { name: string }; id?: string; checkout?: object };
}

const feedUpsert = `INSERT INTO bare_feed (rowKey, companyId) VALUES ($1, $2)
  ON CONFLICT (rowKey) DO UPDATE SET seq = nextval(pg_get_serial_sequence('bare_feed', 'seq'))`;

async function push(pool: pg.Pool, companyId: string, mutations: Mutation[]) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const { args } of mutations) {
      const now = Date.now();
      const key = args.visit?.id ?? args.id ?? '';
      if (args.visit) {
        await client.query(
          `INSERT INTO bare_visits (id, companyId, createdAt, updatedAt, name, cardNumber, checkinAt, checkinType)
           VALUES ($1, $2, $3, $3, $4, $5, $6, 'walkin')`,
          [key, companyId, now, args.visitor?.name ?? '', String(now % 1_000_000), Date.parse(args.visit.checkinAt)],
        );
      } else {
        await client.query(
          `UPDATE bare_visits SET checkoutAt = $2, checkoutType = 'kiosk', isInsideCompany = 0, updatedAt = $2
           WHERE id = $1`,
          [key, now],
        );
      }
      await client.query(feedUpsert, [key, companyId]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  const last = mutations.at(-1)?.id ?? 0;
  return { lastMutationId: last, results: mutations.map((m) => ({ id: m.id, result: 'applied' })), hlc: '' };
}

async function changes(pool: pg.Pool, companyId: string, query: URLSearchParams) {
  const since = Number(query.get('since') ?? 0);
  const limit = Number(query.get('limit') ?? 500);
  const { rows } = await pool.query(
    `SELECT f.seq, v.* FROM bare_feed f JOIN bare_visits v ON v.id = f.rowKey
     WHERE f.companyId = $1 AND f.seq > $2 ORDER BY f.seq LIMIT $3`,
    [companyId, since, limit],
  );
  const cursor = rows.length > 0 ? String(rows.at(-1).seq) : String(since);
  const list = rows.map(({ seq: _seq, ...row }) => ({ table: 'visits', key: row.id, row }));
  return { companyId, reset: false, changes: list, cursor, hasMore: rows.length === limit };
}

async function cheapRead(pool: pg.Pool, companyId: string) {
  const { rows } = await pool.query('SELECT id, name FROM bare_visits WHERE companyId = $1 LIMIT 1', [companyId]);
  return { hosts: rows, size: rows.length };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function answer(pool: pg.Pool, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://bare');
  const companyId = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  let body: unknown;
  if (req.method === 'POST' && url.pathname === '/v1/sync/push') {
    body = await push(pool, companyId, (JSON.parse(await bodyOf(req)) as { mutations: Mutation[] }).mutations);
  } else if (req.method === 'GET' && url.pathname === '/v1/sync/changes') {
    body = await changes(pool, companyId, url.searchParams);
  } else if (req.method === 'GET' && url.pathname === '/v1/hosts') {
    body = await cheapRead(pool, companyId);
  } else {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"NOT_FOUND"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const { values } = parseArgs({ options: { database: { type: 'string' }, pool: { type: 'string', default: '10' } } });
if (!values.database) throw new Error('usage: bare-server.ts --database postgres://…/db [--pool N]');
const pool = new pg.Pool({ connectionString: values.database, max: Number(values.pool) });
await pool.query(schema);
const server = createServer((req, res) => {
  answer(pool, req, res).catch((error: Error) => {
    process.stderr.write(`${JSON.stringify({ err: { message: error.message } })}\n`);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"type":"INTERNAL"}');
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare hub listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end();
});
