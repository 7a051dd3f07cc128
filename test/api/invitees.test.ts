import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let hostId: string;
let secondHostId: string;

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const validCpf = '529.982.247-25';

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Carla Host', email: 'carla@acme.test' })).body.id;
  secondHostId = (await api('POST', '/v1/hosts', { name: 'Diego Host', email: 'diego@acme.test' })).body.id;
});
after(() => service.stop());

const invite = (body: Record<string, unknown>) =>
  api('POST', '/v1/invitees', { hostId, expectedAt: '2026-11-23T09:30:00', ...body });

describe('POST /v1/invitees', () => {
  test('pre-registers an invitee: UUID v4, int32 card number, status confirmed, zone-offset times', async () => {
    const { status, body } = await invite({ name: 'Eva Guest', email: 'eva@guest.test', cpf: validCpf });
    assert.equal(status, 200);
    assert.match(body.id, uuidV4);
    assert.equal(body.type, 'invitee');
    assert.equal(body.status, 'confirmed');
    assert.equal(body.expectedAt, '2026-11-23T09:30:00-03:00', 'a time without offset is the company’s local time');
    assert.ok(Number.isInteger(body.cardNumber) && body.cardNumber > 0 && body.cardNumber <= 2 ** 31 - 1);
    assert.deepEqual(body.host, { id: hostId, name: 'Carla Host', email: 'carla@acme.test', type: 'host' });
    assert.equal(body.requiresAuthorization, false);
    assert.deepEqual(body.customFields, []);
    assert.equal(body.meeting, null);
    assert.match(body.createdAt, isoWithOffset);
  });

  test('accepts Unix seconds and offsets for expectedAt and rejects what is not a date', async () => {
    const unix = await invite({ name: 'Unix', email: 'unix@guest.test', expectedAt: 1_795_000_000 });
    assert.equal(unix.body.expectedAt, '2026-11-18T08:06:40-03:00');
    const utc = await invite({ name: 'UTC', email: 'utc@guest.test', expectedAt: '2026-11-23T12:00:00Z' });
    assert.equal(utc.body.expectedAt, '2026-11-23T09:00:00-03:00');
    // The last: milliseconds sent as seconds, year 58,850, which no time zone rule or page can place.
    for (const expectedAt of ['tomorrow', '2026-02-30T10:00:00', '2026-13-01', 1_795_000_000_000]) {
      const bad = await invite({ name: 'Bad', email: 'bad@guest.test', expectedAt });
      assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_EXPECTED_AT' }], String(expectedAt));
    }
  });

  test('answers the field codes for missing and invalid input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: undefined, email: 'a@guest.test' }, 'MISSING_NAME'],
      [{ name: 'A', email: 'not-email' }, 'INVALID_EMAIL'],
      [{ name: 'A', email: 'a@guest.test', cpf: '123.456.789-00' }, 'INVALID_CPF'],
      [{ name: 'A', email: 'a@guest.test', status: 'lost' }, 'INVALID_STATUS'],
      [{ name: 'A', email: 'a@guest.test', cardNumber: 2 ** 31 }, 'INVALID_CARD_NUMBER'],
      [{ name: 'A', email: 'a@guest.test', hostId: 'f'.repeat(32) }, 'HOST_NOT_FOUND'],
      [{ name: 'A' }, 'MISSING_EMAIL'],
    ];
    for (const [body, type] of cases) {
      const reply = await invite(body);
      assert.equal(reply.status, 400, type);
      assert.deepEqual(reply.body, { type });
    }
    const noHost = await api('POST', '/v1/invitees', { name: 'A', email: 'a@guest.test', expectedAt: 1 });
    assert.deepEqual(noHost.body, { type: 'MISSING_HOST_ID' });
  });

  test('a host of another company cannot be used', async () => {
    const reply = await other('POST', '/v1/invitees', {
      name: 'Spy',
      email: 'spy@guest.test',
      hostId,
      expectedAt: '2026-11-23T10:00:00',
    });
    assert.deepEqual([reply.status, reply.body], [400, { type: 'HOST_NOT_FOUND' }]);
  });
});

describe('PATCH, GET, DELETE /v1/invitee/:id', () => {
  test('answers the complete updated invitee and each PATCH error', async () => {
    const { body: created } = await invite({ name: 'Fabio', email: 'fabio@guest.test' });
    const updated = await api('PATCH', `/v1/invitee/${created.id}`, {
      company: 'Initech',
      status: 'canceled',
      hostId: secondHostId,
      cpf: '111.444.777-35',
      cardNumber: 424242,
      requiresAuthorization: 'true',
    });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.company, 'Initech');
    assert.equal(updated.body.status, 'canceled');
    assert.equal(updated.body.host.id, secondHostId);
    assert.equal(updated.body.cardNumber, 424242);
    assert.equal(updated.body.requiresAuthorization, true);
    assert.equal(updated.body.name, 'Fabio');
    assert.deepEqual((await api('GET', `/v1/invitee/${created.id}`)).body, updated.body);

    const errors: [Record<string, unknown>, number, string][] = [
      [{ email: 'nope' }, 400, 'INVALID_EMAIL'],
      [{ status: 'gone' }, 400, 'INVALID_STATUS'],
      [{ cpf: '52998224726' }, 400, 'INVALID_CPF'],
      [{ cardNumber: 'abc' }, 400, 'INVALID_CARD_NUMBER'],
      [{ cardNumber: 1.5 }, 400, 'INVALID_CARD_NUMBER'],
    ];
    for (const [body, status, type] of errors) {
      const reply = await api('PATCH', `/v1/invitee/${created.id}`, body);
      assert.deepEqual([reply.status, reply.body], [status, { type }], JSON.stringify(body));
    }
    assert.deepEqual(
      (await api('GET', `/v1/invitee/${created.id}`)).body,
      updated.body,
      'failed updates changed nothing',
    );

    const missing = await api('PATCH', '/v1/invitee/00000000-0000-4000-8000-000000000000', { name: 'x' });
    assert.deepEqual([missing.status, missing.body], [404, { type: 'NOT_FOUND' }]);
  });

  test('card numbers stay unique within a company', async () => {
    const a = (await invite({ name: 'A', email: 'card-a@guest.test', cardNumber: 777 })).body;
    assert.equal(a.cardNumber, 777);
    const b = await invite({ name: 'B', email: 'card-b@guest.test', cardNumber: 777 });
    assert.deepEqual([b.status, b.body], [409, { type: 'ALREADY_EXISTS' }]);
  });

  test('deletes, then answers NOT_FOUND; another company never sees the invitee; MISSING_ID', async () => {
    const { body: created } = await invite({ name: 'Gabi', email: 'gabi@guest.test' });
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(method, `/v1/invitee/${created.id}`, method === 'PATCH' ? { name: 'x' } : undefined);
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
      assert.deepEqual((await api(method, '/v1/invitee/')).body, { type: 'MISSING_ID' });
    }
    assert.deepEqual((await api('DELETE', `/v1/invitee/${created.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/invitee/${created.id}`)).status, 404);
  });
});

describe('GET /v1/invitees', () => {
  let listApi: ReturnType<typeof client>;
  const base = Date.UTC(2026, 11, 1, 12, 0, 0) / 1000;

  before(async () => {
    listApi = client(service.url, (await service.company('Lists', 'UTC')).apiKey);
    const hosts = [];
    for (const name of ['Helena', 'Igor']) {
      hosts.push((await listApi('POST', '/v1/hosts', { name, email: `${name}@lists.test` })).body.id);
    }
    for (let i = 0; i < 10; i++) {
      const reply = await listApi('POST', '/v1/invitees', {
        name: `Guest ${i}`,
        email: `g${i}@lists.test`,
        hostId: hosts[i % 2],
        expectedAt: base + i * 3600,
        status: i < 3 ? 'arrived' : 'confirmed',
        cardNumber: 1000 + i,
        company: i % 5 === 0 ? 'Umbrella' : 'Hooli',
      });
      assert.equal(reply.status, 200);
    }
  });

  const names = (reply: { body: { invitees: { name: string }[] } }) => reply.body.invitees.map((i) => i.name);
  const q = (key: string, op: string, value: string) =>
    listApi(
      'GET',
      `/v1/invitees?queryKey=${key}&queryOp=${encodeURIComponent(op)}&queryValue=${encodeURIComponent(value)}`,
    );

  test('queries every kind of field with typed comparisons', async () => {
    assert.deepEqual(names(await q('expectedAt', '>', String(base + 6 * 3600))), ['Guest 7', 'Guest 8', 'Guest 9']);
    assert.deepEqual(names(await q('expectedAt', '<=', String(base + 3600))), ['Guest 0', 'Guest 1']);
    assert.deepEqual(names(await q('expectedAt', '==', String(base + 2 * 3600))), ['Guest 2']);
    assert.deepEqual(names(await q('status', '==', 'arrived')), ['Guest 0', 'Guest 1', 'Guest 2']);
    assert.deepEqual(names(await q('name', '==', 'guest 4')), ['Guest 4'], 'names compare without case');
    assert.deepEqual(names(await q('hostName', '==', 'Igor')), ['Guest 1', 'Guest 3', 'Guest 5', 'Guest 7', 'Guest 9']);
    assert.deepEqual(names(await q('cardNumber', '>=', '1008')), ['Guest 8', 'Guest 9']);
    assert.deepEqual(names(await q('company', '==', 'Umbrella')), ['Guest 0', 'Guest 5']);
    const all = await listApi('GET', '/v1/invitees?limit=3&offset=2');
    assert.deepEqual(names(all), ['Guest 2', 'Guest 3', 'Guest 4']);
    assert.equal(all.body.size, 3);
  });

  test('answers the list errors of docs/api.md, "Errors" with the observed statuses', async () => {
    const cases: [string, number, string][] = [
      ['limit=0', 400, 'INVALID_LIMIT_VALUE'],
      ['limit=2001', 400, 'INVALID_LIMIT_VALUE'],
      ['offset=-5', 400, 'INVALID_OFFSET_VALUE'],
      ['queryKey=favouriteColour&queryOp===&queryValue=red', 404, 'INVALID_QUERY_KEY'],
      ['queryKey=name&queryOp=!=&queryValue=x', 404, 'INVALID_QUERY_OPERATOR'],
      ['queryKey=status&queryOp===&queryValue=lost', 400, 'INVALID_QUERY_VALUE'],
      ['queryKey=expectedAt&queryOp=>&queryValue=tomorrow', 400, 'INVALID_QUERY_VALUE'],
    ];
    for (const [query, status, type] of cases) {
      const reply = await listApi('GET', `/v1/invitees?${query.replace('>', '%3E')}`);
      assert.deepEqual([reply.status, reply.body], [status, { type }], query);
    }
    assert.equal((await listApi('GET', '/v1/invitees?limit=2000')).status, 200);
  });
});
