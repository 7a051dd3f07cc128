import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, logLines, settled, startKiosk, syncNow } from '../helpers/sync-service.ts';

/*
 * A hub restored from an older backup forgets what happened after it; its kiosks still hold those visits and send
 * them again. Kiosk A pulled after its pushes; kiosk B could not pull after the backup (its cursor would still be a
 * position in the restored feed): the restore gives the feed a new identity, so both see it start over.
 */

let hub: TestService;
let proxyA: FaultProxy;
let proxyB: FaultProxy;
let kioskA: Kiosk;
let kioskB: Kiosk;
let company: { id: string; apiKey: string };

/** The hub answers its company's key; a kiosk, a key of its own. */
const api = (service: TestService | Kiosk) =>
  client(service.url, 'apiKey' in service ? service.apiKey : company.apiKey);
const lossLine =
  'sync: the hub lost writes it had confirmed (restored from a backup?); sending again the visits this kiosk holds';

before(async () => {
  hub = await startService();
  company = await hub.company('Acme');
  [proxyA, proxyB] = await Promise.all([startFaultProxy(hub.url), startFaultProxy(hub.url)]);
  [kioskA, kioskB] = await Promise.all([
    startKiosk(proxyA.url, company.apiKey),
    startKiosk(proxyB.url, company.apiKey),
  ]);
});
after(async () => {
  await Promise.all([kioskA?.stop(), kioskB?.stop()]);
  await Promise.all([proxyA?.close(), proxyB?.close()]);
  await hub?.stop();
});

async function walkIn(service: TestService, name: string, hostId?: string): Promise<string> {
  const id = randomUUID();
  const made = await api(service)('POST', '/v1/visits', { visit: { id, hostId }, visitor: { name } });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return id;
}

test('a hub restored from an older backup gets back every visit its kiosks hold', async () => {
  const ana = (await api(hub)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body;
  await Promise.all([settled(kioskA), settled(kioskB)]);
  const before = await walkIn(kioskA, 'Before Backup', ana.id);
  const beforeB = await walkIn(kioskB, 'B Before Backup', ana.id);
  await settled(kioskA);
  await settled(kioskB);
  await settled(kioskA);

  const backup = join(tempDir(), 'hub-backup.db');
  await runCli(['backup', '--data', hub.dataDir, '--out', backup]);
  // From here on kiosk B pushes but cannot pull: it learns nothing of what the hub does after the backup.
  proxyB.choose((req) => (req.url?.startsWith('/v1/sync/changes') ? 'reset' : 'pass'));

  const late = (
    await api(hub)('POST', '/v1/invitees', {
      name: 'Late Invitee',
      email: 'late@guest.test',
      hostId: ana.id,
      expectedAt: 1_800_000_000,
    })
  ).body;
  const atHubDesk = await walkIn(hub, 'Hub Desk After', ana.id);
  await settled(kioskA);
  const afterA = [await walkIn(kioskA, 'A After 1', ana.id), await walkIn(kioskA, 'A After 2')];
  const lateVisit = (await api(kioskA)('POST', `/v1/visit/inviteeCheckin/${late.id}`, { id: randomUUID() })).body;
  assert.equal((await api(kioskA)('PATCH', `/v1/visit/checkout/${before}`, {})).status, 200);
  assert.equal((await api(kioskA)('PATCH', `/v1/visit/allow/${afterA[0]}`, {})).status, 200);
  await settled(kioskA);
  const afterB = [await walkIn(kioskB, 'B After 1'), await walkIn(kioskB, 'B After 2')];
  assert.equal((await api(kioskB)('PATCH', `/v1/visit/checkout/${beforeB}`, {})).status, 200);
  const pushedB = await syncNow(kioskB, kioskB.apiKey);
  assert.deepEqual([pushedB.pending, pushedB.state], [0, 'offline'], 'pushed, then failed to pull');
  const all = [before, beforeB, atHubDesk, ...afterA, lateVisit.id, ...afterB];
  const atHub = async () => (await api(hub)('GET', '/v1/visits?limit=1000')).body.visits as Record<string, unknown>[];
  assert.equal((await atHub()).length, all.length);
  const expected = new Map((await atHub()).map((v) => [v.id, v]));

  await hub.stop();
  await runCli(['restore', '--data', hub.dataDir, '--from', backup]);
  hub = await startService({ dataDir: hub.dataDir });
  proxyA.target = hub.url;
  proxyB.target = hub.url;
  assert.equal((await atHub()).length, 2, 'the backup holds the two visits made before it');

  proxyB.choose(undefined);
  for (const kiosk of [kioskA, kioskB, kioskA, kioskB]) assert.equal((await settled(kiosk)).rejected, 0);

  const restored = new Map((await atHub()).map((v) => [v.id, v]));
  assert.deepEqual([...restored.keys()].sort(), [...all].sort(), 'every visit is at the hub again');
  for (const id of all) {
    const was = expected.get(id) as Record<string, unknown>;
    const now = restored.get(id) as Record<string, unknown>;
    const fields = ['name', 'hostId', 'checkinAt', 'checkoutAt', 'isInsideCompany', 'cardNumber'];
    if (id !== lateVisit.id) fields.push('authorizationStatus', 'inviteeId', 'statusNote');
    for (const field of fields) assert.deepEqual(now[field], was[field], `${was.name}: ${field}`);
  }
  // The invitation was made after the backup: the hub lost it, and records its guest's visit flagged for review.
  const guest = restored.get(lateVisit.id) as Record<string, unknown>;
  assert.deepEqual(
    [guest.name, guest.inviteeId, guest.statusNote, guest.authorizationStatus],
    ['Late Invitee', null, 'INVITEE_NOT_FOUND', 'waiting'],
  );
  assert.equal((await api(hub)('GET', '/v1/sync/rejections')).body.size, 0);
  assert.deepEqual(
    [logLines(kioskA, lossLine)[0]?.loss, logLines(kioskB, lossLine)[0]?.loss],
    ['feed', 'feed'],
    'each kiosk noticed the loss',
  );

  // The kiosks mirror the restored hub again.
  for (const kiosk of [kioskA, kioskB]) {
    await settled(kiosk);
    const held = (await api(kiosk)('GET', '/v1/visits?limit=1000')).body.visits as { id: string }[];
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    assert.deepEqual(held.sort(byId), [...restored.values()].sort(byId as never));
  }
});
