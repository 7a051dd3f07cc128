import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Fault, FaultProxy } from '../helpers/fault-proxy.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, logLines, restartKiosk, startHubAndKiosk, syncNow, waitFor } from '../helpers/sync-service.ts';

let hub: TestService;
let proxy: FaultProxy;
let kiosk: Kiosk;
let company: { id: string; apiKey: string };

const atHub = () => client(hub.url, company.apiKey);
const atKiosk = () => client(kiosk.url, kiosk.apiKey);
const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function hubVisitsNamed(name: string) {
  const query = new URLSearchParams({ queryKey: 'name', queryOp: '==', queryValue: name });
  return (await atHub()('GET', `/v1/visits?${query}`)).body.visits as Record<string, unknown>[];
}

async function hubClient() {
  const status = await atHub()('GET', '/v1/sync/status');
  return status.body.clients[0] as { applied: number; duplicates: number; lastMutationId: number };
}

before(async () => {
  ({ hub, company, proxy, kiosk } = await startHubAndKiosk());
});
after(async () => {
  await kiosk.stop();
  await proxy.close();
  await hub.stop();
});

test('a check-in made while the hub is down reaches it exactly once, through a kill, a hub restart, a lost answer', async () => {
  proxy.set('reset');
  const checkin = await atKiosk()('POST', '/v1/visits', {
    visit: { id: visitId(1) },
    visitor: { name: 'Offline One' },
  });
  assert.equal(checkin.status, 200, 'the kiosk answers from its own database');
  for (let i = 0; i < 3; i++) {
    const status = await syncNow(kiosk, kiosk.apiKey);
    assert.deepEqual([status.state, status.pending], ['offline', 1]);
    assert.match(status.lastError, /^hub unreachable/);
  }
  assert.equal(logLines(kiosk, 'sync offline').length, 1, 'one line when going offline, none per retry');

  // The hub receives the push and applies it; its answer is withheld; the kiosk is killed meanwhile.
  proxy.set('hold');
  const pushing = syncNow(kiosk, kiosk.apiKey).catch(() => undefined);
  await proxy.held();
  await kiosk.stop('SIGKILL');
  await pushing;
  assert.equal((await hubVisitsNamed('Offline One')).length, 1);

  // The hub restarts (killed too), on another port.
  await hub.stop('SIGKILL');
  hub = await startService({ dataDir: hub.dataDir });
  proxy.target = hub.url;

  // The kiosk comes back with its outbox; the first answer it gets from the hub is lost again.
  proxy.set('pass');
  proxy.queue('drop-response');
  kiosk = await restartKiosk(kiosk, proxy.url, company.apiKey);
  const settled = await waitFor('the kiosk to empty its outbox', async () => {
    const status = await syncNow(kiosk, kiosk.apiKey);
    return status.state === 'online' && status.pending === 0 && status;
  });
  assert.equal(settled.rejected, 0);
  assert.equal((await hubVisitsNamed('Offline One')).length, 1);
  const pushes = proxy.log.filter((r) => r.path === '/v1/sync/push').map((r) => r.fault);
  assert.ok(pushes.indexOf('hold') < pushes.indexOf('drop-response'), `pushes met: ${pushes}`);
  const counts = await hubClient();
  assert.equal(counts.applied, 1, 'applied once');
  assert.ok(counts.duplicates >= 2, `the batches sent again were recognised (${counts.duplicates})`);
  const atBoth = await Promise.all([
    atHub()('GET', `/v1/visit/${visitId(1)}`),
    atKiosk()('GET', `/v1/visit/${visitId(1)}`),
  ]);
  assert.deepEqual(atBoth[1].body, atBoth[0].body);
});

test('check-ins and check-outs through a flapping network arrive once each, in order', async () => {
  const before = await hubClient();
  const seen = proxy.log.length;
  let n = 0;
  const faults: Fault[] = ['pass', 'reset', 'drop-response', { status: 503 }, { status: 502 }, { delayMs: 100 }];
  // A fixed cycle through every fault: the run is the same each time.
  proxy.choose(() => faults[n++ % faults.length] ?? 'pass');
  const api = atKiosk();
  for (let i = 0; i < 20; i++) {
    const id = visitId(100 + i);
    assert.equal((await api('POST', '/v1/visits', { visit: { id }, visitor: { name: `Flap ${i}` } })).status, 200);
    if (i % 2 === 0) assert.equal((await api('PATCH', `/v1/visit/checkout/${id}`, {})).status, 200);
  }
  await waitFor('the outbox to drain through the faults', async () => {
    const status = await syncNow(kiosk, kiosk.apiKey);
    return status.pending === 0 && status.state === 'online';
  });
  proxy.choose(undefined);
  await syncNow(kiosk, kiosk.apiKey);
  const met = new Set(proxy.log.slice(seen).map((r) => r.fault));
  assert.equal(met.size, faults.length, `every fault was met: ${[...met]}`);
  const after = await hubClient();
  assert.equal(after.applied - before.applied, 30);
  for (let i = 0; i < 20; i++) {
    const visits = await hubVisitsNamed(`Flap ${i}`);
    assert.equal(visits.length, 1, `Flap ${i}`);
    assert.equal(visits[0]?.checkoutAt !== null, i % 2 === 0, `Flap ${i} checked out`);
  }
  const kioskVisits = (await atKiosk()('GET', '/v1/visits?limit=1000')).body.visits;
  const hubVisits = (await atHub()('GET', '/v1/visits?limit=1000')).body.visits;
  const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
  assert.deepEqual(kioskVisits.sort(byId), hubVisits.sort(byId));
});

test('a kiosk restored from a backup goes on as a new client: its new check-ins are not taken for retries', async () => {
  const backupFile = join(tempDir(), 'kiosk-backup.db');
  await runCli(['backup', '--data', kiosk.dataDir, '--out', backupFile]);
  const api = atKiosk();
  for (const [n, name] of [
    [201, 'After Backup A'],
    [202, 'After Backup B'],
  ] as const) {
    assert.equal((await api('POST', '/v1/visits', { visit: { id: visitId(n) }, visitor: { name } })).status, 200);
  }
  assert.equal((await syncNow(kiosk, kiosk.apiKey)).pending, 0);
  await kiosk.stop();
  await runCli(['restore', '--data', kiosk.dataDir, '--from', backupFile]);
  kiosk = await restartKiosk(kiosk, proxy.url, company.apiKey);
  // The restored outbox numbers this check-in as the hub has already seen; it must still arrive.
  const restored = atKiosk();
  const made = await restored('POST', '/v1/visits', {
    visit: { id: visitId(203) },
    visitor: { name: 'After Restore' },
  });
  assert.equal(made.status, 200);
  const status = await waitFor('the restored kiosk to push', async () => {
    const s = await syncNow(kiosk, kiosk.apiKey);
    return s.state === 'online' && s.pending === 0 && s;
  });
  for (const name of ['After Backup A', 'After Backup B', 'After Restore']) {
    assert.equal((await hubVisitsNamed(name)).length, 1, name);
  }
  assert.equal(
    logLines(kiosk, 'sync: mutation ids out of step with the hub (a database restored from a backup); new client id')
      .length,
    1,
  );
  assert.equal(status.rejected, 0);
});
