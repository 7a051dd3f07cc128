/**
 * How long a kiosk takes to hand 10,000 check-ins queued while its hub was down to that hub, both on loopback,
 * and what a visitor checking in at that kiosk meanwhile waits. Prints one JSON line.
 *
 *   node --import tsx bench/sync-drain.ts [--checkins 10000]
 *
 * Two real service processes (hub, kiosk); between them the tests' fault proxy, set to refuse connections while
 * the check-ins are queued, then to pass.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { client, removeDir, startService } from '../test/helpers/service.ts';
import { startKiosk, syncNow } from '../test/helpers/sync-service.ts';

const { values } = parseArgs({ options: { checkins: { type: 'string', default: '10000' } } });
const total = Number(values.checkins);
const idleSamples = 300;
const concurrency = 8;

function uuid(n: number, prefix: string): string {
  const hex = n.toString(16).padStart(12, '0');
  return `${prefix}-0000-4000-8000-${hex}`;
}

function percentile(sorted: number[], p: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  return Math.round(value * 10) / 10;
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
  };
}

const hub = await startService({ env: { PORTARIA_LOG_LEVEL: 'warn' } });
const company = await hub.company('Bench');
const proxy = await startFaultProxy(hub.url);
const kiosk = await startKiosk(proxy.url, company.apiKey);
const atKiosk = client(kiosk.url, kiosk.apiKey);
const atHub = client(hub.url, company.apiKey);

async function checkin(id: string, name: string): Promise<number> {
  const started = performance.now();
  const reply = await atKiosk('POST', '/v1/visits', { visit: { id }, visitor: { name } });
  if (reply.status !== 200) throw new Error(`check-in answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return performance.now() - started;
}

try {
  proxy.set('reset');
  const queueStarted = performance.now();
  const idle: number[] = [];
  for (let i = 0; i < idleSamples; i++) idle.push(await checkin(uuid(i, '00000000'), `Queued ${i}`));
  let next = idleSamples;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        await checkin(uuid(n, '00000000'), `Queued ${n}`);
      }
    }),
  );
  const queueMs = performance.now() - queueStarted;
  const queued = await atKiosk('GET', '/v1/sync/status');
  if (queued.body.pending !== total) throw new Error(`expected ${total} pending, found ${queued.body.pending}`);

  proxy.set('pass');
  const drainStarted = performance.now();
  const sync = syncNow(kiosk, kiosk.apiKey);
  const during: number[] = [];
  let drained = false;
  let drainMs = 0;
  const probe = (async () => {
    for (let n = 0; !drained; n++) {
      during.push(await checkin(uuid(n, '11111111'), `During ${n}`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  while (!drained) {
    const status = await atHub('GET', '/v1/sync/status');
    const applied = status.body.clients[0]?.applied ?? 0;
    if (applied >= total) {
      drainMs = performance.now() - drainStarted;
      drained = true;
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  await probe;
  await sync;
  const settled = await syncNow(kiosk, kiosk.apiKey);
  const allSyncedMs = performance.now() - drainStarted;
  process.stdout.write(
    `${JSON.stringify({
      bench: 'sync-drain',
      checkins: total,
      queueMs: Math.round(queueMs),
      drainMs: Math.round(drainMs),
      drainPerSecond: Math.round((total / drainMs) * 1000),
      untilPulledBackMs: Math.round(allSyncedMs),
      pendingAfter: settled.pending,
      checkinIdle: summary(idle),
      checkinDuringDrain: summary(during),
    })}\n`,
  );
} finally {
  await kiosk.stop();
  await proxy.close();
  await hub.stop();
  removeDir(kiosk.dataDir);
  removeDir(hub.dataDir);
}
