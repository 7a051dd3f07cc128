import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { client, type Reply, removeDir, startService, type TestService, tempDir } from '../helpers/service.ts';
import { waitFor } from '../helpers/sync-service.ts';

/*
 * The destination policy seen from outside: a hub shared by several companies, whose tenants point their
 * webhooks, gate callback, notification webhook and SMTP host at loopback (in every spelling, saved while the
 * service had one company, or by name), at the cloud metadata address, at unspecified addresses and at the
 * service's own port. What the policy refuses is refused when saved, by the same rule as when sent; nothing may
 * reach them, and what a tenant reads of a failed delivery says its endpoint failed, never what the network
 * answered.
 */

type Api = ReturnType<typeof client>;

let service: TestService;
let dataDir: string;
/** Answers 200 to every request, and counts them. */
let web: HttpServer;
const received: string[] = [];
/** Accepts and never answers; counts connections (the SMTP server a tenant names, a silent webhook). */
let silent: Server;
let silentConnections = 0;
const silentSockets: Socket[] = [];
let closedPort: number;
let ownPortTenant: Tenant;

const portOf = (server: { address(): unknown }) => (server.address() as { port: number }).port;

before(async () => {
  web = createHttpServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    res.end('{}');
  });
  silent = createServer((socket) => {
    silentConnections++;
    silentSockets.push(socket);
  });
  const closed = createServer();
  await Promise.all([
    new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve)),
    new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve)),
  ]);
  closedPort = portOf(closed);
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  dataDir = tempDir();
  service = await startService({ dataDir });
});
after(async () => {
  await service.stop();
  for (const socket of silentSockets) socket.destroy();
  web.closeAllConnections();
  await Promise.all([new Promise((resolve) => web.close(resolve)), new Promise((resolve) => silent.close(resolve))]);
  removeDir(dataDir);
});

interface Tenant {
  /** The company's client of the service as it runs now (it restarts in the test). */
  api: Api;
  hostId: string;
}

async function tenant(name: string): Promise<Tenant> {
  const key = (await service.company(name)).apiKey;
  const host = await client(service.url, key)('POST', '/v1/hosts', { name: 'Helena', email: `${randomUUID()}@a.test` });
  assert.equal(host.status, 200);
  return {
    get api() {
      return client(service.url, key);
    },
    hostId: host.body.id,
  };
}

async function webhooks(api: Api, urls: string[]): Promise<void> {
  for (const url of urls) {
    const made = await api('POST', '/v1/webhooks', { url, events: ['visit.checkin'] });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  }
}

const checkIn = (api: Api, hostId: string) =>
  api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name: 'Vera' } });

/** The last error a company reads of one kind of delivery, once its first attempt has failed. */
async function failed(api: Api, path: string, pick: (body: Reply['body']) => Reply['body'] = (body) => body) {
  return waitFor(`a failed attempt at ${path}`, async () => {
    const status = pick((await api('GET', path)).body);
    return typeof status.lastError === 'string' && (status.lastError as string);
  });
}

const notAllowed = /^(SMTP )?\S+: the destination is not allowed on this device$/;

test('on a shared hub, tenants reach neither loopback nor metadata nor the service itself, in any spelling', async () => {
  const webPort = portOf(web);
  const servicePort = Number(new URL(service.url).port);
  const a = await tenant('Loopback spellings');
  await webhooks(a.api, [
    `http://127.1:${webPort}/a`,
    `http://2130706433:${webPort}/b`,
    `http://0x7f.0.0.1:${webPort}/c`,
    `http://[::ffff:127.0.0.1]:${webPort}/d`,
    `http://localhost:${webPort}/e`,
  ]);
  const saved = await a.api('POST', '/v1/integration/access', {
    enabled: true,
    url: `http://2130706433:${webPort}/callback`,
  });
  assert.equal(saved.status, 200);
  const settings = await a.api('POST', '/v1/integration/notifications', {
    smtpHost: '127.1',
    smtpPort: portOf(silent),
    smtpSecurity: 'none',
    webhookUrl: `http://localhost:${webPort}/notify`,
  });
  assert.equal(settings.status, 200);
  // A name is judged at each connection, after DNS: `localhost` is saved, and refused when sent.
  ownPortTenant = await tenant('Own port');
  await webhooks(ownPortTenant.api, [`http://localhost:${servicePort}/v1/visits`]);

  for (const { api, hostId } of [a, ownPortTenant]) assert.equal((await checkIn(api, hostId)).status, 200);

  assert.match(await failed(a.api, '/v1/webhooks/status'), notAllowed);
  assert.match(await failed(a.api, '/v1/integration/access/status'), notAllowed);
  assert.match(await failed(a.api, '/v1/integration/notifications', (body) => body.queue), notAllowed);
  assert.match(await failed(ownPortTenant.api, '/v1/webhooks/status'), notAllowed);
  // Every delivery was attempted by now (the worker runs them side by side, each refused before connecting).
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  assert.deepEqual(received, [], 'nothing reached the web server on loopback');
  assert.equal(silentConnections, 0, 'nothing reached the SMTP port on loopback');
});

test('an address the policy refuses is refused when saved, 400 DESTINATION_REFUSED saying why; nothing is kept', async () => {
  const servicePort = Number(new URL(service.url).port);
  const b = await tenant('Metadata, unspecified, own port, loopback');
  const refusals: [string, string, Record<string, unknown>, string, string][] = [
    [
      '/v1/webhooks',
      'url',
      { url: 'http://169.254.169.254/latest/meta-data/' },
      'link-local-or-reserved',
      '169.254.169.254',
    ],
    ['/v1/webhooks', 'url', { url: 'http://[::ffff:169.254.169.254]/x' }, 'link-local-or-reserved', '::ffff:a9fe:a9fe'],
    ['/v1/webhooks', 'url', { url: 'http://[fd00:ec2::254]/x' }, 'link-local-or-reserved', 'fd00:ec2::254'],
    ['/v1/webhooks', 'url', { url: 'http://0.0.0.0:8080/f' }, 'unspecified', '0.0.0.0'],
    ['/v1/webhooks', 'url', { url: `http://127.0.0.1:${servicePort}/v1/visits` }, 'own-port', '127.0.0.1'],
    ['/v1/webhooks', 'url', { url: 'http://2130706433:8080/x' }, 'private', '127.0.0.1'],
    [
      '/v1/integration/access',
      'url',
      { url: 'http://169.254.169.254/gate' },
      'link-local-or-reserved',
      '169.254.169.254',
    ],
    [
      '/v1/integration/notifications',
      'webhookUrl',
      { webhookUrl: 'http://169.254.169.254/notify' },
      'link-local-or-reserved',
      '169.254.169.254',
    ],
    ['/v1/integration/notifications', 'smtpHost', { smtpHost: '10.1.2.3', smtpPort: 25 }, 'private', '10.1.2.3'],
  ];
  for (const [path, field, body, reason, host] of refusals) {
    const reply = await b.api('POST', path, body);
    assert.equal(reply.status, 400, `${path} ${JSON.stringify(body)}`);
    assert.deepEqual(reply.body.type, 'DESTINATION_REFUSED');
    assert.deepEqual([reply.body.field, reply.body.reason], [field, reason], JSON.stringify(body));
    assert.match(reply.body.message, new RegExp(`^${host.replace(/[.[\]]/g, '\\$&')} is `));
  }
  assert.match(
    (await b.api('POST', '/v1/webhooks', { url: 'http://169.254.169.254/' })).body.message,
    /link-local, metadata or reserved address/,
  );
  const made = await b.api('POST', '/v1/webhooks', { url: 'https://hooks.example.test/x' });
  assert.equal(made.status, 200, 'an address on the internet is saved');
  const moved = await b.api('PATCH', `/v1/webhook/${made.body.id}`, { url: 'http://169.254.169.254/' });
  assert.equal(moved.body.type, 'DESTINATION_REFUSED', 'an update is judged too');
  assert.deepEqual(
    (await b.api('GET', '/v1/webhooks')).body.webhooks.map((w: { url: string }) => w.url),
    ['https://hooks.example.test/x'],
  );
  assert.equal((await b.api('GET', '/v1/integration/access')).status, 404, 'no configuration was saved');
  const document = (await b.api('GET', '/v1/openapi.json')).body;
  for (const [path, method] of [
    ['/v1/webhooks', 'post'],
    ['/v1/webhook/{id}', 'patch'],
    ['/v1/integration/access', 'post'],
    ['/v1/integration/notifications', 'post'],
  ] as const) {
    assert.ok(JSON.stringify(document.paths[path][method].responses['400']).includes('DESTINATION_REFUSED'), path);
  }
});

test('the owner allows loopback: the waiting deliveries go, and a tenant reads that its endpoint failed, not why', async () => {
  const port = new URL(service.url).port;
  await service.stop();
  service = await startService({ dataDir, args: ['--port', port, '--allow-destinations', '127.0.0.0/8'] });
  // Each at its next retry (the e-mail's may come a few seconds after the others).
  await waitFor('the refused deliveries to reach loopback', async () =>
    ['/a', '/b', '/c', '/d', '/e', '/callback', '/notify'].every((path) => received.includes(path)),
  );
  await waitFor('the SMTP host 127.1 to be reached', async () => silentConnections >= 1, 30_000);
  // The service's own port stays refused on loopback, allowed or not: tried again since the restart, still refused.
  const attempts = async () => (await ownPortTenant.api('GET', '/v1/webhooks/status')).body;
  await waitFor('the own-port delivery to be tried again', async () => {
    const body = await attempts();
    return body.pending === 1 && notAllowed.test(body.lastError) && body;
  });
  const tenantAfter = await tenant('Allowed loopback');
  assert.equal(
    (await tenantAfter.api('POST', '/v1/webhooks', { url: `http://127.0.0.1:${portOf(web)}/h` })).status,
    200,
    'a range the owner allows is saved, as it is sent',
  );
  assert.deepEqual(
    (await tenantAfter.api('POST', '/v1/webhooks', { url: `http://0.0.0.0:${portOf(web)}/f` })).body.reason,
    'unspecified',
    'unspecified addresses stay refused',
  );

  // A port nothing listens on and a peer that never answers read the same to the tenant.
  for (const port of [closedPort, portOf(silent)]) {
    const c = await tenant(`Closed or silent ${port}`);
    await webhooks(c.api, [`http://127.0.0.1:${port}/hook`]);
    assert.equal((await checkIn(c.api, c.hostId)).status, 200);
    const status = await waitFor(
      'the attempt to fail',
      async () => {
        const body = (await c.api('GET', '/v1/webhooks/status')).body;
        return body.lastError !== null && body;
      },
      20_000,
    );
    assert.equal(status.lastError, `cannot reach http://127.0.0.1:${port}`);
  }
});
