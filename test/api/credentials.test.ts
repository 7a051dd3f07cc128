import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, runCli, startService, type TestService } from '../helpers/service.ts';
import { startKiosk, syncNow } from '../helpers/sync-service.ts';

let service: TestService;
let acme: { id: string; apiKey: string; enrolled: boolean; pin?: string };
let admin: ReturnType<typeof client>;

/** GET /kiosk/session as the page asks it (sent again if a pooled connection closed while a CLI call blocked). */
const session = async (url: string) => {
  const response = await fetch(`${url}/kiosk/session`).catch(() => fetch(`${url}/kiosk/session`));
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};

before(async () => {
  service = await startService();
  acme = (await service.company('Acme')) as typeof acme;
  admin = client(service.url, acme.apiKey);
});
after(() => service.stop());

describe('credentials through /v1', () => {
  test('created with a role and label, listed without keys, revoked: the next request fails', async () => {
    const created = await admin('POST', '/v1/credentials', { role: 'readonly', label: 'Reports' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { key, ...shown } = created.body;
    assert.match(key, /^prt_/);
    assert.equal(shown.prefix, key.slice(0, 12));
    assert.deepEqual([shown.role, shown.label, shown.lastUsedAt, shown.revokedAt], ['readonly', 'Reports', null, null]);
    const reader = client(service.url, key);
    assert.equal((await reader('GET', '/v1/hosts')).status, 200);
    assert.deepEqual((await reader('POST', '/v1/hosts', { name: 'X', email: 'x@acme.test' })).body, {
      type: 'FORBIDDEN',
    });

    const listed = await admin('GET', '/v1/credentials');
    assert.ok(!JSON.stringify(listed.body).includes(key), 'never the key');
    const mine = listed.body.credentials.find((c: { id: string }) => c.id === shown.id);
    assert.equal(typeof mine.lastUsedAt, 'string', 'its use is seen');
    assert.deepEqual(
      listed.body.credentials.map((c: { role: string }) => c.role).sort(),
      ['admin', 'kiosk', 'readonly'],
      "the admin key, the kiosk's and this one",
    );

    assert.deepEqual((await admin('DELETE', `/v1/credential/${shown.id}`)).body, { success: true });
    assert.deepEqual((await reader('GET', '/v1/hosts')).body, { type: 'UNAUTHORIZED' }, 'refused at once');
    assert.equal(typeof (await admin('GET', `/v1/credential/${shown.id}`)).body.revokedAt, 'string');
  });

  test('a role that is not the admin’s to issue is refused; another company’s credential is NOT_FOUND', async () => {
    for (const role of ['owner', 'frontdesk', 'root']) {
      assert.equal((await admin('POST', '/v1/credentials', { role, label: 'x' })).status, 400, role);
    }
    const other = client(service.url, (await service.company('Globex')).apiKey);
    const theirs = (await other('GET', '/v1/credentials')).body.credentials[0];
    assert.deepEqual((await admin('DELETE', `/v1/credential/${theirs.id}`)).body, { type: 'NOT_FOUND' });
  });

  test('a key revoked by the CLI while the service runs fails on its next request', async () => {
    const created = JSON.parse(
      await runCli([
        'keys',
        'create',
        '--data',
        service.dataDir,
        '--company',
        acme.id,
        '--role',
        'sync',
        '--label',
        'Hub',
      ]),
    );
    const sync = client(service.url, created.key);
    assert.equal((await sync('GET', '/v1/sync/changes')).status, 200);
    assert.deepEqual((await sync('GET', '/v1/hosts')).body, { type: 'FORBIDDEN' }, 'a sync credential syncs only');
    const listed = JSON.parse(await runCli(['keys', 'list', '--data', service.dataDir, '--company', acme.id]));
    assert.ok(listed.credentials.some((c: { id: string }) => c.id === created.id));
    await runCli(['keys', 'revoke', '--data', service.dataDir, '--company', acme.id, '--id', created.id]);
    assert.deepEqual((await sync('GET', '/v1/sync/changes')).body, { type: 'UNAUTHORIZED' });
  });
});

describe('enrolment', () => {
  test('the first company made on a data folder enrols its kiosk, with a first PIN; the next ones do not', async () => {
    assert.equal(acme.enrolled, true);
    assert.match(acme.pin ?? '', /^\d{8}$/);
    const second = (await service.company('Initech')) as typeof acme;
    assert.deepEqual([second.enrolled, second.pin], [false, undefined]);
    assert.equal((await session(service.url)).body.companyId, acme.id);
  });

  test('the device owner chooses another company: the old kiosk credential stops, the new one serves it', async () => {
    const before = (await session(service.url)).body.apiKey as string;
    const other = await service.company('Umbrella');
    const enrolled = JSON.parse(await runCli(['kiosk', 'enrol', '--data', service.dataDir, '--company', other.id]));
    assert.equal(enrolled.companyId, other.id);
    assert.match(enrolled.pin, /^\d{8}$/, 'a company without a PIN gets its first one');
    assert.equal((await client(service.url, before)('GET', '/v1/kiosk/company')).status, 401);
    const now = (await session(service.url)).body;
    assert.equal(now.companyId, other.id);
    assert.equal((await client(service.url, now.apiKey)('GET', '/v1/kiosk/company')).body.name, 'Umbrella');
    const back = JSON.parse(await runCli(['kiosk', 'enrol', '--data', service.dataDir, '--company', acme.id]));
    assert.equal(back.pin, undefined, 'Acme keeps its PIN');
    await assert.rejects(
      async () => await runCli(['kiosk', 'enrol', '--data', service.dataDir, '--company', 'nope']),
      /no such company/,
    );
  });

  test('with an owner token: list companies, create one, choose the enrolled one; no company key reaches these', async () => {
    const owner = client(service.url, JSON.parse(await runCli(['owner', 'token', '--data', service.dataDir])).token);
    const listed = await owner('GET', '/v1/companies');
    assert.deepEqual(
      listed.body.companies.filter((c: { enrolled: boolean }) => c.enrolled).map((c: { id: string }) => c.id),
      [acme.id],
    );
    const made = await owner('POST', '/v1/companies', { name: 'Hooli', timezone: 'Europe/Berlin' });
    assert.deepEqual([made.status, made.body.enrolled], [200, false]);
    const chosen = await owner('PUT', '/v1/device/enrolment', { companyId: made.body.id });
    assert.deepEqual([chosen.body.companyId, typeof chosen.body.pin], [made.body.id, 'string']);
    assert.deepEqual((await owner('PUT', '/v1/device/enrolment', { companyId: 'nope' })).body, { type: 'NOT_FOUND' });
    assert.deepEqual((await owner('GET', '/v1/hosts')).body, { type: 'FORBIDDEN' }, 'the owner reads no company');
    assert.deepEqual((await admin('GET', '/v1/companies')).body, { type: 'FORBIDDEN' });
    assert.deepEqual((await admin('POST', '/v1/companies', { name: 'Mine' })).body, { type: 'FORBIDDEN' });
    await runCli(['kiosk', 'enrol', '--data', service.dataDir, '--company', acme.id]);
  });

  test('owner tokens are listed and revoked by the command line: a revoked one fails on its next request', async () => {
    const cli = async (...args: string[]) => JSON.parse(await runCli(['owner', ...args, '--data', service.dataDir]));
    const made = await cli('token', '--label', 'Remote laptop');
    const owner = client(service.url, made.token);
    assert.equal((await owner('GET', '/v1/companies')).status, 200);
    const listed = (await cli('list')).tokens.find((token: { id: string }) => token.id === made.id);
    assert.deepEqual([listed.label, listed.prefix, listed.revokedAt], ['Remote laptop', made.token.slice(0, 12), null]);
    assert.equal(typeof listed.lastUsedAt, 'string', 'its use is seen');
    assert.ok(!JSON.stringify(await cli('list')).includes(made.token), 'never the token itself');
    assert.equal(typeof (await cli('revoke', '--id', made.id)).revokedAt, 'string');
    assert.equal((await owner('GET', '/v1/companies')).status, 401, 'refused while the service runs');
    await assert.rejects(
      async () => await runCli(['owner', 'revoke', '--id', 'nope', '--data', service.dataDir]),
      /no such device-owner token in this data folder/,
    );
  });

  test('serve on a fresh data folder makes no company: the page hears NOT_ENROLLED until one is made', async () => {
    const fresh = await startService();
    try {
      assert.deepEqual(await session(fresh.url), { status: 409, body: { type: 'NOT_ENROLLED' } });
      const owner = client(fresh.url, JSON.parse(await runCli(['owner', 'token', '--data', fresh.dataDir])).token);
      assert.deepEqual((await owner('GET', '/v1/companies')).body, { companies: [], size: 0 }, 'no "My Company"');
      const made = await fresh.company('Acme');
      assert.equal((await session(fresh.url)).body.companyId, made.id);
    } finally {
      await fresh.stop();
    }
  });
});

describe('a kiosk of a hub with a sync credential', () => {
  test('pulls and pushes its company with it, and the credential reaches nothing else at the hub', async () => {
    const created = await admin('POST', '/v1/credentials', { role: 'sync', label: 'Lobby kiosk' });
    const host = await admin('POST', '/v1/hosts', { name: 'Hugo Hub', email: 'hugo@acme.test', isActive: true });
    const kiosk = await startKiosk(service.url, created.body.key);
    try {
      const face = (await session(kiosk.url)).body;
      assert.equal(face.companyId, acme.id, 'enrolled for the hub company the credential belongs to');
      const screen = client(kiosk.url, face.apiKey);
      const found = await screen('GET', '/v1/kiosk/hosts?name=hugo');
      assert.deepEqual(found.body.hosts, [{ id: host.body.id, name: 'Hugo Hub', sector: null }]);
      const visitId = '7b0d1c1e-8a8e-4b7e-9d2a-5b8e0c6f1a20';
      assert.equal(
        (await screen('POST', '/v1/kiosk/walkin', { visit: { id: visitId }, visitor: { name: 'Vera' } })).status,
        200,
      );
      await syncNow(kiosk, kiosk.apiKey);
      assert.equal((await admin('GET', `/v1/visit/${visitId}`)).body.name, 'Vera', 'the check-in reached the hub');
      assert.deepEqual((await client(service.url, created.body.key)('GET', '/v1/visits')).body, { type: 'FORBIDDEN' });
    } finally {
      await kiosk.stop();
    }
  });
});
