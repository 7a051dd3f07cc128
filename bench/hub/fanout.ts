/**
 * Fan-out: real kiosk processes following one hub, each with its normal sync settings (its hub's pokes, a poll every
 * 5 s) and a `sync` key of its own, as deployed (a hub keeps at most two poke streams per credential). A visitor
 * checks in at one kiosk; the bench times, from that check-in's answer, until the hub holds the visit and until every
 * other kiosk holds it locally (`GET /v1/visit/:id` on each, every `watchMs`).
 */
import { randomUUID } from 'node:crypto';
import { client, removeDir, runCli } from '../../test/helpers/service.ts';
import { type Kiosk, startKiosk } from '../../test/helpers/sync-service.ts';
import { type LatencyFigures, latencyOf } from '../load.ts';

export interface FanoutPlan {
  kiosks: number;
  /** Check-ins made one after the other, each at the next kiosk in turn. */
  checkins: number;
  /** How often each kiosk is asked whether it holds the visit: the figures' resolution. */
  watchMs: number;
}

export interface FanoutFigures {
  kiosks: number;
  checkins: number;
  /** From the check-in's answer at its kiosk until the hub holds the visit, ms. */
  atHub: LatencyFigures;
  /** From the check-in's answer until a sibling kiosk holds it, one sample per sibling and check-in, ms. */
  atSiblings: LatencyFigures;
  /** Seconds the kiosks took to start and reach the hub, all of them. */
  startSeconds: number;
}

const deadlineMs = 60_000;

/** Asks `holds` every `watchMs` until it answers true; the ms from `since`. */
async function until(holds: () => Promise<boolean>, since: number, watchMs: number): Promise<number> {
  for (;;) {
    if (await holds()) return performance.now() - since;
    if (performance.now() - since > deadlineMs) throw new Error(`not there after ${deadlineMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, watchMs));
  }
}

/** One check-in at `origin`; answers when the hub and every sibling hold it. */
async function oneCheckin(hub: FanoutHub, origin: Kiosk, siblings: Kiosk[], watchMs: number) {
  const id = randomUUID();
  const made = await client(origin.url, origin.apiKey)('POST', '/v1/visits', {
    visit: { id },
    visitor: { name: 'Fan-out Visitor' },
  });
  if (made.status !== 200) throw new Error(`check-in answered ${made.status}: ${JSON.stringify(made.body)}`);
  const answeredAt = performance.now();
  const holds = (url: string, key: string) => async () =>
    (await client(url, key)('GET', `/v1/visit/${id}`)).status === 200;
  const [atHub, ...atSiblings] = await Promise.all([
    until(holds(hub.url, hub.apiKey), answeredAt, watchMs),
    ...siblings.map((kiosk) => until(holds(kiosk.url, kiosk.apiKey), answeredAt, watchMs)),
  ]);
  return { atHub: atHub as number, atSiblings };
}

/** The hub, its company's admin key, and where a command makes another key of the company. */
export interface FanoutHub {
  url: string;
  apiKey: string;
  companyId: string;
  dataDir: string;
  database: string;
}

/** A `sync` key of the company, made on the hub with the command line (`portaria keys create`). */
async function syncKey(hub: FanoutHub, label: string): Promise<string> {
  const args = ['keys', 'create', '--data', hub.dataDir, '--database', hub.database, '--company', hub.companyId];
  return JSON.parse(await runCli([...args, '--role', 'sync', '--label', label])).key;
}

/** Starts the kiosks of the hub's company (one after the other: each runs the command line twice), measures, stops. */
export async function measureFanout(
  hub: FanoutHub,
  plan: FanoutPlan,
  log: (line: string) => void,
): Promise<FanoutFigures> {
  const kiosks: Kiosk[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < plan.kiosks; i++) {
      kiosks.push(await startKiosk(hub.url, await syncKey(hub, `Fan-out kiosk ${i}`)));
    }
    const startSeconds = (performance.now() - started) / 1000;
    log(`${plan.kiosks} kiosks online in ${startSeconds.toFixed(1)} s`);
    const atHub: number[] = [];
    const atSiblings: number[] = [];
    for (let i = 0; i < plan.checkins; i++) {
      const origin = kiosks[i % kiosks.length] as Kiosk;
      const times = await oneCheckin(
        hub,
        origin,
        kiosks.filter((k) => k !== origin),
        plan.watchMs,
      );
      atHub.push(times.atHub);
      atSiblings.push(...times.atSiblings);
    }
    return {
      kiosks: plan.kiosks,
      checkins: plan.checkins,
      atHub: latencyOf(atHub),
      atSiblings: latencyOf(atSiblings),
      startSeconds,
    };
  } finally {
    await Promise.all(kiosks.map((kiosk) => kiosk.stop()));
    for (const kiosk of kiosks) removeDir(kiosk.dataDir);
  }
}
