/**
 * Two hub processes on one PostgreSQL database behind a load balancer, and kiosks that check visitors in and sync
 * through it while one hub process is killed (SIGKILL) and started again: every kiosk converges with the hub, and
 * every check-in exists exactly once there (docs/deployment.md).
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Db, openPostgres } from '../../local-api/store/db.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, startKiosk, syncNow, waitFor } from '../helpers/sync-service.ts';

const kioskCount = 3;
const checkInsPerRound = 4;

let database: string;
let db: Db;
/** The hub processes; hubs[0] is the one killed and started again. */
const hubs: TestService[] = [];
let balancer: FaultProxy;
/** The hub processes the balancer sends requests to, in turn (a dead one stays until its health check fails). */
let backends: string[] = [];
let company: { id: string; apiKey: string };
let hostId: string;
const kiosks: Kiosk[] = [];

function startHub(dataDir: string): Promise<TestService> {
  return startService({ dataDir, env: { PORTARIA_DATABASE: database } });
}

before(async () => {
  if (withoutPostgres) return;
  database = await freshDatabase('two_hubs');
  const [first, second] = [tempDir(), tempDir()];
  hubs.push(await startHub(first));
  // The secrets' key: every hub process of one database holds the same one.
  copyFileSync(join(first, 'device.key'), join(second, 'device.key'));
  hubs.push(await startHub(second));
  const created = await runCli(['company', 'create', '--data', first, '--name', 'Acme'], {
    PORTARIA_DATABASE: database,
  });
  company = JSON.parse(created) as { id: string; apiKey: string };
  backends = hubs.map((hub) => hub.url);
  let turn = 0;
  balancer = await startFaultProxy(hubs[0]?.url ?? '');
  balancer.choose(() => {
    balancer.target = backends[turn++ % backends.length] ?? '';
    return 'pass';
  });
  hostId = (await client(balancer.url, company.apiKey)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' }))
    .body.id;
  for (let i = 0; i < kioskCount; i++) kiosks.push(await startKiosk(balancer.url, company.apiKey));
  db = await openPostgres(database);
});

after(async () => {
  for (const kiosk of kiosks) await kiosk.stop();
  await balancer?.close();
  for (const hub of hubs) await hub.stop();
  await db?.close();
});

const visitId = (kiosk: number, n: number) => `00000000-0000-4000-8${kiosk}00-${String(n).padStart(12, '0')}`;
const visitorName = (kiosk: number, n: number) => `Visitor ${kiosk}-${n}`;

/** Each kiosk checks `checkInsPerRound` walk-ins in and syncs, all at once; answers the names checked in. */
async function checkInRound(round: number): Promise<string[]> {
  const names: string[] = [];
  await Promise.all(
    kiosks.map(async (kiosk, k) => {
      const api = client(kiosk.url, kiosk.apiKey);
      for (let i = 0; i < checkInsPerRound; i++) {
        const n = round * checkInsPerRound + i;
        const reply = await api('POST', '/v1/visits', {
          visit: { id: visitId(k, n), hostId },
          visitor: { name: visitorName(k, n) },
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        names.push(visitorName(k, n));
        // A sync now and then, under way while the next check-ins are made.
        if (i % 2 === 1) void syncNow(kiosk, kiosk.apiKey).catch(() => undefined);
      }
    }),
  );
  return names;
}

const visitIds = async (service: string, apiKey: string) => {
  const reply = await client(service, apiKey)('GET', '/v1/visits?limit=1000');
  assert.equal(reply.status, 200);
  return (reply.body.visits as { id: string }[]).map((visit) => visit.id).sort();
};

test('kiosks behind two hub processes converge, each check-in once, while one process is killed and restarted', {
  skip: withoutPostgres,
  timeout: 180_000,
}, async () => {
  const names = await checkInRound(0);

  // Killed while the kiosks push: their requests to it fail mid-way, the others reach the other process.
  const pushing = checkInRound(1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const killed = hubs[0] as TestService;
  await killed.stop('SIGKILL');
  names.push(...(await pushing));
  // The balancer's health check notices; the kiosks go on through the other process.
  backends = [hubs[1]?.url ?? ''];
  names.push(...(await checkInRound(2)));

  hubs[0] = await startHub(killed.dataDir);
  backends = hubs.map((hub) => hub.url);
  names.push(...(await checkInRound(3)));

  // Every kiosk has pushed everything and pulled what the others pushed.
  const expected = kiosks
    .flatMap((_, k) => Array.from({ length: 4 * checkInsPerRound }, (_, n) => visitId(k, n)))
    .sort();
  let seen = '';
  const converged = waitFor(
    'every kiosk to converge with the hub',
    async () => {
      const states = [];
      for (const kiosk of kiosks) states.push(await syncNow(kiosk, kiosk.apiKey));
      const views = await Promise.all(kiosks.map((kiosk) => visitIds(kiosk.url, kiosk.apiKey)));
      const missing = views.map((ids) => expected.filter((id) => !ids.includes(id)).length);
      seen = JSON.stringify({ states, missing });
      if (states.some((state) => state.state !== 'online' || state.pending !== 0)) return false;
      return views.every((ids) => JSON.stringify(ids) === JSON.stringify(expected));
    },
    60_000,
  );
  await converged.catch((error: Error) =>
    assert.fail(
      `${error.message}: last seen ${seen}; hubs: ${hubs
        .map((h) =>
          h
            .stderr()
            .split('\n')
            .filter((l) => l.includes('"level":50'))
            .slice(0, 2),
        )
        .join('\n')}`,
    ),
  );
  for (const hub of hubs)
    assert.deepEqual(await visitIds(hub.url, company.apiKey), expected, `what ${hub.url} answers`);

  // Exactly once at the hub: one visit and one visitor per check-in, whatever was sent again.
  const count = async (sql: string) =>
    new Map(((await db.prepare(sql).all(company.id)) as { name: string; n: number }[]).map((row) => [row.name, row.n]));
  const visits = await count('SELECT name, COUNT(*) AS n FROM visits WHERE companyId = ? GROUP BY name');
  const visitors = await count('SELECT name, COUNT(*) AS n FROM visitors WHERE companyId = ? GROUP BY name');
  assert.equal(names.length, kioskCount * 4 * checkInsPerRound);
  for (const name of names) {
    assert.equal(visits.get(name), 1, `visits of ${name}`);
    assert.equal(visitors.get(name), 1, `visitors of ${name}`);
  }
  assert.equal(visits.size, names.length, 'no other visit');
});
