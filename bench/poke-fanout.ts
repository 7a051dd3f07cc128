/**
 * How long a check-in at one kiosk takes to appear at its sibling: with the hub's pokes, and without them (the
 * sibling's poke stream refused, so only its poll carries the change). Prints one JSON line.
 *
 *   node --import tsx bench/poke-fanout.ts [--checkins 20] [--interval 5s] [--no-pokes]
 *
 * Three real service processes on loopback: a hub and two kiosks, the sibling behind a fault proxy. Check-ins are
 * made one at a time, each timed from its answer at the first kiosk to the moment the sibling answers it.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { client, startService } from '../test/helpers/service.ts';
import { localAdminKey, online, upstreamArgs, waitFor } from '../test/helpers/sync-service.ts';

const { values } = parseArgs({
  options: {
    checkins: { type: 'string', default: '20' },
    interval: { type: 'string', default: '5s' },
    'no-pokes': { type: 'boolean', default: false },
  },
});
const total = Number(values.checkins);
const pokes = !values['no-pokes'];

const hub = await startService({ env: { PORTARIA_LOG_LEVEL: 'warn' } });
const company = await hub.company('Bench');
const hostId = (await client(hub.url, company.apiKey)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@bench.test' }))
  .body.id as string;
const proxy = await startFaultProxy(hub.url);
if (!pokes) proxy.choose((req) => (req.url?.startsWith('/v1/sync/pokes') ? { status: 503 } : 'pass'));

async function kiosk(upstream: string) {
  const service = await startService({
    args: [...upstreamArgs(upstream, company.apiKey), '--sync-interval', values.interval],
    env: { PORTARIA_LOG_LEVEL: 'warn' },
  });
  const apiKey = await localAdminKey(service);
  await online(service, apiKey);
  return { service, api: client(service.url, apiKey) };
}

const first = await kiosk(hub.url);
const sibling = await kiosk(proxy.url);
await waitFor('the poke streams', async () => {
  const status = (await sibling.api('GET', '/v1/sync/status')).body;
  return status.subscribed === pokes;
});

const latencies: number[] = [];
try {
  for (let n = 0; n < total; n++) {
    const id = `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const reply = await first.api('POST', '/v1/visits', { visit: { id, hostId }, visitor: { name: `Visitor ${n}` } });
    if (reply.status !== 200) throw new Error(`check-in answered ${reply.status}`);
    const made = performance.now();
    await waitFor(
      'the check-in at the sibling',
      async () => (await sibling.api('GET', `/v1/visit/${id}`)).status === 200,
    );
    latencies.push(performance.now() - made);
    // Check-ins apart from one another, at random points of the sibling's poll.
    await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 800));
  }
} finally {
  await first.service.stop();
  await sibling.service.stop();
  await proxy.close();
  await hub.stop();
}

const sorted = [...latencies].sort((a, b) => a - b);
const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
process.stdout.write(
  `${JSON.stringify({ pokes, interval: values.interval, checkins: sorted.length, p50Ms: at(50), p95Ms: at(95), maxMs: Math.round(sorted.at(-1) ?? 0) })}\n`,
);
