/**
 * Outgoing requests under faults, as distributions (the tests hold the targets; this measures how far inside
 * them the service stays). Prints one JSON line.
 *
 *   node --import tsx bench/outgoing.ts [--callbacks 40] [--outages 3]
 *
 * 1. Noisy neighbour: one service holding two companies (the owner allows loopback), the reference gate, and 20
 *    endpoints that accept connections and never answer. Company B registers a webhook at each and checks a
 *    visitor in every second; company A checks a visitor in every 500 ms, and each callback's delay is read from
 *    the gate's arrival time. A run without B first gives the baseline.
 * 2. Silent hub: a hub and a kiosk with the tests' fault proxy between them, set to swallow requests; how long the
 *    kiosk takes to say `offline`, how long a manual sync waits, and how soon a check-in made meanwhile reaches
 *    the hub once the proxy passes again. Repeated `--outages` times.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { parseArgs } from 'node:util';
import { gateCredentials, startGateProcess } from '../test/helpers/gate.ts';
import { allowLoopback, client, removeDir, startService } from '../test/helpers/service.ts';
import { startHubAndKiosk, syncNow, waitFor } from '../test/helpers/sync-service.ts';
import { latencyOf } from './load.ts';

const { values } = parseArgs({
  options: { callbacks: { type: 'string', default: '40' }, outages: { type: 'string', default: '3' } },
});
const callbacks = Number(values.callbacks);
const outages = Number(values.outages);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (line: string) => process.stderr.write(`${line}\n`);
const figures = (durations: number[]) => ({
  ...latencyOf(durations),
  max: Math.max(...durations),
});

type Api = ReturnType<typeof client>;

const walkIn = (api: Api, hostId: string, name: string) =>
  api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name } });

async function noisyNeighbour() {
  const aesKey = 'bench-outgoing-aes-key-0123456789';
  const [service, gate] = await Promise.all([
    startService({ args: allowLoopback, env: { PORTARIA_LOG_LEVEL: 'warn' } }),
    startGateProcess({ aesKey }),
  ]);
  const dead: Server[] = [];
  const deadSockets: Socket[] = [];
  try {
    const a = client(service.url, (await service.company('Gatekeepers')).apiKey);
    const b = client(service.url, (await service.company('Noisy')).apiKey);
    await a('POST', '/v1/integration/access', {
      enabled: true,
      aesKey,
      url: `${gate.url}/callback`,
      ...gateCredentials,
    });
    const aHost = (await a('POST', '/v1/hosts', { name: 'Ana', email: 'ana@gatekeepers.test' })).body.id as string;
    const bHost = (await b('POST', '/v1/hosts', { name: 'Bia', email: 'bia@noisy.test' })).body.id as string;

    async function callbackDelays(count: number): Promise<number[]> {
      const delays: number[] = [];
      for (let i = 0; i < count; i++) {
        const before = Date.now();
        const visit = await walkIn(a, aHost, `Visitor ${i}`);
        const key = `visit.checkin.${visit.body.id}`;
        const arrived = await waitFor(
          `callback ${key}`,
          async () =>
            ((await gate.received()).callbacks as { key: string; receivedAt: string }[]).find((c) => c.key === key),
          30_000,
        );
        delays.push(Date.parse(arrived.receivedAt) - before);
        await pause(500);
      }
      return delays;
    }

    log('noisy neighbour: baseline…');
    const quiet = await callbackDelays(Math.min(10, callbacks));
    for (let i = 0; i < 20; i++) {
      const server = createServer((socket) => void deadSockets.push(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      dead.push(server);
      const port = (server.address() as { port: number }).port;
      await b('POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['*'] });
    }
    for (let i = 0; i < 6; i++) await walkIn(b, bHost, `Noisy ${i}`);
    let noisy = true;
    const background = (async () => {
      for (let i = 6; noisy; i++) {
        await walkIn(b, bHost, `Noisy ${i}`);
        await pause(1_000);
      }
    })();
    log(`noisy neighbour: ${callbacks} callbacks beside 20 dead endpoints…`);
    const busy = await callbackDelays(callbacks);
    noisy = false;
    await background;
    return {
      quietCallbackMs: figures(quiet),
      callbackBesideDeadEndpointsMs: figures(busy),
      deadEndpointConnections: deadSockets.length,
    };
  } finally {
    await Promise.all([service.stop(), gate.stop()]);
    for (const socket of deadSockets) socket.destroy();
    await Promise.all(dead.map((server) => new Promise((resolve) => server.close(resolve))));
    removeDir(service.dataDir);
    removeDir(gate.dataDir);
  }
}

async function silentHub() {
  const { hub, proxy, kiosk } = await startHubAndKiosk();
  const api = client(kiosk.url, kiosk.apiKey);
  const status = async () => (await api('GET', '/v1/sync/status')).body;
  const offline: number[] = [];
  const manual: number[] = [];
  const pushed: number[] = [];
  try {
    for (let round = 0; round < outages; round++) {
      log(`silent hub: outage ${round + 1} of ${outages}…`);
      proxy.set('silent');
      const silentAt = Date.now();
      await waitFor('offline', async () => (await status()).state === 'offline', 60_000);
      offline.push(Date.now() - silentAt);
      await api('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: `Outage ${round}` } });
      const runAt = Date.now();
      await syncNow(kiosk, kiosk.apiKey);
      manual.push(Date.now() - runAt);
      proxy.set('pass');
      const backAt = Date.now();
      await waitFor(
        'the outbox to empty',
        async () => {
          const now = await status();
          return now.state === 'online' && now.pending === 0;
        },
        60_000,
      );
      pushed.push(Date.now() - backAt);
    }
    return {
      offlineAfterSilenceMs: figures(offline),
      manualSyncMs: figures(manual),
      pushedAfterReturnMs: figures(pushed),
    };
  } finally {
    await Promise.all([kiosk.stop(), proxy.close(), hub.stop()]);
    for (const service of [kiosk, hub]) removeDir(service.dataDir);
  }
}

const neighbour = await noisyNeighbour();
const hub = await silentHub();
process.stdout.write(`${JSON.stringify({ bench: 'outgoing', callbacks, outages, ...neighbour, ...hub })}\n`);
