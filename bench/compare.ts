/**
 * The ceiling comparison: each hot endpoint driven with the same settings against Portaria and against the
 * minimal server of bench/ceiling.ts, each on its own copy of the same seeded database.
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
  /** The largest relative difference between two rounds of the ceiling on one endpoint (0 with one round). */
  ceilingSpread: number;
}

export interface CompareOptions {
  seeded: SeededData;
  /** Where the two copies of the database go (emptied first). */
  workDir: string;
  settings: LoadSettings;
  warmupSeconds: number;
  /** Rounds per endpoint, alternating which server goes first; figures are their mean. */
  rounds: number;
  endpoints?: readonly Endpoint[];
  /** Extra node arguments for the Portaria process (`--cpu-prof`). */
  portariaNodeArgs?: string[];
  log?: (line: string) => void;
}

function mean(figures: LoadFigures[]): LoadFigures {
  const avg = (f: (x: LoadFigures) => number) => figures.reduce((sum, x) => sum + f(x), 0) / figures.length;
  return {
    rps: avg((x) => x.rps),
    p50: avg((x) => x.p50),
    p99: avg((x) => x.p99),
    requests: figures.reduce((sum, x) => sum + x.requests, 0),
    failures: figures.reduce((sum, x) => sum + x.failures, 0),
    cpuUsPerRequest: avg((x) => x.cpuUsPerRequest),
  };
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
  const ceiling = await startCeiling(databaseFile(ceilingDir));
  const servers: { server: ServerProcess; key: string | undefined }[] = [
    { server: ceiling, key: undefined },
    { server: portaria, key: options.seeded.apiKey },
  ];
  const portariaPeak = peakRss(portaria);
  const ceilingPeak = peakRss(ceiling);
  const comparisons: Comparison[] = [];
  let ceilingSpread = 0;
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
      const ceilingRps = ceilingRuns.map((r) => r.rps);
      const spread = (Math.max(...ceilingRps) - Math.min(...ceilingRps)) / (Math.max(...ceilingRps) || 1);
      ceilingSpread = Math.max(ceilingSpread, spread);
      const comparison = {
        endpoint,
        portaria: mean(portariaRuns),
        ceiling: mean(ceilingRuns),
        ratio: mean(portariaRuns).rps / mean(ceilingRuns).rps,
      };
      comparisons.push(comparison);
      log(
        `${endpoint.label}: Portaria ${comparison.portaria.rps.toFixed(0)} req/s, ceiling ` +
          `${comparison.ceiling.rps.toFixed(0)} req/s, ratio ${comparison.ratio.toFixed(2)}`,
      );
    }
  } finally {
    portariaPeakRssMb = portariaPeak.stop();
    ceilingPeakRssMb = ceilingPeak.stop();
    await Promise.all([portaria.stop(), ceiling.stop()]);
  }
  return { comparisons, portariaPeakRssMb, ceilingPeakRssMb, ceilingSpread };
}
