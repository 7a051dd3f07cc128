import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { copyDatabase, dropDatabase, engineEnv, postgresServer, testEngine } from '../helpers/postgres.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, logLines, settled, startKiosk } from '../helpers/sync-service.ts';

/*
 * The restore drill (docs/sync.md, "A hub restored from an older backup"): the hub is backed up; kiosk A pushes 20
 * walk-ins and check-outs the hub confirms, and its sibling B pulls them; both go offline with work pending (A a
 * walk-in and a check-out of its own, B check-outs of A's visits and a walk-in); the hub is restored and writes 150
 * hosts, so its feed grows past the kiosks' cursors; the kiosks come back one after the other, in both orders.
 * Every check-in and check-out a kiosk acknowledged ends at the hub and at both kiosks, with no rejection.
 */

let hub: TestService;
const proxies: Record<'A' | 'B', FaultProxy> = {} as never;
const kiosks: Record<'A' | 'B', Kiosk> = {} as never;
let company: { id: string; apiKey: string };
let hostId: string;

/** The hub answers the company's key; a kiosk, the admin key made on it (the hub's key opens nothing there). */
const api = (service: TestService | Kiosk) =>
  client(service.url, 'apiKey' in service ? service.apiKey : company.apiKey);
const lossLine =
  'sync: the hub lost writes it had confirmed (restored from a backup?); sending again the visits this kiosk holds';
/** How each kiosk noticed its hub's losses so far. */
const losses = (name: 'A' | 'B') => logLines(kiosks[name], lossLine).map((line) => line.loss);

before(async () => {
  hub = await startService();
  company = await hub.company('Acme');
  hostId = (await api(hub)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body.id;
  [proxies.A, proxies.B] = await Promise.all([startFaultProxy(hub.url), startFaultProxy(hub.url)]);
  [kiosks.A, kiosks.B] = await Promise.all([
    startKiosk(proxies.A.url, company.apiKey),
    startKiosk(proxies.B.url, company.apiKey),
  ]);
});
after(async () => {
  await Promise.all([kiosks.A?.stop(), kiosks.B?.stop()]);
  await Promise.all([proxies.A?.close(), proxies.B?.close()]);
  await hub?.stop();
});

async function walkIn(kiosk: TestService, name: string): Promise<string> {
  const id = randomUUID();
  const made = await api(kiosk)('POST', '/v1/visits', { visit: { id, hostId }, visitor: { name } });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return id;
}

async function checkOut(kiosk: TestService, id: string): Promise<void> {
  const reply = await api(kiosk)('PATCH', `/v1/visit/checkout/${id}`, {});
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/**
 * The hub's backup, and its restore in place of the database, stopping the hub: with `portaria backup` and
 * `portaria restore` on SQLite; on PostgreSQL with the engine's own copy, the restore into a new database
 * (docs/deployment.md, "Backups").
 */
async function backUpHub(): Promise<() => Promise<void>> {
  if (testEngine === 'sqlite') {
    const backup = join(tempDir(), 'hub-backup.db');
    await runCli(['backup', '--data', hub.dataDir, '--out', backup]);
    return async () => {
      await hub.stop();
      await runCli(['restore', '--data', hub.dataDir, '--from', backup]);
    };
  }
  const server = String(postgresServer);
  const database = new URL(String((await engineEnv(hub.dataDir)).PORTARIA_DATABASE)).pathname.slice(1);
  const backup = `${database}_backup_${Date.now() % 1_000_000}`;
  await hub.stop();
  await copyDatabase(server, database, backup);
  hub = await startService({ dataDir: hub.dataDir });
  return async () => {
    await hub.stop();
    await dropDatabase(server, database);
    await copyDatabase(server, backup, database);
    await dropDatabase(server, backup);
  };
}

type Visit = { id: string; checkoutAt: string | null };
const visitsAt = async (service: TestService) =>
  new Map(
    ((await api(service)('GET', '/v1/visits?limit=1000')).body.visits as Visit[]).map((v) => [v.id, v.checkoutAt]),
  );

for (const order of [
  ['A', 'B'],
  ['B', 'A'],
] as const) {
  test(`a restored hub gets back every acknowledged check-in and check-out (kiosk ${order[0]} returns first)`, async () => {
    for (const kiosk of [kiosks.A, kiosks.B]) await settled(kiosk);
    const noticed = { A: losses('A').length, B: losses('B').length };
    const restore = await backUpHub();
    for (const name of order) proxies[name].target = hub.url;

    // Confirmed by the hub after the backup: A's 20 walk-ins and 2 of their check-outs; B pulls them all.
    const walkIns: string[] = [];
    for (let i = 0; i < 20; i++) walkIns.push(await walkIn(kiosks.A, `Walk-in ${order[0]}${i}`));
    await checkOut(kiosks.A, walkIns[0] as string);
    await checkOut(kiosks.A, walkIns[1] as string);
    await settled(kiosks.A);
    await settled(kiosks.B);

    // Offline with work pending at both.
    for (const proxy of [proxies.A, proxies.B]) proxy.choose(() => 'reset');
    const offlineA = await walkIn(kiosks.A, 'Offline at A');
    await checkOut(kiosks.A, walkIns[2] as string);
    const offlineB = await walkIn(kiosks.B, 'Offline at B');
    for (const id of walkIns.slice(3, 6)) await checkOut(kiosks.B, id);
    // A visit is checked out if either kiosk checked it out.
    const acknowledged = await visitsAt(kiosks.A);
    for (const [id, at] of await visitsAt(kiosks.B)) if (!acknowledged.get(id)) acknowledged.set(id, at);
    for (const id of [offlineA, offlineB, ...walkIns]) assert.ok(acknowledged.has(id));
    const checkedOut = [...acknowledged].filter(([, at]) => at !== null).map(([id]) => id);
    assert.ok(checkedOut.length >= 6);

    await restore();
    hub = await startService({ dataDir: hub.dataDir });
    for (const id of walkIns) assert.equal((await visitsAt(hub)).has(id), false, 'the restore lost the walk-ins');
    for (let i = 0; i < 150; i++) {
      const made = await api(hub)('POST', '/v1/hosts', { name: `Host ${i}`, email: `host${i}-${order[0]}@acme.test` });
      assert.equal(made.status, 200, JSON.stringify(made.body));
    }

    for (const name of order) {
      proxies[name].target = hub.url;
      proxies[name].choose(undefined);
      assert.equal((await settled(kiosks[name])).rejected, 0);
    }
    for (const name of [...order, ...order]) assert.equal((await settled(kiosks[name])).rejected, 0);

    // A's push meets a hub that knows fewer of its mutations than it confirmed; B's, a check-out of a visit the
    // hub never heard of, unless A sent it again first; and the hub's feed is another one for both.
    const signals = { A: losses('A').slice(noticed.A), B: losses('B').slice(noticed.B) };
    assert.deepEqual(signals, order[0] === 'A' ? { A: ['pushes'], B: ['feed'] } : { A: ['pushes'], B: ['row'] });

    const atHub = await visitsAt(hub);
    for (const [id] of acknowledged) assert.ok(atHub.has(id), `visit ${id} is at the hub`);
    for (const id of checkedOut) assert.notEqual(atHub.get(id), null, `visit ${id} is checked out at the hub`);
    assert.equal((await api(hub)('GET', '/v1/sync/rejections')).body.size, 0, 'no rejection at the hub');
    for (const name of order) {
      assert.deepEqual(await visitsAt(kiosks[name]), atHub, `kiosk ${name} holds the hub's visits`);
      const hosts = (await api(kiosks[name])('GET', '/v1/hosts?limit=1000')).body;
      assert.equal(hosts.size ?? hosts.hosts?.length, (await api(hub)('GET', '/v1/hosts?limit=1000')).body.size);
    }
  });
}
