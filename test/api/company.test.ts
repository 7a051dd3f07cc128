import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let companyId: string;

before(async () => {
  service = await startService();
  const company = await service.company('Acme', 'America/Sao_Paulo');
  companyId = company.id;
  api = client(service.url, company.apiKey);
});
after(() => service.stop());

test('GET /v1/company answers the company object of docs/api.md, "Company" with its defaults', async () => {
  const { status, body } = await api('GET', '/v1/company');
  assert.equal(status, 200);
  assert.equal(body.id, companyId);
  assert.equal(body.name, 'Acme');
  assert.equal(body.lang, 'en');
  assert.equal(body.plan, 'TRIAL');
  assert.equal(body.planIsActive, true);
  assert.match(body.trialUntil, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
  assert.equal(body.type, 'INDEPENDENT');
  assert.equal(body.timezone, 'America/Sao_Paulo');
  assert.equal(body.visibleOnKiosk, true);
  assert.equal(body.whatsappMessageNameSource, 'company');
  assert.equal(body.module, 'default');
  assert.equal(body.disableQrcodeApp, false);
  assert.equal(body.showAssociatedCHsApp, false);
  assert.equal(body.serproClientSecret, null);
  assert.equal(body.deletedAt, null);
});

test('PATCH updates the company; lang takes only en, pt-BR, de, zh-Hans', async () => {
  const patched = await api('PATCH', '/v1/company', {
    name: 'Acme Brasil',
    lang: 'pt-BR',
    city: 'São Paulo',
    type: 'parent',
    email: 'reception@acme.test',
    countryCode: '+55',
    visibleOnKiosk: false,
    whatsappMessageNameSource: 'host',
    module: 'coworking',
  });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.name, 'Acme Brasil');
  assert.equal(patched.body.lang, 'pt-BR');
  assert.equal(patched.body.city, 'São Paulo');
  assert.equal(patched.body.type, 'PARENT');
  assert.equal(patched.body.visibleOnKiosk, false);
  assert.deepEqual((await api('GET', '/v1/company')).body, patched.body);
  for (const lang of ['en', 'de', 'zh-Hans', 'pt-BR']) {
    assert.equal((await api('PATCH', '/v1/company', { lang })).body.lang, lang);
  }
  for (const lang of ['fr', 'pt', 'EN', '']) {
    const bad = await api('PATCH', '/v1/company', { lang });
    assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_PARAMETER', field: 'lang' }], lang);
  }
});

test('plan, planIsActive and trialUntil are refused with a 400 naming the field', async () => {
  for (const [field, value] of [
    ['plan', 'ENTERPRISE'],
    ['planIsActive', false],
    ['trialUntil', '2099-01-01T00:00:00Z'],
  ] as const) {
    const reply = await api('PATCH', '/v1/company', { name: 'Sneaky', [field]: value });
    assert.deepEqual([reply.status, reply.body], [400, { type: 'READ_ONLY_FIELD', field }], field);
  }
  const form = await api('PATCH', '/v1/company', 'plan=FREE', { 'content-type': 'application/x-www-form-urlencoded' });
  assert.deepEqual(form.body, { type: 'READ_ONLY_FIELD', field: 'plan' });
  const company = (await api('GET', '/v1/company')).body;
  assert.equal(company.plan, 'TRIAL');
  assert.notEqual(company.name, 'Sneaky', 'a refused PATCH changes nothing');
});

test('whatsappMessageNameSource at most 50 characters, module at most 20, timezone an IANA zone', async () => {
  assert.equal((await api('PATCH', '/v1/company', { whatsappMessageNameSource: 'w'.repeat(50) })).status, 200);
  assert.equal((await api('PATCH', '/v1/company', { module: 'm'.repeat(20) })).status, 200);
  const cases: [Record<string, unknown>, string][] = [
    [{ whatsappMessageNameSource: 'w'.repeat(51) }, 'whatsappMessageNameSource'],
    [{ module: 'm'.repeat(21) }, 'module'],
    [{ module: '' }, 'module'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    [{ type: 'FRANCHISE' }, 'type'],
  ];
  for (const [body, field] of cases) {
    const reply = await api('PATCH', '/v1/company', body);
    assert.deepEqual([reply.status, reply.body], [400, { type: 'INVALID_PARAMETER', field }], field);
  }
  assert.deepEqual((await api('PATCH', '/v1/company', { email: 'nope' })).body, { type: 'INVALID_EMAIL' });
});

test('a new timezone and language apply from the next request on', async () => {
  const hostId = (await api('POST', '/v1/hosts', { name: 'Zoe', email: 'zoe@acme.test' })).body.id;
  const checkinAt = '2026-06-01T12:00:00Z';
  const visit = (
    await api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId, checkinAt }, visitor: { name: 'Tz' } })
  ).body;
  assert.equal(visit.checkinAt, '2026-06-01T09:00:00-03:00');
  assert.equal((await api('PATCH', '/v1/company', { timezone: 'Europe/Berlin' })).body.timezone, 'Europe/Berlin');
  assert.equal((await api('GET', `/v1/visit/${visit.id}`)).body.checkinAt, '2026-06-01T14:00:00+02:00');
  await api('PATCH', '/v1/company', { timezone: 'Asia/Shanghai' });
  assert.equal((await api('GET', `/v1/visit/${visit.id}`)).body.checkinAt, '2026-06-01T20:00:00+08:00');
  await api('PATCH', '/v1/company', { timezone: 'America/Sao_Paulo' });
});

test('integration secrets are sealed at rest, masked in answers, kept by the mask, and never logged', async () => {
  const secret = `serpro-secret-${randomUUID()}`;
  const token = `liberado-token-${randomUUID()}`;
  const patched = await api('PATCH', '/v1/company', {
    serproClientId: 'client-1',
    serproClientSecret: secret,
    liberadoAuthToken: token,
  });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.serproClientId, 'client-1');
  assert.equal(patched.body.serproClientSecret, '********');
  assert.equal(patched.body.liberadoAuthToken, '********');
  assert.equal(patched.body.serproAuthToken, null);

  // A client sending back the object it read does not overwrite the secret with the mask.
  const roundTrip = await api('PATCH', '/v1/company', { serproClientSecret: '********', name: 'Acme' });
  assert.equal(roundTrip.body.serproClientSecret, '********');

  for (const file of readdirSync(service.dataDir).filter((f) => f.startsWith('portaria.db'))) {
    const bytes = readFileSync(join(service.dataDir, file));
    assert.equal(bytes.includes(secret), false, `${file} holds the secret in clear`);
    assert.equal(bytes.includes(token), false, `${file} holds the token in clear`);
  }
  assert.equal(service.stderr().includes(secret), false);
  assert.equal(service.stderr().includes(token), false);

  const cleared = await api('PATCH', '/v1/company', { liberadoAuthToken: null });
  assert.equal(cleared.body.liberadoAuthToken, null);
});

test('the company answers only with a key', async () => {
  const anonymous = client(service.url);
  assert.deepEqual((await anonymous('GET', '/v1/company')).body, { type: 'UNAUTHORIZED' });
  assert.equal((await anonymous('PATCH', '/v1/company', { name: 'x' })).status, 401);
});
