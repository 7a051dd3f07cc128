import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { client, runCli, startService, type TestService } from '../helpers/service.ts';

/**
 * A hub of company B's own making: it answers the change feed in company A's name (a full resync, no rows) and
 * takes every push. Following it would make the service adopt B's key for A.
 */
async function startFakeHub(victimCompanyId: string): Promise<{ url: string; pushes: number; close(): Promise<void> }> {
  let pushes = 0;
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/v1/sync/changes')) {
      res.end(
        JSON.stringify({
          companyId: victimCompanyId,
          reset: true,
          changes: [],
          cursor: 'c1',
          hasMore: false,
          hlc: '000000000000000:0000:ffffffffffffffff',
          now: Date.now(),
        }),
      );
      return;
    }
    if (req.url === '/v1/sync/push') {
      pushes++;
      res.end(JSON.stringify({ lastMutationId: 0, results: [], hlc: '000000000000000:0000:ffffffffffffffff', now: 0 }));
      return;
    }
    res.statusCode = 404;
    res.end('{"type":"NOT_FOUND"}');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get pushes() {
      return pushes;
    },
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

let service: TestService;
let companyA: { id: string; apiKey: string };
let companyB: { id: string; apiKey: string };

before(async () => {
  service = await startService();
  companyA = await service.company('Company A');
  companyB = await service.company('Company B');
});
after(() => service.stop());

test("company B's key and a hub of its own cannot take over company A", async () => {
  const asA = client(service.url, companyA.apiKey);
  const asB = client(service.url, companyB.apiKey);
  const host = await asA('POST', '/v1/hosts', { name: 'Ana Souza', email: 'ana@a.test' });
  assert.equal(host.status, 200);
  const gate = await asA('POST', '/v1/integration/access', {
    enabled: true,
    url: 'https://gate.a.test',
    username: 'gate',
    password: 'gate-password-of-a',
    aesKey: '0123456789abcdef0123456789abcdef',
  });
  assert.equal(gate.status, 200);

  const hub = await startFakeHub(companyA.id);
  try {
    const takeover = await asB('PUT', '/v1/sync/upstream', { url: hub.url, apiKey: companyB.apiKey });
    assert.deepEqual([takeover.status, takeover.body], [403, { type: 'FORBIDDEN' }]);
    // Give a sync the time it would take, had the upstream been accepted.
    await asB('POST', '/v1/sync/run');
    await new Promise((resolve) => setTimeout(resolve, 300));

    const status = await asA('GET', '/v1/sync/status');
    assert.equal(status.body.role, 'hub', 'the service still follows no hub');
    const hostOfA = await asA('GET', `/v1/host/${host.body.id}`);
    assert.equal(hostOfA.status, 200, "A's own key still opens A");
    assert.equal((await asA('POST', '/v1/hosts', { name: 'Bruno', email: 'bruno@a.test' })).status, 200);
    assert.equal((await asB('GET', `/v1/host/${host.body.id}`)).status, 404, "B does not read A's hosts");
    const accessOfB = await asB('GET', '/v1/integration/access');
    assert.notEqual(accessOfB.body.password, 'gate-password-of-a', "B does not read A's gate password");
    assert.equal(hub.pushes, 0, "nothing of A's reaches B's server");
  } finally {
    await hub.close();
  }
});

test('a device follows no hub that names a company it is not enrolled for', async () => {
  // The kiosk is enrolled for A (the first company made here); the hub names B.
  const asA = client(service.url, companyA.apiKey);
  const asB = client(service.url, companyB.apiKey);
  const host = await asB('POST', '/v1/hosts', { name: 'Carla Dias', email: 'carla@b.test' });
  const owner = client(service.url, JSON.parse(await runCli(['owner', 'token', '--data', service.dataDir])).token);
  const hub = await startFakeHub(companyB.id);
  try {
    const set = await owner('PUT', '/v1/sync/upstream', { url: hub.url, apiKey: 'a-key-of-the-fake-hub-0001' });
    assert.equal(set.status, 200);
    await asA('POST', '/v1/sync/run');
    const status = await asA('GET', '/v1/sync/status');
    assert.equal(status.body.companyId, null, 'the hub company was not adopted');
    assert.match(status.body.lastError, /not the company this kiosk is enrolled for/);
    assert.equal((await asB('GET', `/v1/host/${host.body.id}`)).status, 200, "B's rows are untouched");
    assert.equal((await client(service.url, 'a-key-of-the-fake-hub-0001')('GET', '/v1/hosts')).status, 401);
    assert.equal(hub.pushes, 0);
  } finally {
    await hub.close();
  }
});
