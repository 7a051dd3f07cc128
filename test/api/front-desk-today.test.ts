import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eventually } from '../helpers/gate.ts';
import { allowLoopback, client, startService, succeeded, type TestService } from '../helpers/service.ts';

let service: TestService;
type Api = ReturnType<typeof client>;
let admin: Api;
let desk: Api;
let reader: Api;
let kiosk: Api;
let other: Api;
let hostId: string;

const kioskKey = async () => {
  const response = await fetch(`${service.url}/kiosk/session`);
  return ((await response.json()) as { apiKey: string }).apiKey;
};

before(async () => {
  service = await startService({ args: allowLoopback });
  const company = await service.company('Acme', 'UTC');
  admin = client(service.url, company.apiKey);
  other = client(service.url, (await service.company('Other', 'UTC')).apiKey);
  hostId = (await succeeded(admin, 'POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).id;
  desk = client(service.url, (await succeeded(admin, 'POST', '/v1/kiosk/frontdesk', { pin: company.pin })).token);
  reader = client(
    service.url,
    (await succeeded(admin, 'POST', '/v1/credentials', { role: 'readonly', label: 'Reports' })).key,
  );
  kiosk = client(service.url, await kioskKey());
});
after(async () => {
  await service?.stop();
});

const walkIn = async (visitor: Record<string, unknown>, visit: Record<string, unknown> = {}) =>
  (await succeeded(admin, 'POST', '/v1/visits', { visit: { id: randomUUID(), hostId, ...visit }, visitor })) as {
    id: string;
  };

const invite = async (name: string, expectedAt: number) =>
  (await succeeded(admin, 'POST', '/v1/invitees', { name, email: `${name}@guest.test`, hostId, expectedAt })) as {
    id: string;
  };

describe("today's counts", () => {
  test('count a seeded day: inside, expected, waiting, blocked, denied, failed messages, hostless', async () => {
    const empty = await succeeded(desk, 'GET', '/v1/today');
    assert.deepEqual(
      [empty.inside, empty.expected, empty.waiting, empty.blocked, empty.denied, empty.notificationFailures],
      [0, 0, 0, 0, 0, 0],
    );
    // Messages to hosts go to a webhook that refuses them: each check-in's message fails its first attempt.
    await succeeded(admin, 'POST', '/v1/integration/notifications', { webhookUrl: 'http://127.0.0.1:9/refused' });
    await walkIn({ name: 'Ana Souza', phone: '+55 11 91234-5678' });
    await walkIn({ name: 'Ana Souza' }); // the same person again: one person inside
    await walkIn({ name: 'Bia Nohost' }, { hostId: null });
    await walkIn({ name: 'Caio Waits' }, { authorizationStatus: 'AWAITING' });
    const denied = await walkIn({ name: 'Dora Denied' }, { authorizationStatus: 'AWAITING' });
    await succeeded(admin, 'PATCH', `/v1/visit/deny/${denied.id}`, {});
    await succeeded(admin, 'POST', '/v1/blockedlist', { name: 'Eva', email: 'eva@blocked.test', reason: 'test' });
    await walkIn({ name: 'Eva Blocked', email: 'eva@blocked.test' });
    const now = Math.floor(Date.now() / 1000);
    await invite('fabio', now);
    await invite('gil', now);
    const arrived = await invite('hugo', now);
    await succeeded(admin, 'POST', `/v1/visit/inviteeCheckin/${arrived.id}`, {});
    await invite('ivo', now + 2 * 86_400); // the day after tomorrow: not today

    const today = await eventually('the failed messages counted', async () => {
      const reply = await succeeded(desk, 'GET', '/v1/today');
      return reply.notificationFailures > 0 ? reply : undefined;
    });
    const { at, day, notificationFailures, ...counts } = today;
    assert.deepEqual(counts, {
      inside: 3,
      withoutHost: 1,
      waiting: 1,
      blocked: 1,
      denied: 1,
      expected: 2,
      unanswered: 0,
      unansweredHosts: [],
    });
    assert.equal(day, new Date().toISOString().slice(0, 10));
    assert.match(at, /^\d{4}-\d{2}-\d{2}T/);
    assert.ok(notificationFailures >= 1);
    const theirs = await succeeded(other, 'GET', '/v1/today');
    assert.deepEqual([theirs.inside, theirs.waiting, theirs.expected], [0, 0, 0], 'scoped to the company');
  });

  test('the staff and readers may read them; the kiosk screen may not', async () => {
    assert.equal((await reader('GET', '/v1/today')).status, 200);
    assert.equal((await admin('GET', '/v1/today')).status, 200);
    assert.deepEqual(await kiosk('GET', '/v1/today').then((r) => [r.status, r.body]), [403, { type: 'FORBIDDEN' }]);
    assert.equal((await client(service.url)('GET', '/v1/today')).status, 401);
  });
});

describe('the roll call of the roster', () => {
  test('ticks are kept by the service, first tick wins, untick and a new roll call clear them', async () => {
    const ana = await walkIn({ name: 'Ana Rollcall' });
    const bia = await walkIn({ name: 'Bia Rollcall' });
    await succeeded(desk, 'POST', '/v1/roster/check');
    const first = await succeeded(desk, 'PUT', `/v1/roster/check/${ana.id}`);
    assert.equal(first.visitId, ana.id);
    assert.match(first.checkedAt, /^\d{4}-\d{2}-\d{2}T/);
    const again = await succeeded(admin, 'PUT', `/v1/roster/check/${ana.id}`);
    assert.deepEqual(again, first, 'the first tick is kept');
    await succeeded(admin, 'PUT', `/v1/roster/check/${bia.id}`);
    // Another marshal's device (another session) sees the same ticks.
    const seen = await succeeded(reader, 'GET', '/v1/roster/check');
    assert.deepEqual(
      seen.accounted.map((tick: { visitId: string }) => tick.visitId),
      [ana.id, bia.id],
    );
    assert.notEqual(seen.accounted[0].checkedBy, seen.accounted[1].checkedBy, 'who ticked each');
    assert.equal((await succeeded(other, 'GET', '/v1/roster/check')).accounted.length, 0, 'scoped');
    assert.deepEqual((await other('PUT', `/v1/roster/check/${ana.id}`)).body, { type: 'NOT_FOUND' });
    assert.deepEqual((await desk('PUT', `/v1/roster/check/${randomUUID()}`)).body, { type: 'NOT_FOUND' });

    await succeeded(desk, 'DELETE', `/v1/roster/check/${bia.id}`);
    assert.deepEqual((await desk('DELETE', `/v1/roster/check/${bia.id}`)).body, { type: 'NOT_FOUND' });
    assert.equal((await succeeded(desk, 'GET', '/v1/roster/check')).accounted.length, 1);

    const fresh = await succeeded(desk, 'POST', '/v1/roster/check');
    assert.deepEqual(fresh.accounted, [], 'a new evacuation starts with no one accounted for');
    assert.ok(fresh.startedAt >= first.checkedAt);

    const actions = ((await succeeded(admin, 'GET', '/v1/audit?limit=1000')).entries as { action: string }[])
      .map((entry) => entry.action)
      .filter((action) => action.startsWith('roster.check.'));
    assert.deepEqual(actions, [
      'roster.check.started',
      'roster.check.ticked',
      'roster.check.ticked',
      'roster.check.unticked',
      'roster.check.started',
    ]);
  });

  test('readers see the roll call; only staff tick; the kiosk screen neither', async () => {
    const visit = await walkIn({ name: 'Caio Roles' });
    assert.equal((await reader('GET', '/v1/roster/check')).status, 200);
    for (const [method, path] of [
      ['PUT', `/v1/roster/check/${visit.id}`],
      ['DELETE', `/v1/roster/check/${visit.id}`],
      ['POST', '/v1/roster/check'],
    ] as const) {
      assert.equal((await reader(method, path)).status, 403, `${method} ${path} by a reader`);
      assert.equal((await kiosk(method, path)).status, 403, `${method} ${path} by the kiosk`);
    }
    assert.equal((await kiosk('GET', '/v1/roster/check')).status, 403);
  });
});
