/**
 * What the hub's sync endpoints cost its database, in statements (test/helpers/statements.ts), on the engine the
 * suite runs against (SQLite; PostgreSQL under test/helpers/with-postgres.ts): per pushed mutation, per page of the
 * feed, per idle poll, and a new kiosk's first sync, which must not grow with the company's history. The requests
 * are the endpoints' own handlers, called as the router calls them; the kiosk is one in this process.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { eventListeners, writeRules } from '../../local-api/app.ts';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { validate } from '../../local-api/http/fields.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee } from '../../local-api/invitees/store.ts';
import { openService } from '../../local-api/server.ts';
import { applyPulledPage } from '../../local-api/sync/apply.ts';
import { acknowledge, pendingBatch } from '../../local-api/sync/outbox.ts';
import { syncRoutes } from '../../local-api/sync/routes.ts';
import { changesPage, pushAnswer } from '../../local-api/sync/schema.ts';
import { configureUpstream, syncState } from '../../local-api/sync/state.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import { checkinWalkIn, checkoutVisit } from '../../local-api/visits/store.ts';
import { manualClock } from '../helpers/context.ts';
import { freshDatabase, testEngine } from '../helpers/postgres.ts';
import { removeDir, tempDir } from '../helpers/service.ts';
import { countStatements } from '../helpers/statements.ts';
import { callerOf, kioskAdminOf, syncedContext } from '../helpers/sync.ts';

const opened: Context[] = [];
after(async () => {
  for (const ctx of opened) {
    await ctx.db.close();
    removeDir(ctx.dataDir);
  }
});

const day = 86_400_000;

/** A hub as `portaria serve` assembles it (its rules and every listener), on the suite's engine, with a company. */
async function hubOf(clock: ReturnType<typeof manualClock>) {
  const ctx = await openService({
    dataDir: tempDir(),
    clock,
    logLevel: 'silent',
    ...(testEngine === 'postgres' ? { database: await freshDatabase('sync_cost') } : {}),
  });
  opened.push(ctx);
  for (const rule of writeRules(ctx)) ctx.events.addRule(rule);
  for (const listener of eventListeners(ctx)) ctx.events.subscribe(listener);
  const company = await createCompany(ctx, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const caller = await callerOf(ctx, company.apiKey);
  return { ctx, caller, apiKey: company.apiKey, counter: countStatements(ctx) };
}

type Hub = Awaited<ReturnType<typeof hubOf>>;

function handler(ctx: Context, method: string, path: string) {
  const spec = syncRoutes(ctx).find((r) => r.method === method && r.path === path);
  if (!spec) throw new Error(`no ${method} ${path}`);
  return spec.handle;
}

/** GET /v1/sync/changes as the kiosk asks it, and the statements it cost the hub. */
async function changes(hub: Hub, query: { since?: string | null; limit?: number; clientId?: string }) {
  const { since, limit, clientId } = query;
  const req = {
    query: {
      ...(since ? { since } : {}),
      ...(limit ? { limit: String(limit) } : {}),
      ...(clientId ? { clientId } : {}),
    },
  };
  hub.counter.reset();
  const page = changesPage.parse(await handler(hub.ctx, 'get', '/sync/changes')({ caller: hub.caller, req } as never));
  return { page, statements: hub.counter.count };
}

/** A kiosk following the hub: its pulls and pushes go through the hub's handlers. */
async function kioskOf(hub: Hub, seed: number) {
  const ctx = await syncedContext(manualClock(), seed);
  opened.push(ctx);
  await configureUpstream(ctx, { url: 'http://hub.test', apiKey: hub.apiKey });
  const pull = async (limit = 500) => {
    const pages: { rows: number; statements: number }[] = [];
    for (;;) {
      const { cursor, clientId } = await syncState(ctx);
      const { page, statements } = await changes(hub, { since: cursor, limit, clientId });
      pages.push({ rows: page.changes.length, statements });
      await applyPulledPage(ctx, page);
      if (!page.hasMore) return pages;
    }
  };
  const push = async () => {
    const { companyId, clientId, confirmedMutationId } = await syncState(ctx);
    const batch = await pendingBatch(ctx, String(companyId));
    const body = { clientId, confirmedMutationId, resent: false, mutations: batch };
    hub.counter.reset();
    const answer = pushAnswer.parse(
      await handler(hub.ctx, 'post', '/sync/push')({ caller: hub.caller, body } as never),
    );
    const statements = hub.counter.count;
    await acknowledge(ctx, String(companyId), answer.lastMutationId);
    return { batch, answer, statements };
  };
  return { ctx, pull, push };
}

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const walkIn = (n: number, name: string) =>
  validate(visitCreateInput, { visit: { id: visitId(n) }, visitor: { name } });

const sum = (pages: { rows: number; statements: number }[], key: 'rows' | 'statements') =>
  pages.reduce((total, page) => total + page[key], 0);

test('a batch of walk-ins and check-outs costs the hub at most 4 statements a mutation, a batch sent again a few', async (t) => {
  const hub = await hubOf(manualClock());
  const kiosk = await kioskOf(hub, 11);
  await kiosk.pull();
  const caller = await kioskAdminOf(kiosk.ctx, hub.caller.companyId);
  for (let n = 1; n <= 50; n++) await checkinWalkIn(kiosk.ctx, caller, walkIn(n, `Early ${n}`));
  const warm = await kiosk.push();
  assert.equal(warm.answer.lastMutationId, warm.batch.at(-1)?.id);
  // Half the batch checks out visitors the hub has, half checks new ones in.
  for (let n = 1; n <= 50; n++) {
    await checkoutVisit(kiosk.ctx, caller, visitId(n), {});
    await checkinWalkIn(kiosk.ctx, caller, walkIn(100 + n, `Later ${n}`));
  }
  const { batch, answer, statements } = await kiosk.push();
  assert.equal(batch.length, 100);
  assert.ok(answer.results.every((r) => r.result === 'applied'));
  t.diagnostic(`${testEngine}: ${statements} statements for ${batch.length} mutations`);
  assert.ok(statements <= 4 * batch.length, `${statements} statements for ${batch.length} mutations`);
  // The hub's version of every row of the batch reaches the kiosk: the batch's writes moved them in the feed.
  assert.equal(sum(await kiosk.pull(), 'rows'), 100);

  // The same batch again (its answer lost): duplicates, each row moved to the end of the feed again, set-based.
  const again = pushAnswer.parse(
    await handler(
      hub.ctx,
      'post',
      '/sync/push',
    )({
      caller: hub.caller,
      body: { clientId: (await syncState(kiosk.ctx)).clientId, mutations: batch },
    } as never),
  );
  assert.ok(again.results.every((r) => r.result === 'duplicate'));
  hub.counter.reset();
  await handler(
    hub.ctx,
    'post',
    '/sync/push',
  )({
    caller: hub.caller,
    body: { clientId: (await syncState(kiosk.ctx)).clientId, mutations: batch },
  } as never);
  t.diagnostic(`${testEngine}: ${hub.counter.count} statements for ${batch.length} duplicates`);
  assert.ok(hub.counter.count <= 10, `${hub.counter.count} statements for a batch of duplicates`);
  assert.equal(sum(await kiosk.pull(), 'rows'), 100, 'each row of the batch is sent again');
});

test('a page of the feed costs at most 3 statements, an idle poll at most 2', async (t) => {
  const hub = await hubOf(manualClock());
  const kiosk = await kioskOf(hub, 12);
  await kiosk.pull();
  const host = await createHost(
    hub.ctx,
    hub.caller,
    validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }),
  );
  for (let n = 1; n <= 300; n++) {
    await checkinWalkIn(hub.ctx, hub.caller, walkIn(n, `Visitor ${n}`));
    await createInvitee(
      hub.ctx,
      hub.caller,
      validate(inviteeCreateInput, {
        name: `Guest ${n}`,
        email: `guest${n}@x.test`,
        hostId: host.id,
        expectedAt: 1_800_000_000,
      }),
    );
  }
  const pages = await kiosk.pull(250);
  assert.equal(sum(pages, 'rows'), 601);
  assert.equal(pages.length, 3);
  t.diagnostic(
    `${testEngine}: pages of ${pages.map((p) => `${p.rows} rows in ${p.statements} statements`).join(', ')}`,
  );
  for (const page of pages) assert.ok(page.statements <= 3, `${page.statements} statements for a page`);
  const idle = await changes(hub, {
    since: (await syncState(kiosk.ctx)).cursor,
    clientId: (await syncState(kiosk.ctx)).clientId,
  });
  assert.equal(idle.page.changes.length, 0);
  t.diagnostic(`${testEngine}: an idle poll in ${idle.statements} statements`);
  assert.ok(idle.statements <= 2, `${idle.statements} statements for an idle poll`);
});

test("a new kiosk's first sync is a snapshot of what it needs: its cost does not grow with the company's history", async (t) => {
  const clock = manualClock();
  const hub = await hubOf(clock);
  const ana = await createHost(hub.ctx, hub.caller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  const expected = (at: number) =>
    validate(inviteeCreateInput, {
      name: 'Guest',
      email: 'guest@x.test',
      hostId: ana.id,
      expectedAt: new Date(at).toISOString(),
    });
  // The company's past: visits closed and invitations expected 30 days ago, and one visitor still inside since.
  clock.set(Date.UTC(2026, 9, 1, 12));
  await checkinWalkIn(hub.ctx, hub.caller, walkIn(1, 'Inside for a month'));
  await createInvitee(hub.ctx, hub.caller, expected(clock.now()));
  const history = async (from: number, count: number) => {
    for (let n = from; n < from + count; n++) {
      await checkinWalkIn(hub.ctx, hub.caller, walkIn(n, `Past ${n}`));
      await checkoutVisit(hub.ctx, hub.caller, visitId(n), {});
    }
  };
  await history(1000, 20);
  // Today: visitors in and out, and invitations expected today and next week.
  clock.set(Date.UTC(2026, 10, 22, 12));
  for (let n = 2; n <= 21; n++) await checkinWalkIn(hub.ctx, hub.caller, walkIn(n, `Today ${n}`));
  for (let n = 2; n <= 11; n++) await checkoutVisit(hub.ctx, hub.caller, visitId(n), {});
  await createInvitee(hub.ctx, hub.caller, expected(clock.now() + 3_600_000));
  await createInvitee(hub.ctx, hub.caller, expected(clock.now() + 7 * day));

  const firstSync = async (seed: number) => {
    const kiosk = await kioskOf(hub, seed);
    const pages = await kiosk.pull(10);
    const names = (await kiosk.ctx.db.prepare('SELECT name FROM visits ORDER BY name').pluck().all()) as string[];
    return { pages, names, rows: sum(pages, 'rows'), statements: sum(pages, 'statements') };
  };
  await firstSync(20);
  const before = await firstSync(21);
  // The company, its host, 21 visits (today's and the one still inside), 2 invitations (today's and next week's).
  assert.equal(before.rows, 1 + 1 + 21 + 2);
  assert.ok(before.names.includes('Inside for a month'));
  assert.ok(!before.names.some((name) => name.startsWith('Past')), 'closed visits of last month stay at the hub');
  for (const page of before.pages) assert.ok(page.statements <= 3, `${page.statements} statements for a page`);

  // Ten times the history: the same snapshot, at the same cost.
  clock.set(Date.UTC(2026, 9, 2, 12));
  await history(2000, 200);
  clock.set(Date.UTC(2026, 10, 22, 12, 30));
  const afterHistory = await firstSync(22);
  t.diagnostic(
    `${testEngine}: first sync ${before.rows} rows in ${before.pages.length} pages, ${before.statements} statements`,
  );
  assert.deepEqual(
    [afterHistory.rows, afterHistory.pages.length, afterHistory.statements, afterHistory.names],
    [before.rows, before.pages.length, before.statements, before.names],
  );
});

test("the hub's clock is written once in a while, not by every push, and never goes back across a restart", async () => {
  const clock = manualClock();
  const database = testEngine === 'postgres' ? await freshDatabase('sync_clock') : undefined;
  const dataDir = tempDir();
  const open = async () => {
    const ctx = await openService({ dataDir, clock, logLevel: 'silent', ...(database ? { database } : {}) });
    for (const rule of writeRules(ctx)) ctx.events.addRule(rule);
    for (const listener of eventListeners(ctx)) ctx.events.subscribe(listener);
    return ctx;
  };
  const first = await open();
  const company = await createCompany(first, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const hub: Hub = {
    ctx: first,
    caller: await callerOf(first, company.apiKey),
    apiKey: company.apiKey,
    counter: countStatements(first),
  };
  const kiosk = await kioskOf(hub, 30);
  await kiosk.pull();
  const caller = await kioskAdminOf(kiosk.ctx, hub.caller.companyId);
  const clockWrites: number[] = [];
  let answered = '';
  for (let n = 1; n <= 20; n++) {
    await checkinWalkIn(kiosk.ctx, caller, walkIn(n, `Visitor ${n}`));
    const { answer } = await kiosk.push();
    assert.ok(answer.hlc > answered, 'each answer carries a later clock');
    answered = answer.hlc;
    clockWrites.push(hub.counter.log.filter((sql) => sql.startsWith('UPDATE sync_state SET hlc')).length);
    clock.advance(100);
  }
  assert.ok(
    clockWrites.reduce((a, b) => a + b, 0) <= 1,
    `20 pushes over 2 s wrote the stored clock ${clockWrites.join(', ')} times`,
  );
  await first.db.close();
  // The machine's clock goes back an hour; the hub's does not.
  clock.advance(-3_600_000);
  const again = await open();
  opened.push(again);
  const restarted = (await handler(
    again,
    'get',
    '/sync/changes',
  )({
    caller: hub.caller,
    req: { query: {} },
  } as never)) as { hlc: string };
  assert.ok(restarted.hlc > answered, `${restarted.hlc} after ${answered}`);
});
