/** What `npm run bench:hub` measures and how much: the phases to run and their sizes, quick or full. */
import type { FanoutPlan } from './fanout.ts';
import type { KioskPathPlan } from './kiosk-path.ts';
import type { ThroughputPlan } from './throughput.ts';

export const phases = ['push', 'drain', 'fanout', 'first-sync', 'kiosk-path'] as const;
export type Phase = (typeof phases)[number];

export interface HubBenchPlan {
  throughput: ThroughputPlan;
  /** Offline check-ins drained to each hub. */
  drainCheckins: number;
  fanout: FanoutPlan;
  /** Visits of the company a new kiosk joins. */
  historyVisits: number;
  kioskPath: KioskPathPlan;
}

export const quickPlan: HubBenchPlan = {
  throughput: {
    kiosks: 4,
    companies: 2,
    batchSize: 50,
    batchesPerKiosk: 2,
    pushSeconds: 3,
    pullSeconds: 1,
    idlePolls: 5,
    idleProbeSeconds: 0.5,
    delayMs: 1,
    delayedKiosks: 2,
  },
  drainCheckins: 1000,
  fanout: { kiosks: 4, checkins: 3, watchMs: 25 },
  historyVisits: 200_000,
  kioskPath: {
    counts: { hosts: 50, invitees: 5000, visits: 5000 },
    load: { connections: 10, seconds: 1 },
    warmupSeconds: 0.5,
    rounds: 2,
  },
};

export const fullPlan: HubBenchPlan = {
  throughput: {
    kiosks: 20,
    companies: 4,
    batchSize: 100,
    batchesPerKiosk: 5,
    pushSeconds: 20,
    pullSeconds: 5,
    idlePolls: 20,
    idleProbeSeconds: 2,
    delayMs: 1,
    delayedKiosks: 5,
  },
  drainCheckins: 10_000,
  fanout: { kiosks: 20, checkins: 10, watchMs: 50 },
  historyVisits: 2_000_000,
  kioskPath: {
    counts: { hosts: 100, invitees: 30_000, visits: 30_000 },
    load: { connections: 10, seconds: 1.5 },
    warmupSeconds: 1,
    rounds: 4,
  },
};

/** The phases named in `--only` (all when absent); an unknown name is an error that lists the known ones. */
export function chosenPhases(only: string | undefined): Phase[] {
  if (!only) return [...phases];
  const names = only.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(phases as readonly string[]).includes(name)) {
      throw new Error(`unknown phase ${name}: the phases are ${phases.join(', ')}`);
    }
  }
  return phases.filter((phase) => names.includes(phase));
}

/** Sizes given on the command line (or PORTARIA_BENCH_HUB_VISITS), over the quick or full plan. */
export interface SizeOverrides {
  kiosks?: string | undefined;
  fanoutKiosks?: string | undefined;
  drain?: string | undefined;
  visits?: string | undefined;
}

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0, not ${value}`);
  return n;
}

export function sizedPlan(base: HubBenchPlan, sizes: SizeOverrides): HubBenchPlan {
  const kiosks = count('--kiosks', sizes.kiosks);
  const fanoutKiosks = count('--fanout-kiosks', sizes.fanoutKiosks);
  // A fan-out needs a kiosk to check in at and another to receive it.
  if (fanoutKiosks === 1) throw new Error('--fanout-kiosks must be at least 2');
  return {
    ...base,
    throughput: { ...base.throughput, ...(kiosks && { kiosks }) },
    fanout: { ...base.fanout, ...(fanoutKiosks && { kiosks: fanoutKiosks }) },
    drainCheckins: count('--drain', sizes.drain) ?? base.drainCheckins,
    historyVisits: count('--visits', sizes.visits) ?? base.historyVisits,
  };
}
