/**
 * The ceiling comparison: each hot endpoint driven with the same settings against Portaria and against the
 * minimal server of bench/ceiling.ts (or another reference: Portaria as an earlier commit built it), each on its
 * own copy of the same seeded database.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type LoadFigures, type LoadSettings, load, type RequestShape } from './load.ts';
import { databaseFile, type SeededData } from './seed.ts';
import { peakRss, type ServerProcess, startCeiling, startPortaria } from './servers.ts';

export interface HotIds {
  visits: string[];
  invitees: string[];
}

export interface Endpoint {
  /** Key of the figures in the JSON line. */
  key: string;
  label: string;
  shape(ids: HotIds): RequestShape;
}

const pick = (list: string[], i: number) => list[i % list.length] as string;

export const hotEndpoints: readonly Endpoint[] = [
  {
    key: 'visit_get',
    label: 'GET /v1/visit/:id',
    shape: (ids) => ({ method: 'GET', path: '/', next: (i) => ({ path: `/v1/visit/${pick(ids.visits, i)}` }) }),
  },
  {
    key: 'walkin',
    label: 'POST /v1/visits (walk-in)',
    shape: () => ({
      method: 'POST',
      path: '/v1/visits',
      next: () => ({
        path: '/v1/visits',
        body: JSON.stringify({ visit: { id: randomUUID() }, visitor: { name: 'Walk-in Visitor' } }),
      }),
    }),
  },
  {
    key: 'invitee_checkin',
    label: 'POST /v1/visit/inviteeCheckin/:id',
    shape: (ids) => ({
      method: 'POST',
      path: '/',
      body: '{}',
      next: (i) => ({ path: `/v1/visit/inviteeCheckin/${pick(ids.invitees, i)}` }),
    }),
  },
  {
    key: 'checkout',
    label: 'PATCH /v1/visit/checkout/:id',
    shape: (ids) => ({
      method: 'PATCH',
      path: '/',
      body: '{}',
      next: (i) => ({ path: `/v1/visit/checkout/${pick(ids.visits, i)}` }),
    }),
  },
];

/** The visit and invitee ids of a seeded database, in insertion order. */
export function hotIds(dbFile: string): HotIds {
  const db = new Database(dbFile, { readonly: true });
  const ids = (table: string) =>
    (db.prepare(`SELECT id FROM ${table} ORDER BY rowid`).all() as { id: string }[]).map((r) => r.id);
  const result = { visits: ids('visits'), invitees: ids('invitees') };
  db.close();
  return result;
}

export interface Comparison {
  endpoint: Endpoint;
  portaria: LoadFigures;
  ceiling: LoadFigures;
  /** Portaria's requests/s ÷ the ceiling's. */
  ratio: number;
}

export interface ComparisonRun {
  comparisons: Comparison[];
  /** Peak resident memory of the Portaria process while it was driven. */
  portariaPeakRssMb: number;
  ceilingPeakRssMb: number;
  /** How much the ceiling's requests/s varied between rounds (standard deviation ÷ mean, averaged over endpoints). */
  ceilingVariation: number;
}

export interface CompareOptions {
  seeded: SeededData;
  /** Where the two copies of the database go (emptied first). */
  workDir: string;
  settings: LoadSettings;
  warmupSeconds: number;
  /**
   * Rounds per endpoint, the servers taking turns (A B B A…) so that both meet the same moments of a shared
   * machine's load; figures combine the rounds.
   */
  rounds: number;
  endpoints?: readonly Endpoint[];
  /** Extra node arguments for the Portaria process (`--cpu-prof`). */
  portariaNodeArgs?: string[];
  /**
   * The server the figures are held against, started on its copy's folder, and the key it takes: the ceiling
   * (no key) unless given.
   */
  reference?: { label: string; start(dir: string): Promise<ServerProcess>; apiKey?: string };
  log?: (line: string) => void;
}

/** Rounds of equal length combined: mean requests/s and latencies, CPU weighted by the requests answered. */
function combine(rounds: LoadFigures[]): LoadFigures {
  const sum = (f: (x: LoadFigures) => number) => rounds.reduce((total, x) => total + f(x), 0);
  const requests = sum((x) => x.requests);
  return {
    rps: sum((x) => x.rps) / rounds.length,
    p50: sum((x) => x.p50) / rounds.length,
    p99: sum((x) => x.p99) / rounds.length,
    requests,
    failures: sum((x) => x.failures),
    cpuUsPerRequest: requests > 0 ? sum((x) => x.cpuUsPerRequest * x.requests) / requests : 0,
  };
}

/** Standard deviation ÷ mean: how much the same server's requests/s moved from one round to the next. */
function variation(values: number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length;
  return mean > 0 ? Math.sqrt(variance) / mean : 0;
}

/** Copies the seeded database for each server, starts both, drives every endpoint on each, stops them. */
export async function compareWithCeiling(options: CompareOptions): Promise<ComparisonRun> {
  const log = options.log ?? (() => {});
  const ids = hotIds(databaseFile(options.seeded.dir));
  const portariaDir = join(options.workDir, 'portaria');
  const ceilingDir = join(options.workDir, 'ceiling');
  for (const dir of [portariaDir, ceilingDir]) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(databaseFile(options.seeded.dir), databaseFile(dir));
  }
  const portaria = await startPortaria(portariaDir, options.portariaNodeArgs);
  const reference = options.reference ?? { label: 'ceiling', start: (dir: string) => startCeiling(databaseFile(dir)) };
  const ceiling = await reference.start(ceilingDir);
  const servers: { server: ServerProcess; key: string | undefined }[] = [
    { server: ceiling, key: reference.apiKey },
    { server: portaria, key: options.seeded.apiKey },
  ];
  const portariaPeak = peakRss(portaria);
  const ceilingPeak = peakRss(ceiling);
  const comparisons: Comparison[] = [];
  const variations: number[] = [];
  let portariaPeakRssMb = 0;
  let ceilingPeakRssMb = 0;
  try {
    for (const endpoint of options.endpoints ?? hotEndpoints) {
      const shape = endpoint.shape(ids);
      // Each server consumes the ids (invitees to check in, visits to check out) in the same order.
      const counters = servers.map(() => ({ next: 0 }));
      const runs = servers.map(() => [] as LoadFigures[]);
      if (options.warmupSeconds > 0) {
        for (const [i, { server, key }] of servers.entries()) {
          await load(server, key, shape, { ...options.settings, seconds: options.warmupSeconds }, counters[i]);
        }
      }
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const { server, key } = servers[i] as (typeof servers)[number];
          (runs[i] as LoadFigures[]).push(await load(server, key, shape, options.settings, counters[i]));
        }
      }
      const [ceilingRuns, portariaRuns] = runs as [LoadFigures[], LoadFigures[]];
      variations.push(variation(ceilingRuns.map((r) => r.rps)));
      const portaria = combine(portariaRuns);
      const ceiling = combine(ceilingRuns);
      const comparison = { endpoint, portaria, ceiling, ratio: portaria.rps / ceiling.rps };
      comparisons.push(comparison);
      log(
        `${endpoint.label}: Portaria ${comparison.portaria.rps.toFixed(0)} req/s, ${reference.label} ` +
          `${comparison.ceiling.rps.toFixed(0)} req/s, ratio ${comparison.ratio.toFixed(2)}`,
      );
    }
  } finally {
    portariaPeakRssMb = portariaPeak.stop();
    ceilingPeakRssMb = ceilingPeak.stop();
    await Promise.all([portaria.stop(), ceiling.stop()]);
  }
  const ceilingVariation = variations.reduce((a, b) => a + b, 0) / Math.max(1, variations.length);
  return { comparisons, portariaPeakRssMb, ceilingPeakRssMb, ceilingVariation };
}
