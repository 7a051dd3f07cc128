import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually, type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';

const webhookSecret = 'whsec_test_0123456789abcdef';

let service: TestService;
let api: ReturnType<typeof client>;
let gate: GateProcess;

before(async () => {
  [service, gate] = await Promise.all([
    startService({ args: allowLoopback }),
    startGateProcess({ aesKey: 'unused here', webhookSecret }),
  ]);
  api = client(service.url, (await service.company()).apiKey);
});
after(() => Promise.all([service.stop(), gate.stop()]));

interface Delivery {
  key: string;
  // biome-ignore lint/suspicious/noExplicitAny: deliveries are read field by field
  body: any;
  headers: Record<string, string>;
}

/** Waits until the gate holds at least `count` webhook deliveries matching `filter`. */
async function deliveries(count: number, filter: (d: Delivery) => boolean = () => true): Promise<Delivery[]> {
  return eventually(`${count} webhook deliveries`, async () => {
    const found = ((await gate.received()).webhooks as Delivery[]).filter(filter);
    return found.length >= count ? found : undefined;
  });
}

describe('webhook registration', () => {
  test('validates, shows the secret once, keeps it sealed, and is per company', async () => {
    const missing = await api('POST', '/v1/webhooks', { events: ['host.created'] });
    assert.deepEqual([missing.status, missing.body], [400, { type: 'MISSING_URL' }]);
    assert.deepEqual((await api('POST', '/v1/webhooks', { url: 'ftp://x' })).body, { type: 'INVALID_URL' });
    const badEvent = await api('POST', '/v1/webhooks', { url: `${gate.url}/webhook`, events: ['host.exploded'] });
    assert.deepEqual([badEvent.status, badEvent.body], [400, { type: 'INVALID_EVENT' }]);
    const shortSecret = await api('POST', '/v1/webhooks', { url: `${gate.url}/webhook`, secret: 'short' });
    assert.deepEqual(shortSecret.body, { type: 'INVALID_PARAMETER', field: 'secret' });

    const created = await api('POST', '/v1/webhooks', { url: `${gate.url}/elsewhere` });
    assert.equal(created.status, 200);
    assert.match(created.body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(created.body.events, ['*']);
    assert.equal(created.body.isActive, true);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{32}$/);
    const read = await api('GET', `/v1/webhook/${created.body.id}`);
    assert.equal('secret' in read.body, false, 'the secret is not shown again');
    const { secret: _shown, ...withoutSecret } = created.body;
    assert.deepEqual(read.body, withoutSecret);
    const raw = ['portaria.db', 'portaria.db-wal']
      .map((f) => {
        try {
          return readFileSync(join(service.dataDir, f));
        } catch {
          return Buffer.alloc(0);
        }
      })
      .reduce((a, b) => Buffer.concat([a, b]));
    assert.equal(raw.includes(created.body.secret), false, 'the secret is sealed at rest');

    const patched = await api('PATCH', `/v1/webhook/${created.body.id}`, {
      events: 'visit.checkin visit.checkout',
      isActive: false,
    });
    assert.deepEqual([patched.body.events, patched.body.isActive], [['visit.checkin', 'visit.checkout'], false]);
    assert.equal((await api('GET', '/v1/webhooks')).body.size, 1);
    const other = client(service.url, (await service.company('Other')).apiKey);
    assert.equal((await other('GET', `/v1/webhook/${created.body.id}`)).status, 404);
    assert.equal((await other('GET', '/v1/webhooks')).body.size, 0);
    assert.deepEqual((await api('DELETE', `/v1/webhook/${created.body.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/webhook/${created.body.id}`)).status, 404);
    assert.equal((await api('GET', '/v1/webhook/')).body.type, 'MISSING_ID');
  });
});

describe('webhook delivery', () => {
  test('host and invitee events arrive once each, signed, with the object and its event', async () => {
    const hook = await api('POST', '/v1/webhooks', {
      url: `${gate.url}/webhook`,
      secret: webhookSecret,
      events: ['host.created', 'host.updated', 'host.deleted', 'invitee.created'],
    });
    assert.equal(hook.status, 200);
    const host = (await api('POST', '/v1/hosts', { name: 'Ana', email: 'ana@hooks.test' })).body;
    await api('PATCH', `/v1/host/${host.id}`, { sector: 'R&D' });
    const invitee = (
      await api('POST', '/v1/invitees', {
        name: 'Caio',
        email: 'caio@guest.test',
        hostId: host.id,
        expectedAt: '2030-01-02T10:00:00-03:00',
      })
    ).body;
    await api('DELETE', `/v1/host/${host.id}`);

    const received = await deliveries(4);
    assert.deepEqual(
      received.map((d) => d.body.event),
      ['host.created', 'host.updated', 'invitee.created', 'host.deleted'],
    );
    const [created, updated, inviteeCreated, deleted] = received.map((d) => d.body);
    assert.equal(created.id, host.id);
    assert.equal(created.type, 'host');
    assert.equal(updated.sector, 'R&D');
    assert.equal(inviteeCreated.id, invitee.id);
    assert.equal(inviteeCreated.cardNumber, invitee.cardNumber);
    assert.equal(typeof deleted.deletedAt, 'string');
    for (const delivery of received) {
      const body = JSON.stringify(delivery.body);
      const expected = `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}`;
      assert.equal(delivery.headers['x-portaria-signature'], expected);
      assert.match(delivery.headers['x-portaria-timestamp'] ?? '', /^\d{10}$/);
      assert.equal(delivery.headers['x-portaria-event'], delivery.body.event);
      assert.equal(delivery.headers['content-type'], 'application/json');
    }
    const gateState = await gate.received();
    assert.equal(gateState.duplicateWebhooks, 0);
    assert.equal(gateState.refusedWebhooks, 0);
    const status = await api('GET', '/v1/webhooks/status');
    assert.deepEqual([status.body.pending, status.body.failed, status.body.done], [0, 0, 4]);
    await api('DELETE', `/v1/webhook/${hook.body.id}`);
  });

  test('a wrongly signed delivery is refused by the receiver, retried, and arrives once the secret is fixed', async () => {
    const hook = await api('POST', '/v1/webhooks', {
      url: `${gate.url}/webhook`,
      secret: 'not-the-secret-the-gate-knows',
      events: ['host.created'],
    });
    const host = (await api('POST', '/v1/hosts', { name: 'Edu', email: 'edu@hooks.test' })).body;
    const status = await eventually('a refused attempt', async () => {
      const reply = await api('GET', '/v1/webhooks/status');
      return reply.body.lastError ? reply.body : undefined;
    });
    assert.equal(status.pending, 1);
    assert.match(status.lastError, /answered HTTP 401/);
    assert.equal(status.lastError.includes('not-the-secret'), false);
    assert.ok((await gate.received()).refusedWebhooks >= 1);

    await api('PATCH', `/v1/webhook/${hook.body.id}`, { secret: webhookSecret });
    const [delivery] = await deliveries(1, (d) => d.body.id === host.id);
    assert.equal(delivery?.body.event, 'host.created');
    await eventually('the queue to be empty', async () => {
      const reply = await api('GET', '/v1/webhooks/status');
      return reply.body.pending === 0 ? true : undefined;
    });
  });
});
