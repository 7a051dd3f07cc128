import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eventually, type GateProcess, gateCredentials, startGateProcess } from '../helpers/gate.ts';
import { allowLoopback, client, type Reply, startService, type TestService } from '../helpers/service.ts';

const aesKey = 'gate-aes-key-0123456789abcdef';

let service: TestService;
let gate: GateProcess;
const stopped: (() => Promise<void>)[] = [];

before(async () => {
  [service, gate] = await Promise.all([startService({ args: allowLoopback }), startGateProcess({ aesKey })]);
});
after(async () => {
  await Promise.all([service.stop(), gate.stop(), ...stopped.map((stop) => stop())]);
});

interface Callback {
  key: string;
  // biome-ignore lint/suspicious/noExplicitAny: callbacks are read field by field
  body: any;
  headers: Record<string, string>;
}

async function callbacksAt(peer: GateProcess, keys: string[], timeoutMs?: number): Promise<Callback[]> {
  return eventually(
    `callbacks ${keys.join(', ')}`,
    async () => {
      const found = ((await peer.received()).callbacks as Callback[]).filter((c) => keys.includes(c.key));
      return found.length === keys.length ? found : undefined;
    },
    timeoutMs,
  );
}

/** A company with a host and the integration pointed at `peer`. */
async function companyFor(peer: GateProcess, name: string, config: Record<string, unknown> = {}) {
  const { apiKey } = await service.company(name);
  const api = client(service.url, apiKey);
  const configured = await api('POST', '/v1/integration/access', {
    enabled: true,
    aesKey,
    url: `${peer.url}/callback`,
    ...gateCredentials,
    ...config,
  });
  assert.equal(configured.status, 200);
  const host = (await api('POST', '/v1/hosts', { name: 'Ana', email: `ana@${name.toLowerCase()}.test` })).body;
  return { api, apiKey, hostId: host.id as string };
}

function walkIn(api: ReturnType<typeof client>, hostId: string, visitor = 'Walk In'): Promise<Reply> {
  return api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId },
    visitor: { name: visitor, email: 'walk.in@guest.test', document: 'X-1' },
  });
}

describe('the gate callback', () => {
  test('a walk-in check-in reaches the gate with the credentials, the visit and a code the gate accepts', async () => {
    const { api, hostId } = await companyFor(gate, 'Direct');
    const visit = await walkIn(api, hostId, 'Bruna');
    assert.equal(visit.status, 200);
    const [callback] = await callbacksAt(gate, [`visit.checkin.${visit.body.id}`]);
    assert.ok(callback);
    const { body } = callback;
    assert.equal(body.event, 'visit.checkin');
    assert.equal(body.id, callback.key);
    assert.equal(body.visit.id, visit.body.id);
    assert.equal(body.visit.type, 'visit');
    assert.equal(body.visitor.name, 'Bruna');
    assert.equal(body.visitor.document, 'X-1');
    assert.equal(body.host.id, hostId);
    assert.equal(String(body.cardNumber), visit.body.cardNumber);
    assert.equal(body.qrcode.mode, 'aes');
    assert.match(body.occurredAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const verdict = await gate.verify(body.qrcode.payload, body.occurredAt);
    assert.deepEqual([verdict.valid, verdict.cardNumber, verdict.subject], [true, body.cardNumber, 'visitor']);
    assert.equal(callback.headers['content-type'], 'application/json');
    assert.equal((await gate.received()).refusedCallbacks, 0);
    const status = await eventually('the job to be done', async () => {
      const reply = await api('GET', '/v1/integration/access/status');
      return reply.body.done === 1 ? reply.body : undefined;
    });
    assert.deepEqual([status.pending, status.failed, status.lastError], [0, 0, null]);
  });

  test('an invitee check-in sends the invitee’s card number and, when configured, its static code', async () => {
    const { api, hostId } = await companyFor(gate, 'Invites', { staticVisitorQRCode: true });
    const invitee = (
      await api('POST', '/v1/invitees', {
        name: 'Caio',
        email: 'caio@guest.test',
        hostId,
        expectedAt: '2030-01-02T10:00:00-03:00',
      })
    ).body;
    const code = (await api('GET', `/v1/invitee/${invitee.id}/qrcode`)).body;
    const visit = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {});
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    const again = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {});
    assert.equal(again.body.id, visit.body.id, 'a repeated check-in is the same visit');
    const [callback] = await callbacksAt(gate, [`visit.checkin.${visit.body.id}`]);
    assert.equal(callback?.body.cardNumber, invitee.cardNumber);
    assert.equal(callback?.body.visitor.name, 'Caio');
    assert.deepEqual(callback?.body.qrcode, { payload: code.payload, mode: 'static', expiresAt: null });
    const visitCode = (await api('GET', `/v1/visit/${visit.body.id}/qrcode`)).body;
    assert.equal(visitCode.payload, code.payload, 'the visit keeps the invitee’s static code');
  });

  test('wrong credentials are refused with 401 and retried; the callback arrives once they are corrected', async () => {
    const { api, hostId } = await companyFor(gate, 'Creds', { password: 'wrong-password' });
    const visit = await walkIn(api, hostId);
    const status = await eventually('a refused attempt', async () => {
      const reply = await api('GET', '/v1/integration/access/status');
      return reply.body.lastError ? reply.body : undefined;
    });
    assert.match(status.lastError, /answered HTTP 401/);
    assert.equal(status.pending, 1);
    assert.equal(JSON.stringify(status).includes('wrong-password'), false);
    assert.match(gate.output(), /CALLBACK REFUSED wrong credentials/);
    await api('POST', '/v1/integration/access', { password: gateCredentials.password });
    await callbacksAt(gate, [`visit.checkin.${visit.body.id}`]);
  });

  test('no callback without a url or with the integration disabled', async () => {
    const { api, hostId } = await companyFor(gate, 'Quiet', { url: '' });
    assert.equal((await walkIn(api, hostId)).status, 200);
    await api('POST', '/v1/integration/access', { url: `${gate.url}/callback`, enabled: false });
    assert.equal((await walkIn(api, hostId)).status, 200);
    const status = (await api('GET', '/v1/integration/access/status')).body;
    assert.deepEqual([status.pending, status.done, status.failed], [0, 0, 0]);
  });

  test('a visit held at the door (a blocklisted name) reaches the gate only once the front desk allows it', async () => {
    const { api, hostId } = await companyFor(gate, 'Held');
    await api('POST', '/v1/blockedlist', { name: 'Hugo Held', email: 'hugo@bad.test' });
    const held = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId },
      visitor: { name: 'Hugo Held' },
    });
    assert.equal(held.body.heldAtDoor, true);
    const after = await walkIn(api, hostId);
    await callbacksAt(gate, [`visit.checkin.${after.body.id}`]);
    const sent = (await api('GET', '/v1/integration/access/status')).body;
    assert.deepEqual([sent.pending, sent.done], [0, 1], 'only the visit let in was called in');

    assert.equal((await api('PATCH', `/v1/visit/allow/${held.body.id}`, {})).status, 200);
    const [callback] = await callbacksAt(gate, [`visit.checkin.${held.body.id}`]);
    assert.equal(callback?.body.event, 'visit.checkin');
    assert.equal(callback?.body.visit.authorizationStatus, 'allowed');
    await api('PATCH', `/v1/visit/allow/${held.body.id}`, {});
    const status = (await api('GET', '/v1/integration/access/status')).body;
    assert.deepEqual([status.pending, status.done], [0, 2], 'one callback per visit');
  });
});

describe('the reference gate', () => {
  test('refuses wrong credentials, needs an Idempotency-Key, and keeps one delivery per key', async () => {
    const peer = await startGateProcess({ aesKey });
    stopped.push(() => peer.stop());
    const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const post = (headers: Record<string, string>, body = '{"event":"visit.checkin","cardNumber":7}') =>
      fetch(`${peer.url}/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const good = basic(gateCredentials.username, gateCredentials.password);
    assert.equal(
      (await post({ authorization: basic(gateCredentials.username, 'nope'), 'idempotency-key': 'k1' })).status,
      401,
    );
    assert.equal((await post({ 'idempotency-key': 'k1' })).status, 401);
    assert.equal((await post({ authorization: good })).status, 400);
    assert.equal((await post({ authorization: good, 'idempotency-key': 'k1' }, 'not json')).status, 400);
    const first = await post({ authorization: good, 'idempotency-key': 'k1' });
    const second = await post({ authorization: good, 'idempotency-key': 'k1' });
    assert.deepEqual([first.status, await first.json()], [200, { received: true, duplicate: false }]);
    assert.deepEqual([second.status, await second.json()], [200, { received: true, duplicate: true }]);
    const state = await peer.received();
    assert.deepEqual([state.callbacks.length, state.duplicateCallbacks, state.refusedCallbacks], [1, 1, 2]);
    assert.match(peer.output(), /CALLBACK DUPLICATE visit\.checkin card=7 key=k1/);
    const missing = await fetch(`${peer.url}/verify`, { method: 'POST', body: '{}' });
    assert.equal(missing.status, 400);
    const noWebhooks = await fetch(`${peer.url}/webhook`, { method: 'POST', body: '{}' });
    assert.equal(noWebhooks.status, 404, 'webhooks need --webhook-secret');
  });
});

describe('a gate outage', () => {
  test('check-ins answer at once; every callback arrives exactly once after the gate returns, across a kiosk restart', async () => {
    const outageGate = await startGateProcess({ aesKey });
    const { port } = outageGate;
    const { api, apiKey, hostId } = await companyFor(outageGate, 'Outage');
    await outageGate.stop();

    const visits: string[] = [];
    for (const name of ['Davi', 'Eva', 'Fabio']) {
      const reply = await walkIn(api, hostId, name);
      assert.equal(reply.status, 200, 'the check-in does not wait for the gate');
      visits.push(reply.body.id);
    }
    const invitee = (
      await api('POST', '/v1/invitees', { name: 'Gil', email: 'gil@guest.test', hostId, expectedAt: 1_900_000_000 })
    ).body;
    const inviteeVisit = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {});
    assert.equal(inviteeVisit.status, 200);
    visits.push(inviteeVisit.body.id);
    const keys = visits.map((id) => `visit.checkin.${id}`);

    const waiting = await eventually('failed attempts to be recorded', async () => {
      const reply = await api('GET', '/v1/integration/access/status');
      return reply.body.lastError && reply.body.pending === keys.length ? reply.body : undefined;
    });
    assert.match(waiting.lastError, /cannot reach/);
    assert.equal(typeof waiting.oldestPendingAt, 'string');

    // The kiosk goes down with the callbacks still queued; a new one starts on the same data folder.
    const { dataDir } = service;
    await service.stop();
    service = await startService({ dataDir });
    const restarted = await startGateProcess({ aesKey, port });
    stopped.push(() => restarted.stop());

    // Five failed attempts during the outage pause the gate's endpoint for its 30 s cooldown, and the pause is kept
    // in the database across the restart (several hub processes share it): the callbacks may wait for its end.
    const received = await callbacksAt(restarted, keys, 60_000);
    assert.deepEqual(received.map((c) => c.key).sort(), [...keys].sort());
    const state = await restarted.received();
    assert.equal(state.callbacks.length, keys.length, 'nothing else arrived');
    assert.equal(state.duplicateCallbacks, 0, 'nothing arrived twice');
    const status = await eventually('the queue to be empty', async () => {
      const reply = await client(service.url, apiKey)('GET', '/v1/integration/access/status');
      return reply.body.pending === 0 ? reply.body : undefined;
    });
    assert.deepEqual([status.done, status.failed], [keys.length, 0]);
  });
});
