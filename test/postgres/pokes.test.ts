/**
 * Pokes across hub processes on one PostgreSQL database (docs/deployment.md, "Pokes across processes"): a check-in
 * pushed to one process pokes the kiosk subscribed to the other, through the feed's NOTIFY and each process's
 * LISTEN connection; a LISTEN connection the server drops is opened again, and pokes go on.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Db, openPostgres } from '../../local-api/store/db.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, localAdminKey, online, upstreamArgs, waitFor } from '../helpers/sync-service.ts';

let database: string;
let db: Db;
const hubs: TestService[] = [];
const proxies: FaultProxy[] = [];
const kiosks: Kiosk[] = [];
let company: { id: string; apiKey: string };
let hostId: string;

/** A kiosk of one hub process, through a proxy of its own, that syncs by itself only once a minute. */
async function startKiosk(hub: TestService): Promise<{ kiosk: Kiosk; proxy: FaultProxy }> {
  const proxy = await startFaultProxy(hub.url);
  proxies.push(proxy);
  const service = await startService({ args: [...upstreamArgs(proxy.url, company.apiKey), '--sync-interval', '60s'] });
  const kiosk = Object.assign(service, { apiKey: await localAdminKey(service) });
  kiosks.push(kiosk);
  await online(kiosk, kiosk.apiKey);
  await waitFor(
    'the poke stream',
    async () => (await client(kiosk.url, kiosk.apiKey)('GET', '/v1/sync/status')).body.subscribed === true,
  );
  return { kiosk, proxy };
}

const visitIds = async (kiosk: Kiosk): Promise<string[]> => {
  const reply = await client(kiosk.url, kiosk.apiKey)('GET', '/v1/visits?limit=1000');
  assert.equal(reply.status, 200);
  return (reply.body.visits as { id: string }[]).map((visit) => visit.id);
};

async function checkIn(kiosk: Kiosk, id: string): Promise<void> {
  const reply = await client(kiosk.url, kiosk.apiKey)('POST', '/v1/visits', {
    visit: { id, hostId },
    visitor: { name: `Visitor ${id.slice(-4)}` },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

before(async () => {
  if (withoutPostgres) return;
  database = await freshDatabase('pokes');
  const [first, second] = [tempDir(), tempDir()];
  hubs.push(await startService({ dataDir: first, database }));
  copyFileSync(join(first, 'device.key'), join(second, 'device.key'));
  hubs.push(await startService({ dataDir: second, database }));
  company = JSON.parse(
    await runCli(['company', 'create', '--data', first, '--name', 'Acme'], { PORTARIA_DATABASE: database }),
  );
  const hub = client(hubs[0]?.url ?? '', company.apiKey);
  hostId = (await hub('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body.id;
  db = await openPostgres(database);
});

after(async () => {
  for (const kiosk of kiosks) await kiosk.stop();
  for (const proxy of proxies) await proxy.close();
  for (const hub of hubs) await hub.stop();
  await db?.close();
});

test('a check-in pushed to one hub process pokes the kiosk subscribed to the other, also after its LISTEN drops', {
  skip: withoutPostgres,
  timeout: 180_000,
}, async () => {
  const [one, two] = hubs as [TestService, TestService];
  const a = await startKiosk(one);
  const b = await startKiosk(two);

  const first = '00000000-0000-4000-8000-0000000b0001';
  await checkIn(a.kiosk, first);
  await waitFor('the check-in at the kiosk of the other process', async () =>
    (await visitIds(b.kiosk)).includes(first),
  );
  assert.ok(
    a.proxy.log.some((e) => e.path === '/v1/sync/push'),
    'pushed to the first process',
  );
  assert.ok(!b.proxy.log.some((e) => e.path === '/v1/sync/push'), 'the second process applied nothing itself');

  // The server ends every process's LISTEN connection; each opens one again and misses nothing after.
  const listening = async () =>
    Number(
      await db.prepare("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'portaria-pokes'").pluck().get(),
    );
  assert.equal(await listening(), 2);
  await db
    .prepare("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'portaria-pokes'")
    .all();
  await waitFor('both processes to LISTEN again', async () => (await listening()) === 2, 30_000);

  const second = '00000000-0000-4000-8000-0000000b0002';
  await checkIn(a.kiosk, second);
  await waitFor('the next check-in at the other kiosk', async () => (await visitIds(b.kiosk)).includes(second));
});
