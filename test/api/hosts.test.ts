import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, type Reply, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
});
after(() => service.stop());

const createHost = (body: Record<string, unknown>): Promise<Reply> => api('POST', '/v1/hosts', body);

describe('POST /v1/hosts', () => {
  test('creates a host with every default of docs/api.md, "Hosts"', async () => {
    const { status, body } = await createHost({ name: 'Ana Souza', email: 'ana@acme.test' });
    assert.equal(status, 200);
    assert.match(body.id, /^[0-9a-f]{32}$/);
    assert.equal(body.name, 'Ana Souza');
    assert.equal(body.email, 'ana@acme.test');
    assert.equal(body.role, 'HOST');
    assert.equal(body.isActive, false);
    assert.equal(body.preCheckinNotifications, true);
    assert.equal(body.isPhoneValid, false);
    assert.equal(body.sendInvitationEmail, false);
    assert.deepEqual(body.additionalEmails, []);
    assert.deepEqual(body.additionalPhones, []);
    assert.equal(body.deliveryNotification, false);
    assert.equal(body.allowCredentialing, false);
    assert.equal(body.canAuthorizeAllCredentialing, false);
    assert.equal(body.disableMeetingCreation, false);
    assert.equal(body.spaceManagementEnabled, false);
    assert.equal(body.deletedAt, null);
    assert.equal(body.type, 'host');
    assert.equal(typeof body.company, 'string');
    assert.match(body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  });

  test('accepts roles in upper case and in the object reference forms', async () => {
    for (const [role, stored] of [
      ['SECURITY', 'SECURITY'],
      ['frontDesk', 'FRONTDESK'],
      ['employee', 'EMPLOYEE'],
      ['admin', 'ADMIN'],
      ['Manager', 'MANAGER'],
    ]) {
      const { status, body } = await createHost({ name: role, email: `${role}@roles.test`, role });
      assert.equal(status, 200, role);
      assert.equal(body.role, stored);
    }
    const bad = await createHost({ name: 'x', email: 'bad-role@roles.test', role: 'janitor' });
    assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_ROLE' }]);
  });

  test('answers MISSING_NAME, MISSING_EMAIL, INVALID_EMAIL and ALREADY_EXISTS', async () => {
    assert.deepEqual((await createHost({ email: 'n@acme.test' })).body, { type: 'MISSING_NAME' });
    assert.deepEqual((await createHost({ name: '  ', email: 'n@acme.test' })).body, { type: 'MISSING_NAME' });
    assert.deepEqual((await createHost({ name: 'N' })).body, { type: 'MISSING_EMAIL' });
    const invalid = await createHost({ name: 'N', email: 'not-an-email' });
    assert.deepEqual([invalid.status, invalid.body], [400, { type: 'INVALID_EMAIL' }]);
    await createHost({ name: 'Dup', email: 'dup@acme.test' });
    const dup = await createHost({ name: 'Dup 2', email: 'DUP@acme.test' });
    assert.deepEqual([dup.status, dup.body], [409, { type: 'ALREADY_EXISTS' }]);
    const otherCompany = await other('POST', '/v1/hosts', { name: 'Dup', email: 'dup@acme.test' });
    assert.equal(otherCompany.status, 200, 'e-mails are unique per company, not across companies');
  });

  test('requires countryCode with phone and sets isPhoneValid', async () => {
    const missing = await createHost({ name: 'P', email: 'p1@acme.test', phone: '11987654321' });
    assert.deepEqual([missing.status, missing.body], [400, { type: 'MISSING_COUNTRY_CODE' }]);
    const ok = await createHost({ name: 'P', email: 'p2@acme.test', phone: '(11) 98765-4321', countryCode: '+55' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.phone, '(11) 98765-4321');
    assert.equal(ok.body.isPhoneValid, true);
    const badCode = await createHost({ name: 'P', email: 'p3@acme.test', phone: '1', countryCode: '55' });
    assert.deepEqual(badCode.body, { type: 'INVALID_COUNTRY_CODE' });
  });

  test('takes form-encoded bodies, coercing booleans and space-separated additionalEmails', async () => {
    const form = new URLSearchParams({
      name: 'Form Host',
      email: 'form@acme.test',
      isActive: 'true',
      additionalEmails: 'a@acme.test b@acme.test',
      'metadata[accessCardNumber]': '123456',
    });
    const { status, body } = await api('POST', '/v1/hosts', form.toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(status, 200);
    assert.equal(body.isActive, true);
    assert.deepEqual(body.additionalEmails, ['a@acme.test', 'b@acme.test']);
    assert.deepEqual(body.metadata, { accessCardNumber: 123456 });
  });

  test('rejects a metadata.accessCardNumber that is not an int32 and a wrong boolean', async () => {
    const card = await createHost({ name: 'C', email: 'c@acme.test', metadata: { accessCardNumber: 2 ** 40 } });
    assert.deepEqual([card.status, card.body], [400, { type: 'INVALID_PARAMETER', field: 'metadata' }]);
    const flag = await createHost({ name: 'C', email: 'c@acme.test', isActive: 'maybe' });
    assert.deepEqual([flag.status, flag.body], [400, { type: 'INVALID_PARAMETER', field: 'isActive' }]);
  });

  test('answers malformed JSON, arrays and unknown media types with JSON errors', async () => {
    const malformed = await api('POST', '/v1/hosts', '{"name": ', { 'content-type': 'application/json' });
    assert.deepEqual([malformed.status, malformed.body], [400, { type: 'INVALID_BODY' }]);
    const array = await api('POST', '/v1/hosts', '[1,2]', { 'content-type': 'application/json' });
    assert.deepEqual([array.status, array.body], [400, { type: 'INVALID_BODY' }]);
    const xml = await api('POST', '/v1/hosts', '<host/>', { 'content-type': 'application/xml' });
    assert.deepEqual([xml.status, xml.body], [415, { type: 'UNSUPPORTED_MEDIA_TYPE' }]);
  });
});

describe('GET, PATCH, DELETE /v1/host/:id', () => {
  test('reads, updates and deletes one host', async () => {
    const created = (await createHost({ name: 'Bruno', email: 'bruno@acme.test', sector: 'Sales' })).body;
    const read = await api('GET', `/v1/host/${created.id}`);
    assert.deepEqual(read.body, created);

    const updated = await api('PATCH', `/v1/host/${created.id}`, { sector: 'R&D', role: 'frontDesk', isActive: true });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.sector, 'R&D');
    assert.equal(updated.body.role, 'FRONTDESK');
    assert.equal(updated.body.isActive, true);
    assert.equal(updated.body.name, 'Bruno');

    const sameEmail = await api('PATCH', `/v1/host/${created.id}`, { email: 'BRUNO@acme.test' });
    assert.equal(sameEmail.status, 200);
    const newEmail = await api('PATCH', `/v1/host/${created.id}`, { email: 'other@acme.test' });
    assert.deepEqual([newEmail.status, newEmail.body], [400, { type: 'CANNOT_CHANGE_HOST_EMAIL' }]);
    const badRole = await api('PATCH', `/v1/host/${created.id}`, { role: 'boss' });
    assert.deepEqual(badRole.body, { type: 'INVALID_ROLE' });

    const deleted = await api('DELETE', `/v1/host/${created.id}`);
    assert.deepEqual([deleted.status, deleted.body], [200, { success: true }]);
    assert.deepEqual((await api('GET', `/v1/host/${created.id}`)).body, { type: 'NOT_FOUND' });
    assert.equal((await api('DELETE', `/v1/host/${created.id}`)).status, 404);
    const again = await createHost({ name: 'Bruno again', email: 'bruno@acme.test' });
    assert.equal(again.status, 200, 'a deleted host frees its e-mail');
  });

  test('answers NOT_FOUND for unknown ids and for another company’s host, MISSING_ID without an id', async () => {
    const created = (await createHost({ name: 'Private', email: 'private@acme.test' })).body;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(method, `/v1/host/${created.id}`, method === 'PATCH' ? { name: 'x' } : undefined);
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
      const missing = await api(method, '/v1/host/');
      assert.deepEqual([missing.status, missing.body], [400, { type: 'MISSING_ID' }], method);
    }
    assert.equal((await api('GET', `/v1/host/${created.id}`)).body.name, 'Private');
  });
});

describe('GET /v1/hosts', () => {
  test('pages with limit and offset and filters with queryKey/queryOp/queryValue', async () => {
    const fresh = client(service.url, (await service.company('Listing')).apiKey);
    for (let i = 0; i < 12; i++) {
      const reply = await fresh('POST', '/v1/hosts', {
        name: `Host ${String(i).padStart(2, '0')}`,
        email: `h${i}@list.test`,
        sector: i % 3 === 0 ? 'Security' : 'Office',
        isActive: i % 2 === 0,
      });
      assert.equal(reply.status, 200);
    }
    const all = await fresh('GET', '/v1/hosts');
    assert.equal(all.body.size, 12);
    assert.equal(all.body.hosts.length, 12);
    const page = await fresh('GET', '/v1/hosts?limit=5&offset=10');
    assert.deepEqual(
      page.body.hosts.map((h: { name: string }) => h.name),
      ['Host 10', 'Host 11'],
    );
    const sector = await fresh('GET', '/v1/hosts?queryKey=sector&queryOp===&queryValue=Security');
    assert.equal(sector.body.size, 4);
    const active = await fresh('GET', '/v1/hosts?queryKey=isActive&queryOp===&queryValue=true');
    assert.equal(active.body.size, 6);
    const after = await fresh('GET', `/v1/hosts?queryKey=name&queryOp=${encodeURIComponent('>=')}&queryValue=Host 10`);
    assert.deepEqual(
      after.body.hosts.map((h: { name: string }) => h.name),
      ['Host 10', 'Host 11'],
    );
    for (const h of all.body.hosts) {
      for (const key of [
        'id',
        'email',
        'name',
        'isActive',
        'position',
        'sector',
        'phone',
        'countryCode',
        'isPhoneValid',
        'company',
        'message',
        'role',
      ]) {
        assert.ok(key in h, key);
      }
    }
  });

  test('enforces the limits and query rules of docs/api.md, "Lists"', async () => {
    const cases: [string, number, string][] = [
      ['limit=0', 400, 'INVALID_LIMIT_VALUE'],
      ['limit=1001', 400, 'INVALID_LIMIT_VALUE'],
      ['limit=abc', 400, 'INVALID_LIMIT_VALUE'],
      ['offset=-1', 400, 'INVALID_OFFSET_VALUE'],
      ['offset=x', 400, 'INVALID_OFFSET_VALUE'],
      ['queryKey=name&queryOp=like&queryValue=a', 404, 'INVALID_QUERY_OPERATOR'],
      ['queryKey=password&queryOp===&queryValue=a', 404, 'INVALID_QUERY_KEY'],
      ['queryKey=isActive&queryOp===&queryValue=perhaps', 400, 'INVALID_QUERY_VALUE'],
    ];
    for (const [query, status, type] of cases) {
      const reply = await api('GET', `/v1/hosts?${query}`);
      assert.deepEqual([reply.status, reply.body], [status, { type }], query);
    }
    assert.equal((await api('GET', '/v1/hosts?limit=1000')).status, 200);
  });

  test('never lists another company’s hosts', async () => {
    const mine = (await api('GET', '/v1/hosts?limit=1000')).body.hosts as { company: string }[];
    const theirs = (await other('GET', '/v1/hosts?limit=1000')).body.hosts as { company: string }[];
    assert.ok(mine.length > 0 && theirs.length > 0);
    assert.equal(new Set(mine.map((h) => h.company)).size, 1);
    assert.ok(!mine.some((h) => theirs.some((t) => t.company === h.company)));
  });
});

describe('authentication', () => {
  test('accepts every credential form of docs/api.md, "Authentication" and refuses the rest with 401 UNAUTHORIZED', async () => {
    const { apiKey } = await service.company('Auth Co');
    const forms: Record<string, string>[] = [
      { authorization: `Bearer ${apiKey}` },
      { authentication: `Basic ${apiKey}` },
      { authorization: `Basic ${apiKey}` },
      { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}` },
    ];
    for (const headers of forms) {
      const reply = await client(service.url)('GET', '/v1/hosts', undefined, headers);
      assert.equal(reply.status, 200, JSON.stringify(headers));
    }
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-key' },
      { authentication: `Basic ${apiKey}x` },
      { authorization: apiKey },
    ];
    for (const headers of refused) {
      const reply = await client(service.url)('GET', '/v1/hosts', undefined, headers);
      assert.deepEqual([reply.status, reply.body], [401, { type: 'UNAUTHORIZED' }], JSON.stringify(headers));
    }
  });

  test('unknown routes answer a JSON 404', async () => {
    const reply = await api('GET', '/v1/nothing-here');
    assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }]);
  });
});
