import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let hostId: string;

const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena Host', email: 'helena@acme.test' })).body.id;
});
after(() => service.stop());

const walkIn = (visit: Record<string, unknown> = {}, visitor: Record<string, unknown> = {}) =>
  api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId, ...visit },
    visitor: { name: 'Walter Walkin', email: 'walter@visitor.test', company: 'Initech', ...visitor },
  });

describe('POST /v1/visits (walk-in check-in)', () => {
  test('creates the visit object of docs/api.md, "Visits"', async () => {
    const id = randomUUID();
    const badge = (await api('POST', '/v1/customfields', { name: 'Badge color', type: 'Text' })).body;
    const { status, body } = await walkIn(
      { id, customFields: [{ customFieldId: badge.id, value: 'blue' }] },
      { cpf: '529.982.247-25', phone: '+55 11 98765-4321' },
    );
    assert.equal(status, 200);
    assert.equal(body.id, id);
    assert.equal(body.type, 'visit');
    assert.match(body.checkinAt, isoWithOffset);
    assert.equal(body.checkoutAt, null);
    assert.equal(body.isInsideCompany, true);
    assert.equal(body.name, 'Walter Walkin');
    assert.equal(body.email, 'walter@visitor.test');
    assert.equal(body.company, 'Initech');
    assert.equal(body.cpf, '529.982.247-25');
    assert.deepEqual(body.host, { id: hostId, name: 'Helena Host', email: 'helena@acme.test', type: 'host' });
    assert.equal(body.authorizationStatus, null);
    assert.equal(body.customFields[0].id, badge.id);
    assert.equal(body.customFields[0].name, 'Badge color');
    assert.equal(body.customFields[0].type, 'Text');
    assert.equal(body.customFields[0].value, 'blue');
    assert.equal(typeof body.cardNumber, 'string');
    assert.ok('pictureUrl' in body && 'ndaUrl' in body && 'notes' in body);
  });

  test('a repeated POST with the same id answers the same visit and creates no second one', async () => {
    const id = randomUUID();
    const first = await walkIn({ id }, { name: 'Retry Person' });
    const second = await walkIn({ id }, { name: 'Retry Person' });
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    const list = await api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Retry Person');
    assert.equal(list.body.size, 1);
    const foreign = await other('POST', '/v1/visits', { visit: { id }, visitor: { name: 'Someone' } });
    assert.deepEqual([foreign.status, foreign.body], [409, { type: 'ALREADY_EXISTS' }]);
  });

  test('takes form-encoded nested keys', async () => {
    const id = randomUUID();
    const form = `visit[id]=${id}&visit[hostId]=${hostId}&visit[checkinType]=ipad&visitor[name]=Form%20Visitor&visitor[email]=form@visitor.test`;
    const reply = await api('POST', '/v1/visits', form, { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.id, id);
    assert.equal(reply.body.checkinType, 'IPAD');
    assert.equal(reply.body.host.id, hostId);
  });

  test('honours a given checkinAt (an offline kiosk’s time) and answers the input errors', async () => {
    const at = await walkIn({ checkinAt: '2026-11-20T08:15:00-03:00' });
    assert.equal(at.body.checkinAt, '2026-11-20T08:15:00-03:00');
    const cases: [unknown, string][] = [
      [{ visit: {}, visitor: { name: 'A' } }, 'MISSING_ID'],
      [{ visit: { id: 'not-a-uuid' }, visitor: { name: 'A' } }, 'INVALID_ID'],
      [{ visit: { id: randomUUID() }, visitor: {} }, 'MISSING_NAME'],
      [{ visit: { id: randomUUID() }, visitor: { name: 'A', email: 'x' } }, 'INVALID_EMAIL'],
      [{ visit: { id: randomUUID() }, visitor: { name: 'A', cpf: '111.111.111-11' } }, 'INVALID_CPF'],
      [{ visit: { id: randomUUID(), hostId: 'f'.repeat(32) }, visitor: { name: 'A' } }, 'HOST_NOT_FOUND'],
      [{ visit: { id: randomUUID(), checkinAt: 'yesterday' }, visitor: { name: 'A' } }, 'WRONG_CHECKIN_AT_FORMAT'],
    ];
    for (const [body, type] of cases) {
      const reply = await api('POST', '/v1/visits', body);
      assert.deepEqual([reply.status, reply.body], [400, { type }], JSON.stringify(body));
    }
    const noVisitor = await api('POST', '/v1/visits', { visit: { id: randomUUID() } });
    assert.deepEqual(noVisitor.body, { type: 'INVALID_PARAMETER', field: 'visitor' });
  });
});

describe('visit operations', () => {
  test('GET answers the visit; another company and unknown ids get NOT_FOUND; no id gets MISSING_ID', async () => {
    const { body: visit } = await walkIn();
    assert.deepEqual((await api('GET', `/v1/visit/${visit.id}`)).body, visit);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(
        method,
        `/v1/visit/${visit.id}`,
        method === 'PATCH' ? { visit: { notes: 'x' } } : undefined,
      );
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
      assert.deepEqual((await api(method, '/v1/visit/')).body, { type: 'MISSING_ID' }, method);
    }
    for (const op of ['allow', 'deny', 'checkout']) {
      assert.deepEqual((await other('PATCH', `/v1/visit/${op}/${visit.id}`, {})).body, { type: 'NOT_FOUND' }, op);
      assert.deepEqual((await api('PATCH', `/v1/visit/${op}/`, {})).body, { type: 'MISSING_ID' }, op);
    }
    assert.equal((await api('GET', `/v1/visit/${visit.id}`)).body.isInsideCompany, true);
  });

  test('checkout ends presence once, with its three error codes', async () => {
    const { body: visit } = await walkIn({ checkinAt: '2026-11-22T09:00:00-03:00' });
    const early = await api('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutAt: '2026-11-22T08:59:59-03:00' });
    assert.deepEqual([early.status, early.body], [400, { type: 'CHECKOUT_AT_BEFORE_CHECKIN' }]);
    const wrong = await api('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutAt: '22/11/2026 10:00' });
    assert.deepEqual([wrong.status, wrong.body], [400, { type: 'WRONG_CHECKOUT_AT_FORMAT' }]);
    const done = await api('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutAt: '2026-11-22T17:30:00Z' });
    assert.equal(done.status, 200);
    assert.equal(done.body.checkoutAt, '2026-11-22T14:30:00-03:00');
    assert.equal(done.body.isInsideCompany, false);
    const again = await api('PATCH', `/v1/visit/checkout/${visit.id}`, {});
    assert.deepEqual([again.status, again.body], [409, { type: 'ALREADY_CHECKOUT' }]);
    assert.equal((await api('GET', `/v1/visit/${visit.id}`)).body.checkoutAt, '2026-11-22T14:30:00-03:00');
  });

  test('checkout without a body uses the present time', async () => {
    const { body: visit } = await walkIn();
    const done = await api('PATCH', `/v1/visit/checkout/${visit.id}`);
    assert.equal(done.status, 200);
    assert.match(done.body.checkoutAt, isoWithOffset);
    assert.equal(done.body.checkoutType, 'API');
  });

  test('allow and deny set the lower-case authorization status', async () => {
    const { body: visit } = await walkIn({ authorizationStatus: 'AWAITING' });
    assert.equal(visit.authorizationStatus, 'waiting');
    const allowed = await api('PATCH', `/v1/visit/allow/${visit.id}`, { authorizedById: hostId });
    assert.equal(allowed.body.authorizationStatus, 'allowed');
    assert.equal(allowed.body.authorizedById, hostId);
    assert.equal(allowed.body.authorizationVia, 'DASHBOARD');
    assert.match(allowed.body.authorizedAt, isoWithOffset);
    const denied = await api('PATCH', `/v1/visit/deny/${visit.id}`, { authorizationVia: 'app' });
    assert.equal(denied.body.authorizationStatus, 'denied');
    assert.equal(denied.body.authorizationVia, 'APP');
  });

  test('PATCH updates visitor data and notes; DELETE removes the visit', async () => {
    const { body: visit } = await walkIn();
    const patched = await api('PATCH', `/v1/visit/${visit.id}`, {
      visit: { notes: 'Brought a laptop' },
      visitor: { position: 'Engineer' },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.notes, 'Brought a laptop');
    assert.equal(patched.body.position, 'Engineer');
    assert.equal(patched.body.name, visit.name);
    const bad = await api('PATCH', `/v1/visit/${visit.id}`, { visitor: { email: 'bad' } });
    assert.deepEqual(bad.body, { type: 'INVALID_EMAIL' });
    assert.deepEqual((await api('DELETE', `/v1/visit/${visit.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/visit/${visit.id}`)).status, 404);
  });
});

describe('invitee check-in and check-out', () => {
  const invite = async (body: Record<string, unknown> = {}) =>
    (
      await api('POST', '/v1/invitees', {
        name: 'Iris Invitee',
        email: 'iris@guest.test',
        phone: '11 91234-5678',
        company: 'Hooli',
        hostId,
        expectedAt: '2026-11-22T10:00:00',
        ...body,
      })
    ).body;

  test('copies the invitee’s data, marks it arrived, and is idempotent', async () => {
    const invitee = await invite();
    const checkin = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`);
    assert.equal(checkin.status, 200);
    const visit = checkin.body;
    assert.equal(visit.name, 'Iris Invitee');
    assert.equal(visit.email, 'iris@guest.test');
    assert.equal(visit.phone, '11 91234-5678');
    assert.equal(visit.company, 'Hooli');
    assert.equal(visit.inviteeId, invitee.id);
    assert.equal(visit.host.id, hostId);
    assert.equal(visit.cardNumber, String(invitee.cardNumber));
    assert.equal(visit.expectedAt, '2026-11-22T10:00:00-03:00');
    assert.equal(visit.authorizationStatus, null);
    assert.equal(visit.isInsideCompany, true);
    assert.equal((await api('GET', `/v1/invitee/${invitee.id}`)).body.status, 'arrived');
    const again = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`);
    assert.equal(again.body.id, visit.id, 'a second scan answers the open visit');
  });

  test('asks for authorization when the invitee requires it; refuses canceled and unknown invitees', async () => {
    const strict = await invite({ email: 'strict@guest.test', requiresAuthorization: true });
    const visit = (await api('POST', `/v1/visit/inviteeCheckin/${strict.id}`)).body;
    assert.equal(visit.authorizationStatus, 'waiting');

    const canceled = await invite({ email: 'canceled@guest.test', status: 'canceled' });
    const refused = await api('POST', `/v1/visit/inviteeCheckin/${canceled.id}`);
    assert.deepEqual([refused.status, refused.body], [409, { type: 'INVITEE_CANCELED' }]);

    const unknown = await api('POST', `/v1/visit/inviteeCheckin/${randomUUID()}`);
    assert.deepEqual([unknown.status, unknown.body], [404, { type: 'INVITEE_NOT_FOUND' }]);
    const foreign = await other('POST', `/v1/visit/inviteeCheckin/${strict.id}`);
    assert.deepEqual([foreign.status, foreign.body], [404, { type: 'INVITEE_NOT_FOUND' }]);
  });

  test('a client-made id makes the invitee check-in idempotent too', async () => {
    const invitee = await invite({ email: 'idem@guest.test' });
    const id = randomUUID();
    const first = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { id, checkinType: 'IPAD' });
    assert.equal(first.body.id, id);
    assert.equal(first.body.checkinType, 'IPAD');
    await api('POST', `/v1/visit/inviteeCheckout/${invitee.id}`);
    const retried = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { id });
    assert.equal(retried.body.id, id);
    assert.equal(retried.body.isInsideCompany, false, 'the retry is the same, checked-out visit');
  });

  test('inviteeCheckout checks out the invitee’s open visit', async () => {
    const invitee = await invite({ email: 'out@guest.test' });
    const notIn = await api('POST', `/v1/visit/inviteeCheckout/${invitee.id}`);
    assert.deepEqual([notIn.status, notIn.body], [404, { type: 'NOT_FOUND' }]);
    const visit = (await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`)).body;
    const out = await api('POST', `/v1/visit/inviteeCheckout/${invitee.id}`);
    assert.equal(out.status, 200);
    assert.equal(out.body.id, visit.id);
    assert.equal(out.body.isInsideCompany, false);
    const again = await api('POST', `/v1/visit/inviteeCheckout/${invitee.id}`);
    assert.deepEqual([again.status, again.body], [409, { type: 'ALREADY_CHECKOUT' }]);
    const unknown = await api('POST', `/v1/visit/inviteeCheckout/${randomUUID()}`);
    assert.deepEqual(unknown.body, { type: 'INVITEE_NOT_FOUND' });
  });
});

describe('GET /v1/visits', () => {
  test('pages (default 500, max 1000) and queries the visit object’s fields', async () => {
    const lists = client(service.url, (await service.company('Visits list', 'UTC')).apiKey);
    const host = (await lists('POST', '/v1/hosts', { name: 'Jonas', email: 'jonas@lists.test' })).body.id;
    const base = Date.UTC(2026, 10, 10, 9, 0, 0) / 1000;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const reply = await lists('POST', '/v1/visits', {
        visit: {
          id: randomUUID(),
          hostId: i < 2 ? host : undefined,
          checkinAt: base + i * 60,
          authorizationStatus: i === 5 ? 'AWAITING' : undefined,
        },
        visitor: { name: `Visitor ${i}` },
      });
      assert.equal(reply.status, 200);
      ids.push(reply.body.id);
    }
    await lists('PATCH', `/v1/visit/checkout/${ids[0]}`, {});
    const names = (r: { body: { visits: { name: string }[] } }) => r.body.visits.map((v) => v.name);
    const q = (key: string, op: string, value: string) =>
      lists(
        'GET',
        `/v1/visits?queryKey=${key}&queryOp=${encodeURIComponent(op)}&queryValue=${encodeURIComponent(value)}`,
      );
    assert.deepEqual(names(await q('isInsideCompany', '==', 'false')), ['Visitor 0']);
    assert.deepEqual(names(await q('authorizationStatus', '==', 'waiting')), ['Visitor 5']);
    assert.deepEqual(names(await q('hostName', '==', 'Jonas')), ['Visitor 0', 'Visitor 1']);
    assert.deepEqual(names(await q('checkinAt', '>=', String(base + 240))), ['Visitor 4', 'Visitor 5']);
    assert.deepEqual(names(await lists('GET', '/v1/visits?limit=2&offset=1')), ['Visitor 1', 'Visitor 2']);
    assert.equal((await lists('GET', '/v1/visits')).body.size, 6);
    assert.equal((await lists('GET', '/v1/visits?limit=1000')).status, 200);
    for (const [query, status, type] of [
      ['limit=1001', 400, 'INVALID_LIMIT_VALUE'],
      ['offset=1.5', 400, 'INVALID_OFFSET_VALUE'],
      ['queryKey=password&queryOp===&queryValue=x', 404, 'INVALID_QUERY_KEY'],
      ['queryKey=name&queryOp=~&queryValue=x', 404, 'INVALID_QUERY_OPERATOR'],
    ] as const) {
      const reply = await lists('GET', `/v1/visits?${query}`);
      assert.deepEqual([reply.status, reply.body], [status, { type }], query);
    }
  });
});
