import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createBlocklistEntry } from '../../local-api/blocklist/store.ts';
import type { Context } from '../../local-api/context.ts';
import { createCustomField } from '../../local-api/custom-fields/store.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { validate } from '../../local-api/http/fields.ts';
import { notifyOnCheckin } from '../../local-api/notifications/delivery.ts';
import { notificationJobKind, saveNotificationSettings } from '../../local-api/notifications/settings.ts';
import { queueStatus } from '../../local-api/queue/queue.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import { checkinWalkIn, getVisit } from '../../local-api/visits/store.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * The door's data (custom fields, the blocklist, notification settings) is the hub's and reaches kiosks by the
 * pull; a kiosk's offline check-in, replayed at the hub, is a fact: the hub records it as the kiosk took it.
 */

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rejectsWith = (type: string) => (error: unknown) => error instanceof ApiError && error.type === type;

async function setup() {
  const fixture = await syncFixture();
  const { hub, hubCaller } = fixture;
  const kiosk = fixture.kiosks[0]?.ctx as Context;
  const host = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  const purpose = await createCustomField(hub, hubCaller, {
    name: 'Purpose',
    type: 'Dropdown',
    options: ['Meeting', 'Delivery'],
    required: true,
  });
  for (const ctx of [hub, kiosk]) ctx.events.subscribe(notifyOnCheckin(ctx));
  await saveNotificationSettings(hub, hubCaller, {
    webhookUrl: 'http://127.0.0.1:9/hook',
    webhookSecret: 'hook-secret',
  });
  await fixture.pull(kiosk);
  const kioskCaller = await kioskAdminOf(kiosk, fixture.company.id);
  const walkIn = (n: number, visitor: Record<string, unknown>, answer = 'Meeting') =>
    validate(visitCreateInput, {
      visit: { id: visitId(n), hostId: host.id, customFields: [{ customFieldId: purpose.id, value: answer }] },
      visitor: { name: 'Vera', ...visitor },
    });
  return { ...fixture, kiosk, kioskCaller, host, purpose, walkIn };
}

test("a kiosk has the hub's custom fields, blocklist and notification settings, and cannot change them", async () => {
  const { kiosk, kioskCaller, hubCaller, hub, pull, walkIn } = await setup();
  await createBlocklistEntry(hub, hubCaller, { name: 'Mallory', email: 'mallory@evil.test', reason: 'Theft' });
  await pull(kiosk);
  const blocked = await checkinWalkIn(kiosk, kioskCaller, walkIn(1, { email: 'Mallory@Evil.test' }));
  assert.deepEqual([blocked.visitorStatus, blocked.isInsideCompany], ['BLOCKED', 0], "screened by the hub's list");
  await assert.rejects(
    async () => await checkinWalkIn(kiosk, kioskCaller, walkIn(2, {}, 'Party')),
    rejectsWith('INVALID_CUSTOM_FIELD'),
    "the kiosk checks answers against the hub's definitions",
  );
  await assert.rejects(
    async () => await createCustomField(kiosk, kioskCaller, { name: 'Local field', type: 'Text' }),
    rejectsWith('MANAGED_BY_HUB'),
  );
  await assert.rejects(
    async () => await createBlocklistEntry(kiosk, kioskCaller, { email: 'someone@evil.test' }),
    rejectsWith('MANAGED_BY_HUB'),
  );
  const kioskSettings = (await kiosk.db
    .prepare('SELECT webhookUrl, webhookSecret FROM notification_settings')
    .get()) as {
    webhookUrl: string;
    webhookSecret: string;
  };
  assert.equal(kioskSettings.webhookUrl, 'http://127.0.0.1:9/hook');
  assert.equal(kiosk.secrets.open(kioskSettings.webhookSecret), 'hook-secret', 'sealed again with the kiosk key');
});

test('an offline check-in replayed at the hub keeps its answers, even against definitions changed since', async () => {
  const { hub, hubCaller, kiosk, kioskCaller, push, walkIn } = await setup();
  await checkinWalkIn(kiosk, kioskCaller, walkIn(1, { email: 'vera@visitor.test' }));
  await createCustomField(hub, hubCaller, { name: 'Badge', type: 'Text', required: true });
  assert.deepEqual((await push(kiosk))?.results, [{ id: 1, result: 'applied' }]);
  const atHub = await getVisit(hub, hubCaller, visitId(1));
  assert.deepEqual(
    (JSON.parse(String(atHub.customFields)) as { name: string; value: string }[]).map((a) => [a.name, a.value]),
    [['Purpose', 'Meeting']],
  );
  assert.match(String(atHub.visitorId), /^[0-9a-f]{32}$/, "the hub's own visitor record");
  assert.equal(
    (await queueStatus(hub, hubCaller.companyId, notificationJobKind)).pending,
    0,
    'the kiosk that took the check-in tells the host, not the hub again',
  );
  assert.equal((await queueStatus(kiosk, hubCaller.companyId, notificationJobKind)).pending, 1);
});

test("a visitor a kiosk let in while offline, whom the hub's blocklist stops, is marked and the door is told", async () => {
  const { hub, hubCaller, kiosk, kioskCaller, push, walkIn } = await setup();
  await createHost(
    hub,
    hubCaller,
    validate(hostCreateInput, { name: 'Sam', email: 'sam@acme.test', role: 'SECURITY' }),
  );
  await createBlocklistEntry(hub, hubCaller, { name: 'Mallory', cpf: '529.982.247-25', reason: 'Theft' });
  await checkinWalkIn(kiosk, kioskCaller, walkIn(1, { name: 'Mallory', cpf: '52998224725' }));
  assert.equal((await getVisit(kiosk, kioskCaller, visitId(1))).isInsideCompany, 1, 'the kiosk did not know');
  await push(kiosk);
  const atHub = await getVisit(hub, hubCaller, visitId(1));
  assert.equal(atHub.visitorStatus, 'BLOCKED');
  assert.equal(atHub.statusNote, 'Blocklist match (CPF): Theft');
  assert.equal(atHub.isInsideCompany, 1, 'presence is what the kiosk recorded');
  const job = (await hub.db.prepare('SELECT payload FROM jobs WHERE kind = ?').get(notificationJobKind)) as {
    payload: string;
  };
  const { delivery } = JSON.parse(job.payload) as { delivery: { to: string[]; text: string } };
  assert.deepEqual(delivery.to, ['sam@acme.test']);
  assert.match(delivery.text, /at a kiosk that was offline, and may be inside\. Blocklist match \(CPF\): Theft$/);
});
