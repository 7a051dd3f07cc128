import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { eventually, type GateProcess, gateCredentials, startGateProcess } from '../helpers/gate.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';

/*
 * One company's dead endpoints must not hold up another company's gate. Company B registers 20 webhooks at
 * endpoints that accept connections and never answer, and keeps checking visitors in; company A's visitors must
 * still reach A's gate within 5 s of their check-in: the queue shares its slots per company and per endpoint,
 * puts gate callbacks first, and pauses endpoints that keep failing.
 */

const targetMs = 5_000;

let service: TestService;
let gate: GateProcess;
const deadEndpoints: Server[] = [];
const deadSockets: Socket[] = [];
let deadConnections = 0;

before(async () => {
  [service, gate] = await Promise.all([
    startService({ args: allowLoopback }),
    startGateProcess({ aesKey: 'noisy-neighbour-aes-key-0123' }),
  ]);
  for (let i = 0; i < 20; i++) {
    const server = createServer((socket) => {
      deadConnections++;
      deadSockets.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    deadEndpoints.push(server);
  }
});
after(async () => {
  await Promise.all([service.stop(), gate.stop()]);
  for (const socket of deadSockets) socket.destroy();
  await Promise.all(deadEndpoints.map((server) => new Promise((resolve) => server.close(resolve))));
});

const walkIn = (api: ReturnType<typeof client>, hostId: string, name: string) =>
  api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name } });

test("with another company's 20 dead endpoints busy, a gate callback arrives within 5 s of its check-in", async (t) => {
  const a = client(service.url, (await service.company('Gatekeepers')).apiKey);
  const b = client(service.url, (await service.company('Noisy')).apiKey);
  assert.equal(
    (
      await a('POST', '/v1/integration/access', {
        enabled: true,
        aesKey: 'noisy-neighbour-aes-key-0123',
        url: `${gate.url}/callback`,
        ...gateCredentials,
      })
    ).status,
    200,
  );
  const aHost = (await a('POST', '/v1/hosts', { name: 'Ana', email: 'ana@gatekeepers.test' })).body.id as string;
  const bHost = (await b('POST', '/v1/hosts', { name: 'Bia', email: 'bia@noisy.test' })).body.id as string;
  for (const server of deadEndpoints) {
    const port = (server.address() as { port: number }).port;
    const made = await b('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
    assert.equal(made.status, 200);
  }

  // B's check-ins keep the queue full of deliveries to its dead endpoints: 6 at once, then one a second.
  for (let i = 0; i < 6; i++) assert.equal((await walkIn(b, bHost, `Noisy ${i}`)).status, 200);
  let noisy = true;
  const background = (async () => {
    for (let i = 6; noisy; i++) {
      await walkIn(b, bHost, `Noisy ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();

  const delays: number[] = [];
  try {
    // At once, while B's first deliveries hang; then later, as B's endpoints are retried and paused.
    for (const waitMs of [1_000, 9_000, 20_000]) {
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      const before = Date.now();
      const visit = await walkIn(a, aHost, 'Visitor of A');
      assert.equal(visit.status, 200);
      const key = `visit.checkin.${visit.body.id}`;
      const callback = await eventually(
        `the callback of ${key}`,
        async () =>
          ((await gate.received()).callbacks as { key: string; receivedAt: string }[]).find((c) => c.key === key),
        30_000,
      );
      delays.push(Date.parse(callback.receivedAt) - before);
    }
  } finally {
    noisy = false;
    await background;
  }
  t.diagnostic(`gate callback delays: ${delays.join(', ')} ms; ${deadConnections} connections to B's dead endpoints`);
  for (const delay of delays) assert.ok(delay <= targetMs, `a gate callback arrived ${delay} ms after its check-in`);
  const status = (await b('GET', '/v1/webhooks/status')).body;
  assert.ok(status.pending > 0, "B's deliveries wait: they are not lost");
  assert.equal(status.lastError?.startsWith('cannot reach http://127.0.0.1:'), true, status.lastError);
});
