import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';
import { storedBytes } from '../helpers/store.ts';

let service: TestService;
let api: ReturnType<typeof client>;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company()).apiKey);
});
after(() => service.stop());

test('GET answers 404 NOT_FOUND before any configuration exists', async () => {
  const reply = await api('GET', '/v1/integration/access');
  assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }]);
});

test('POST is a partial upsert with the defaults of docs/api.md, "Access-control configuration"', async () => {
  const first = await api('POST', '/v1/integration/access', { enabled: true });
  assert.equal(first.status, 200);
  const { createdAt, updatedAt, ...rest } = first.body;
  assert.deepEqual(rest, {
    enabled: true,
    aesKey: '',
    qrcodeDuration: 30,
    url: '',
    username: '',
    password: '',
    totpEnabled: false,
    staticVisitorQRCode: false,
  });
  assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  assert.equal(typeof updatedAt, 'string');

  const second = await api('POST', '/v1/integration/access', {
    aesKey: 'gate-aes-key-0123456789abcdef',
    qrcodeDuration: 60,
    url: 'http://127.0.0.1:9/gate',
    username: 'kiosk',
    password: 'gate-password-s3cret',
  });
  assert.equal(second.status, 200);
  assert.equal(second.body.enabled, true, 'fields not sent keep their value');
  assert.equal(second.body.qrcodeDuration, 60);
  assert.equal(second.body.aesKey, 'gate-aes-key-0123456789abcdef');
  assert.equal(second.body.password, 'gate-password-s3cret');
  assert.equal(second.body.createdAt, createdAt);
  assert.deepEqual((await api('GET', '/v1/integration/access')).body, second.body);
});

test('POST answers 400 INVALID_PARAMETER on a wrong type or range and changes nothing', async () => {
  const before = (await api('GET', '/v1/integration/access')).body;
  for (const body of [
    { enabled: 'sometimes' },
    { qrcodeDuration: 'thirty' },
    { qrcodeDuration: 0 },
    { qrcodeDuration: 1.5 },
    { qrcodeDuration: 86_401 },
    { url: 'not a url' },
    { aesKey: 42 },
    { password: ['x'] },
  ]) {
    const reply = await api('POST', '/v1/integration/access', body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.body.type, 'INVALID_PARAMETER');
    assert.equal(reply.body.field, Object.keys(body)[0]);
  }
  assert.deepEqual((await api('GET', '/v1/integration/access')).body, before);
});

test('form-encoded POST is coerced', async () => {
  const reply = await api('POST', '/v1/integration/access', 'totpEnabled=true&qrcodeDuration=45', {
    'content-type': 'application/x-www-form-urlencoded',
  });
  assert.equal(reply.status, 200);
  assert.equal(reply.body.totpEnabled, true);
  assert.equal(reply.body.qrcodeDuration, 45);
});

test('the AES key and password are not stored in clear', async () => {
  const raw = await storedBytes(service.dataDir);
  assert.ok(raw.length > 0);
  assert.equal(raw.includes('gate-password-s3cret'), false);
  assert.equal(raw.includes('gate-aes-key-0123456789abcdef'), false);
});

test('configurations are per company, and DELETE answers success', async () => {
  const other = client(service.url, (await service.company('Other')).apiKey);
  assert.equal((await other('GET', '/v1/integration/access')).status, 404);
  const deleted = await api('DELETE', '/v1/integration/access');
  assert.deepEqual([deleted.status, deleted.body], [200, { success: true }]);
  assert.equal((await api('GET', '/v1/integration/access')).status, 404);
});
