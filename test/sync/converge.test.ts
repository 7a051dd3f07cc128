import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { type Kiosk, startKiosk, syncNow } from '../helpers/sync-service.ts';

let hub: TestService;
let company: { id: string; apiKey: string };
const kiosks: { service: Kiosk; proxy: FaultProxy }[] = [];

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);

/** What the front desk sees at a service: its visits, invitees and hosts. */
async function view(service: TestService, apiKey: string) {
  const api = client(service.url, apiKey);
  const [visits, invitees, hosts] = await Promise.all(
    ['/v1/visits?limit=1000', '/v1/invitees?limit=1000', '/v1/hosts?limit=1000'].map((path) => api('GET', path)),
  );
  return {
    visits: visits?.body.visits.sort(byId),
    invitees: invitees?.body.invitees.sort(byId),
    hosts: hosts?.body.hosts.sort(byId),
  };
}

/** Each kiosk syncs, twice round: what one pushed reaches the other through the hub. */
async function syncAll(): Promise<void> {
  for (let round = 0; round < 2; round++) {
    for (const { service } of kiosks) {
      const status = await syncNow(service, service.apiKey);
      assert.deepEqual([status.state, status.pending, status.rejected], ['online', 0, 0]);
    }
  }
}

before(async () => {
  hub = await startService();
  company = await hub.company('Acme');
  for (let i = 0; i < 2; i++) {
    const proxy = await startFaultProxy(hub.url);
    kiosks.push({ service: await startKiosk(proxy.url, company.apiKey), proxy });
  }
});
after(async () => {
  for (const { service, proxy } of kiosks) {
    await service.stop();
    await proxy.close();
  }
  await hub.stop();
});

test('two kiosks of one company, writing at once and offline, converge with their hub', async () => {
  const atHub = client(hub.url, company.apiKey);
  const host = (await atHub('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body;
  const guest = (
    await atHub('POST', '/v1/invitees', {
      name: 'Guest',
      email: 'guest@x.test',
      hostId: host.id,
      expectedAt: 1_800_000_000,
    })
  ).body;
  await syncAll();
  const [one, two] = kiosks.map((k) => client(k.service.url, k.service.apiKey));
  assert.ok(one && two);

  // Online, at once: walk-ins at both kiosks while each also syncs.
  await Promise.all([
    ...Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? one : two)('POST', '/v1/visits', {
        visit: { id: visitId(i + 1), hostId: host.id },
        visitor: { name: `Busy ${i}` },
      }),
    ),
    ...kiosks.map(({ service }) => syncNow(service, service.apiKey)),
  ]);

  // Offline, both: each checks in a walk-in, and both check the same invitee in.
  for (const { proxy } of kiosks) proxy.set('reset');
  assert.equal(
    (await one('POST', '/v1/visits', { visit: { id: visitId(101) }, visitor: { name: 'Walk A' } })).status,
    200,
  );
  assert.equal(
    (await two('POST', '/v1/visits', { visit: { id: visitId(102) }, visitor: { name: 'Walk B' } })).status,
    200,
  );
  const entryOne = (await one('POST', `/v1/visit/inviteeCheckin/${guest.id}`, {})).body;
  const entryTwo = (await two('POST', `/v1/visit/inviteeCheckin/${guest.id}`, {})).body;
  assert.equal((await one('PATCH', `/v1/visit/allow/${visitId(101)}`, {})).status, 200);

  for (const { proxy } of kiosks) proxy.set('pass');
  await syncAll();
  // Now each sees the other's walk-in: kiosk two denies A after kiosk one allowed it; kiosk one checks B out.
  assert.equal((await two('PATCH', `/v1/visit/deny/${visitId(101)}`, {})).status, 200);
  assert.equal((await one('PATCH', `/v1/visit/checkout/${visitId(102)}`, {})).status, 200);
  assert.equal((await two('PATCH', `/v1/visit/checkout/${entryTwo.id}`, {})).status, 200);
  await syncAll();

  const atTheHub = await view(hub, company.apiKey);
  const [atOne, atTwo] = await Promise.all(kiosks.map((k) => view(k.service, k.service.apiKey)));
  assert.deepEqual(atOne, atTheHub);
  assert.deepEqual(atTwo, atTheHub);
  const visit = (id: string) => atTheHub.visits.find((v: { id: string }) => v.id === id);
  assert.equal(atTheHub.visits.length, 14);
  assert.equal(visit(visitId(101)).authorizationStatus, 'denied', 'the later decision holds');
  assert.notEqual(visit(visitId(102)).checkoutAt, null);
  // Whichever kiosk's entry reached the hub second is flagged (their retries race once the network is back).
  assert.deepEqual(
    new Set([visit(entryOne.id).statusNote, visit(entryTwo.id).statusNote]),
    new Set([null, 'ALREADY_INSIDE']),
  );
  assert.notEqual(visit(entryTwo.id).checkoutAt, null);
});
