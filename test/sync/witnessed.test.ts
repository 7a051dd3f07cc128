import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { type Kiosk, startKiosk, syncNow, waitFor } from '../helpers/sync-service.ts';

/*
 * A person who checked in is never lost: a check-in a kiosk made offline reaches the hub even when the hub deleted
 * meanwhile the host it names or the invitation it used. The hub records it flagged for review; the kiosk keeps it.
 */

let hub: TestService;
let proxy: FaultProxy;
let kiosk: Kiosk;
let company: { id: string; apiKey: string };
let atHub: ReturnType<typeof client>;
let atKiosk: ReturnType<typeof client>;

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

before(async () => {
  hub = await startService();
  company = await hub.company('Acme');
  atHub = client(hub.url, company.apiKey);
  proxy = await startFaultProxy(hub.url);
  kiosk = await startKiosk(proxy.url, company.apiKey);
  atKiosk = client(kiosk.url, kiosk.apiKey);
});
after(async () => {
  await kiosk.stop();
  await proxy.close();
  await hub.stop();
});

test('check-ins for a host and an invitation deleted at the hub meanwhile are recorded there, flagged', async () => {
  const host = async (name: string) =>
    (await atHub('POST', '/v1/hosts', { name, email: `${name.toLowerCase()}@acme.test` })).body;
  const ana = await host('Ana');
  const bruno = await host('Bruno');
  const guest = (
    await atHub('POST', '/v1/invitees', {
      name: 'Gina Guest',
      email: 'gina@guest.test',
      hostId: ana.id,
      expectedAt: 1_800_000_000,
    })
  ).body;
  await syncNow(kiosk, kiosk.apiKey);

  proxy.set('reset');
  const walkIn = await atKiosk('POST', '/v1/visits', {
    visit: { id: visitId(1), hostId: bruno.id },
    visitor: { name: 'Walter Walk-In', email: 'walter@visitor.test' },
  });
  assert.equal(walkIn.status, 200);
  const invited = await atKiosk('POST', `/v1/visit/inviteeCheckin/${guest.id}`, { id: visitId(2) });
  assert.equal(invited.status, 200);
  assert.equal((await atHub('DELETE', `/v1/host/${bruno.id}`)).status, 200);
  assert.equal((await atHub('DELETE', `/v1/invitee/${guest.id}`)).status, 200);

  proxy.set('pass');
  const status = await waitFor('the kiosk to push both check-ins', async () => {
    const s = await syncNow(kiosk, kiosk.apiKey);
    return s.state === 'online' && s.pending === 0 && s;
  });
  assert.equal(status.rejected, 0, 'nothing rejected');
  const rejections = (await atHub('GET', '/v1/sync/rejections')).body;
  assert.equal(rejections.size, 0);

  const atHubNow = async (id: string) => (await atHub('GET', `/v1/visit/${id}`)).body;
  const walter = await atHubNow(visitId(1));
  assert.deepEqual(
    [walter.name, walter.hostId, walter.statusNote, walter.authorizationStatus, walter.isInsideCompany],
    ['Walter Walk-In', bruno.id, 'HOST_NOT_FOUND', 'waiting', true],
  );
  const gina = await atHubNow(visitId(2));
  assert.deepEqual(
    [gina.name, gina.inviteeId, gina.statusNote, gina.authorizationStatus, gina.isInsideCompany],
    ['Gina Guest', guest.id, 'INVITEE_NOT_FOUND', 'waiting', true],
  );

  // The kiosk still holds both, now as the hub recorded them.
  await syncNow(kiosk, kiosk.apiKey);
  for (const id of [visitId(1), visitId(2)]) {
    const [there, here] = await Promise.all([atHub('GET', `/v1/visit/${id}`), atKiosk('GET', `/v1/visit/${id}`)]);
    assert.equal(here.status, 200, `${id} is still at the kiosk`);
    assert.deepEqual(here.body, there.body);
  }
  const inside = (await atKiosk('GET', '/v1/visits?queryKey=isInsideCompany&queryOp=%3D%3D&queryValue=true')).body;
  assert.deepEqual(inside.visits.map((v: { id: string }) => v.id).sort(), [visitId(1), visitId(2)]);
});
