import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { hashKey, keyPrefix } from '../../local-api/credentials/keys.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { client, runCli, startService, type TestService, tempDir } from '../helpers/service.ts';
import { withServiceDb } from '../helpers/store.ts';
import {
  type Kiosk,
  localAdminKey,
  online,
  restartKiosk,
  settledLogLines,
  startKiosk,
  syncNow,
} from '../helpers/sync-service.ts';

let hub: TestService;
let proxy: FaultProxy;
let kiosk: Kiosk;
let company: { id: string; apiKey: string };
let atHub: ReturnType<typeof client>;
let atKiosk: ReturnType<typeof client>;

before(async () => {
  hub = await startService();
  company = await hub.company('Acme');
  atHub = client(hub.url, company.apiKey);
  proxy = await startFaultProxy(hub.url);
  kiosk = await startKiosk(proxy.url, company.apiKey);
  atKiosk = client(kiosk.url, kiosk.apiKey);
});
after(async () => {
  await kiosk.stop();
  await proxy.close();
  await hub.stop();
});

test('the kiosk answers for the hub company, with a key of its own', async () => {
  const status = await atKiosk('GET', '/v1/sync/status');
  assert.equal(status.body.role, 'kiosk');
  assert.equal(status.body.state, 'online');
  assert.equal(status.body.companyId, company.id);
  assert.equal(status.body.pending, 0);
  assert.equal(typeof status.body.lastSuccessAt, 'string');
  assert.equal((await settledLogLines(kiosk, 'sync online')).length, 1);
  const hubStatus = await atHub('GET', '/v1/sync/status');
  assert.deepEqual([hubStatus.body.role, hubStatus.body.state, hubStatus.body.upstream], ['hub', 'hub', null]);
});

test('a host created on the hub reaches the kiosk; the kiosk refuses to create one itself', async () => {
  const created = await atHub('POST', '/v1/hosts', { name: 'Ana Souza', email: 'ana@acme.test', sector: 'R&D' });
  assert.equal(created.status, 200);
  await syncNow(kiosk, kiosk.apiKey);
  const mirrored = await atKiosk('GET', `/v1/host/${created.body.id}`);
  assert.deepEqual([mirrored.status, mirrored.body], [200, created.body]);
  const refused = await atKiosk('POST', '/v1/hosts', { name: 'Bruno', email: 'bruno@acme.test' });
  assert.deepEqual([refused.status, refused.body], [409, { type: 'MANAGED_BY_HUB' }]);
});

test('an invitee canceled at the hub while the kiosk was offline cannot be checked in once it is back', async () => {
  const host = (await atHub('POST', '/v1/hosts', { name: 'Carla', email: 'carla@acme.test' })).body;
  const invite = async (email: string) =>
    (await atHub('POST', '/v1/invitees', { name: email, email, hostId: host.id, expectedAt: 1_800_000_000 })).body;
  const canceled = await invite('canceled@guest.test');
  const letIn = await invite('let-in@guest.test');
  await syncNow(kiosk, kiosk.apiKey);
  assert.equal((await atKiosk('GET', `/v1/invitee/${canceled.id}`)).body.status, 'confirmed');

  proxy.set('reset');
  for (const guest of [canceled, letIn]) {
    assert.equal((await atHub('PATCH', `/v1/invitee/${guest.id}`, { status: 'canceled' })).status, 200);
  }
  // Still offline: the kiosk cannot know, and lets this one in.
  const offline = await atKiosk('POST', `/v1/visit/inviteeCheckin/${letIn.id}`, {});
  assert.equal(offline.status, 200);
  assert.equal((await syncNow(kiosk, kiosk.apiKey)).state, 'offline');

  proxy.set('pass');
  const back = await syncNow(kiosk, kiosk.apiKey);
  assert.deepEqual([back.state, back.pending], ['online', 0]);
  const refused = await atKiosk('POST', `/v1/visit/inviteeCheckin/${canceled.id}`, {});
  assert.deepEqual([refused.status, refused.body], [409, { type: 'INVITEE_CANCELED' }]);
  // The entry that did happen is at the hub, flagged for review; the invitation stays canceled.
  const recorded = await atHub('GET', `/v1/visit/${offline.body.id}`);
  assert.equal(recorded.body.statusNote, 'INVITEE_CANCELED');
  assert.equal(recorded.body.authorizationStatus, 'waiting');
  assert.equal((await atHub('GET', `/v1/invitee/${letIn.id}`)).body.status, 'canceled');
  assert.deepEqual((await atKiosk('GET', `/v1/visit/${offline.body.id}`)).body, recorded.body);
});

test('a check-out the hub cannot apply is kept at the hub, counted, and the kiosk takes the hub version', async () => {
  const visitId = '00000000-0000-4000-8000-00000000beef';
  const made = await atHub('POST', '/v1/visits', { visit: { id: visitId }, visitor: { name: 'Deleted Later' } });
  assert.equal(made.status, 200);
  await syncNow(kiosk, kiosk.apiKey);
  proxy.set('reset');
  assert.equal((await atHub('DELETE', `/v1/visit/${visitId}`)).status, 200);
  assert.equal((await atKiosk('PATCH', `/v1/visit/checkout/${visitId}`, {})).status, 200);
  proxy.set('pass');
  const status = await syncNow(kiosk, kiosk.apiKey);
  assert.deepEqual([status.state, status.pending, status.rejected], ['online', 0, 1]);
  const { body } = await atHub('GET', '/v1/sync/rejections');
  assert.equal(body.size, 1);
  assert.equal(body.rejections[0].clientId, status.clientId);
  assert.deepEqual([body.rejections[0].name, body.rejections[0].type], ['visit.checkout', 'NOT_FOUND']);
  assert.equal(body.rejections[0].args.id, visitId);
  assert.equal((await atKiosk('GET', `/v1/visit/${visitId}`)).status, 404, 'deleted at the hub, so here too');
  assert.equal((await settledLogLines(kiosk, 'sync: the hub rejected a mutation')).length, 1);
});

test("a fresh service becomes a kiosk through the device owner's PUT /v1/sync/upstream and stays one", async () => {
  const device = await startService();
  try {
    const owner = client(device.url, JSON.parse(await runCli(['owner', 'token', '--data', device.dataDir])).token);
    assert.equal((await owner('GET', '/v1/sync/upstream')).body.url, null);
    const bad = await owner('PUT', '/v1/sync/upstream', { url: 'ftp://hub', apiKey: company.apiKey });
    assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_PARAMETER', field: 'url' }]);
    const set = await owner('PUT', '/v1/sync/upstream', { url: `${proxy.url}/`, apiKey: company.apiKey });
    assert.deepEqual(set.body, { url: proxy.url, companyId: null, hasKey: true });
    const localKey = await localAdminKey(device);
    await online(device, localKey);
    assert.deepEqual((await owner('GET', '/v1/sync/upstream')).body, {
      url: proxy.url,
      companyId: company.id,
      hasKey: true,
    });
    const forbidden = await client(device.url, localKey)('GET', '/v1/sync/upstream');
    assert.deepEqual([forbidden.status, forbidden.body], [403, { type: 'FORBIDDEN' }], "a company's key");
    await device.stop();
    const restarted = await startService({ dataDir: device.dataDir });
    try {
      const status = await online(restarted, localKey);
      assert.equal(status.body.upstream, proxy.url);
    } finally {
      await restarted.stop();
    }
  } finally {
    await device.stop();
  }
});

/** The process's command line as `ps` shows it to every local user. */
const commandLine = (service: TestService) =>
  readFileSync(`/proc/${service.process.pid}/cmdline`, 'utf8').split('\0').join(' ');
const linuxOnly = process.platform === 'linux' ? false : 'reads /proc/<pid>/cmdline';

test('the hub key stays out of the process list, and opens nothing on the kiosk', { skip: linuxOnly }, async () => {
  assert.match(commandLine(kiosk), /--upstream-key-file \S+/);
  assert.ok(!commandLine(kiosk).includes(company.apiKey), 'a file: not on the command line');
  const atKioskWithHubKey = client(kiosk.url, company.apiKey);
  assert.deepEqual((await atKioskWithHubKey('GET', '/v1/visits')).body, { type: 'UNAUTHORIZED' });

  const fromEnvironment = await startService({
    args: ['--upstream', proxy.url],
    env: { PORTARIA_UPSTREAM_KEY: company.apiKey },
  });
  try {
    await online(fromEnvironment, await localAdminKey(fromEnvironment));
    assert.ok(!commandLine(fromEnvironment).includes(company.apiKey), 'the environment: not on the command line');
    assert.equal((await client(fromEnvironment.url, company.apiKey)('GET', '/v1/sync/status')).status, 401);
  } finally {
    await fromEnvironment.stop();
  }

  const fromFlag = await startService({ args: ['--upstream', proxy.url, '--upstream-key', company.apiKey] });
  try {
    assert.match(fromFlag.stderr(), /warning: --upstream-key leaves the key in the process list/);
    await online(fromFlag, await localAdminKey(fromFlag));
    assert.equal((await client(fromFlag.url, company.apiKey)('GET', '/v1/sync/status')).status, 401);
  } finally {
    await fromFlag.stop();
  }
});

test('a kiosk that stored the hub key as a local credential revokes it when it starts', async () => {
  const device = await startKiosk(proxy.url, company.apiKey);
  await device.stop();
  // What kiosks made before this rule hold: the hub key's hash as a local admin credential.
  await withServiceDb(
    device.dataDir,
    async (db) =>
      await db
        .prepare(
          `INSERT INTO credentials (id, companyId, role, label, prefix, keyHash, createdAt)
           VALUES ('oldhubkey', ?, 'admin', 'Hub key', ?, ?, 0)`,
        )
        .run(company.id, keyPrefix(company.apiKey), hashKey(company.apiKey)),
    { readonly: false },
  );
  const restarted = await restartKiosk(device, proxy.url, company.apiKey);
  try {
    await online(restarted, restarted.apiKey);
    assert.equal((await client(restarted.url, company.apiKey)('GET', '/v1/visits')).status, 401);
  } finally {
    await restarted.stop();
  }
});

test('serve refuses --upstream without its key, two keys, and an upstream that is not an http(s) URL', async () => {
  const serve =
    (...args: string[]) =>
    async () =>
      await runCli(['serve', '--port', '0', '--data', tempDir(), ...args]);
  const usageError = (error: unknown) => (error as { status?: number }).status === 2;
  await assert.rejects(serve('--upstream', 'ftp://hub'), usageError);
  await assert.rejects(serve('--upstream-key', company.apiKey), usageError);
  await assert.rejects(serve('--upstream', 'ftp://hub', '--upstream-key', company.apiKey), usageError);
  await assert.rejects(
    serve('--upstream-key-file', '/nonexistent/upstream.key', '--upstream', 'http://127.0.0.1:9'),
    usageError,
  );
  const file = join(tempDir(), 'upstream.key');
  writeFileSync(file, company.apiKey);
  await assert.rejects(
    serve('--upstream', 'http://127.0.0.1:9', '--upstream-key-file', file, '--upstream-key', 'x'),
    usageError,
  );
});

test("a page of the feed says the last of the asking kiosk's mutations the hub applied", async () => {
  const { clientId } = (await atKiosk('GET', '/v1/sync/status')).body;
  await atKiosk('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Counted Once' } });
  const status = await syncNow(kiosk, kiosk.apiKey);
  assert.equal(status.pending, 0);
  const known = (await atHub('GET', `/v1/sync/changes?clientId=${clientId}`)).body;
  const pushed = (await atHub('GET', '/v1/sync/status')).body.clients.find(
    (c: { clientId: string }) => c.clientId === clientId,
  );
  assert.equal(known.lastMutationId, pushed.lastMutationId);
  assert.equal((await atHub('GET', '/v1/sync/changes?clientId=never-pushed-here')).body.lastMutationId, null);
  assert.equal((await atHub('GET', '/v1/sync/changes')).body.lastMutationId, undefined);
  const refused = await atHub('GET', '/v1/sync/changes?clientId=bad%20id');
  assert.deepEqual([refused.status, refused.body.type], [400, 'INVALID_PARAMETER']);
});
