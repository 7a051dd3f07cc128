/**
 * How long a kiosk takes to hand check-ins queued while its hub was down to that hub, and what a visitor checking
 * in at that kiosk meanwhile waits: a real kiosk process, the tests' fault proxy between it and the hub, refusing
 * connections while the check-ins are queued (the first 300 one at a time, the rest 8 at once), then passing.
 */
import { performance } from 'node:perf_hooks';
import { startFaultProxy } from '../../test/helpers/fault-proxy.ts';
import { client, removeDir } from '../../test/helpers/service.ts';
import { startKiosk, syncNow } from '../../test/helpers/sync-service.ts';

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

export interface CheckinLatency {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

function summary(latencies: number[]): CheckinLatency {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
  };
}

export interface DrainFigures {
  checkins: number;
  /** Time to queue the check-ins at the kiosk while the hub was unreachable. */
  queueMs: number;
  /** From the hub reachable again until it has applied every check-in (its `GET /v1/sync/status`). */
  drainMs: number;
  drainPerSecond: number;
  /** Until the kiosk has also pulled them back and has nothing pending. */
  untilPulledBackMs: number;
  pendingAfter: number;
  checkinIdle: CheckinLatency;
  checkinDuringDrain: CheckinLatency;
}

/** A kiosk of the hub at `hubUrl` (company key `companyKey`) queues `total` check-ins offline, then drains them. */
export async function drainOffline(hubUrl: string, companyKey: string, total: number): Promise<DrainFigures> {
  const proxy = await startFaultProxy(hubUrl);
  const kiosk = await startKiosk(proxy.url, companyKey);
  const atKiosk = client(kiosk.url, kiosk.apiKey);
  const atHub = client(hubUrl, companyKey);

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
    for (let i = 0; i < Math.min(idleSamples, total); i++) idle.push(await checkin(uuid(i, '00000000'), `Queued ${i}`));
    let next = idle.length;
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
    return {
      checkins: total,
      queueMs: Math.round(queueMs),
      drainMs: Math.round(drainMs),
      drainPerSecond: Math.round((total / drainMs) * 1000),
      untilPulledBackMs: Math.round(performance.now() - drainStarted),
      pendingAfter: settled.pending,
      checkinIdle: summary(idle),
      checkinDuringDrain: summary(during),
    };
  } finally {
    await kiosk.stop();
    await proxy.close();
    removeDir(kiosk.dataDir);
  }
}
