/**
 * What the hub's sync endpoints cost its database, in statements (test/helpers/statements.ts), on the engine the
 * suite runs against (SQLite; PostgreSQL under test/helpers/with-postgres.ts): per pushed mutation, per page of the
 * feed, per idle poll, and a new kiosk's first sync, which must not grow with the company's history.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { eventListeners } from '../../local-api/app.ts';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import type { Caller } from '../../local-api/credentials/caller.ts';
import { openService } from '../../local-api/server.ts';
import { hubManagedRule, syncListener } from '../../local-api/sync/listener.ts';
import { syncRoutes } from '../../local-api/sync/routes.ts';
import { freshDatabase, testEngine } from '../helpers/postgres.ts';
import { removeDir, tempDir } from '../helpers/service.ts';
import { countStatements } from '../helpers/statements.ts';
import { callerOf } from '../helpers/sync.ts';

const opened: Context[] = [];
after(() => {
  for (const ctx of opened) {
    ctx.db.close();
    removeDir(ctx.dataDir);
  }
});

/** A hub as `portaria serve` assembles it (every listener subscribed), with one company. */
function hub(): { ctx: Context; caller: Caller } {
  const dataDir = tempDir();
  const ctx = openService({
    dataDir,
    logLevel: 'silent',
    ...(testEngine === 'postgres' ? { database: freshDatabase('cost') } : {}),
  });
  opened.push(ctx);
  ctx.events.addRule(hubManagedRule(ctx));
  for (const listener of eventListeners(ctx)) ctx.events.subscribe(listener);
  void syncListener;
  const company = createCompany(ctx, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  return { ctx, caller: callerOf(ctx, company.apiKey) };
}

function endpoint(ctx: Context, method: string, path: string) {
  const spec = syncRoutes(ctx).find((r) => r.method === method && r.path === path);
  if (!spec) throw new Error(`no ${method} ${path}`);
  return spec;
}

let hlcMs = Date.UTC(2026, 10, 22, 12, 0, 0);
const hlc = () => `${String(hlcMs++).padStart(15, '0')}-0000-abcdef0123456789`;

function push(ctx: Context, caller: Caller, clientId: string, mutations: unknown[]) {
  return endpoint(ctx, 'post', '/sync/push').handle({
    caller,
    body: { clientId, mutations },
  } as never) as { lastMutationId: number; results: { result: string }[] };
}

function changes(ctx: Context, caller: Caller, query: Record<string, string>) {
  return endpoint(ctx, 'get', '/sync/changes').handle({ caller, req: { query } } as never) as {
    changes: unknown[];
    cursor: string;
    hasMore: boolean;
  };
}

test('statements per pushed mutation, per page and per idle poll', () => {
  const { ctx, caller } = hub();
  const counter = countStatements(ctx);
  const clientId = 'kiosk-one-0001';
  let id = 1;
  const visits: string[] = [];
  for (const n of [10, 50]) {
    const batch: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 2 === 1 && visits.length > 0) {
        batch.push({ id: id++, name: 'visit.checkout', hlc: hlc(), args: { id: visits.shift(), checkout: {} } });
      } else {
        const visit = randomUUID();
        visits.push(visit);
        batch.push({
          id: id++,
          name: 'visit.checkin',
          hlc: hlc(),
          args: { visit: { id: visit }, visitor: { name: `V ${i}` } },
        });
      }
    }
    counter.reset();
    const answer = push(ctx, caller, clientId, batch);
    assert.ok(answer.results.every((r) => r.result === 'applied'));
    console.log(testEngine, 'push', n, counter.count, counter.count / n);
    const tally = new Map<string, number>();
    for (const s of counter.log) tally.set(s.slice(0, 90), (tally.get(s.slice(0, 90)) ?? 0) + 1);
    console.log([...tally].sort((a, b) => b[1] - a[1]).slice(0, 40));
  }
  counter.reset();
  const page = changes(ctx, caller, { limit: '20' });
  console.log(testEngine, 'page', page.changes.length, counter.count);
  let cursor = page.cursor;
  for (;;) {
    const next = changes(ctx, caller, { since: cursor, limit: '500' });
    cursor = next.cursor;
    if (!next.hasMore) break;
  }
  counter.reset();
  changes(ctx, caller, { since: cursor, clientId });
  console.log(testEngine, 'idle', counter.count, counter.log);
});
