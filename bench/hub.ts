/**
 * `npm run bench:hub -- [--quick] [--only push,drain,fanout,first-sync,kiosk-path] [--base <commit>] [--notes]
 * [--markdown] [--kiosks N] [--fanout-kiosks N] [--drain N] [--visits N]`: the hub's bench of record. On a PostgreSQL cluster of its own with durable commits and
 * pg_stat_statements (bench/hub/cluster.ts), in temporary folders:
 *
 * - push: push and pull throughput of the hub against a bare node-postgres server (bench/hub/bare-server.ts), on
 *   loopback and behind a delay proxy, the statements per mutation, page and idle poll, and a cheap GET's latency
 *   while kiosks push (bench/hub/throughput.ts);
 * - drain: check-ins queued offline at one kiosk, drained to a SQLite hub and to a PostgreSQL hub;
 * - fanout: a check-in at one kiosk until every other kiosk of the hub holds it;
 * - first-sync: a new kiosk joining a company with a long history (2,000,000 visits, 200,000 with --quick; `--visits`
 *   or PORTARIA_BENCH_HUB_VISITS);
 * - kiosk-path: the SQLite kiosk path of this tree against `--base` (default: main's commit now).
 *
 * Prints one table (ratios: this tree's hub ÷ the reference; `--markdown` for docs/benchmarks.md), with `--notes`
 * the hub's most frequent statements of each phase under it, and every figure as one JSON object on the last line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { removeDir, startService } from '../test/helpers/service.ts';
import { type BenchCluster, StatementCounter, startBenchCluster } from './hub/cluster.ts';
import { type DrainFigures, drainOffline } from './hub/drain.ts';
import { measureFanout } from './hub/fanout.ts';
import { measureFirstSync } from './hub/first-sync.ts';
import { commitOf, measureKioskPath } from './hub/kiosk-path.ts';
import { chosenPhases, fullPlan, type HubBenchPlan, type Phase, quickPlan, sizedPlan } from './hub/plan.ts';
import {
  drainPart,
  fanoutPart,
  firstSyncPart,
  type Outcome,
  type Part,
  statementNotes,
  statementsPart,
  throughputPart,
} from './hub/sections.ts';
import { measureTarget, startDelayProxy, type TargetOutcome } from './hub/throughput.ts';
import { markdownTable, type Section, terminalTable } from './report.ts';
import { kioskPathPart } from './sections.ts';

/** The command line's options, or a usage error (its message, exit code 2). */
function options() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string' },
        base: { type: 'string' },
        notes: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        kiosks: { type: 'string' },
        'fanout-kiosks': { type: 'string' },
        drain: { type: 'string' },
        visits: { type: 'string' },
      },
    });
    const plan: HubBenchPlan = sizedPlan(values.quick ? quickPlan : fullPlan, {
      kiosks: values.kiosks,
      fanoutKiosks: values['fanout-kiosks'],
      drain: values.drain,
      visits: values.visits ?? process.env.PORTARIA_BENCH_HUB_VISITS,
    });
    return { values, plan, chosen: chosenPhases(values.only), base: commitOf(values.base ?? 'main') };
  } catch (error) {
    process.stderr.write(`bench:hub: ${(error as Error).message}\n`);
    process.exit(2);
  }
}

const { values, plan, chosen, base } = options();
const log = (line: string) => process.stderr.write(`${line}\n`);
const failure = (error: Error) => ({ failed: error.message.split('\n')[0] as string });
const workDir = mkdtempSync(join(tmpdir(), 'portaria-bench-hub-'));
// The built base commits are kept between runs (a commit does not change), outside the repository.
const baselines = join(tmpdir(), 'portaria-bench-baselines');

async function throughputPhase(cluster: BenchCluster, counter: StatementCounter): Promise<Part[]> {
  const proxy = await startDelayProxy(cluster.url, plan.throughput.delayMs);
  const run: Record<string, TargetOutcome> = {};
  try {
    for (const network of ['loopback', 'delayed'] as const) {
      for (const target of ['bare', 'hub'] as const) {
        log(`push and pull: ${target}, ${network}…`);
        const setup = { cluster, proxyUrl: proxy.url, counter, workDir };
        run[`${target}-${network}`] = await measureTarget(target, network, setup, plan.throughput).catch(failure);
      }
    }
  } finally {
    await proxy.stop();
  }
  const statements = statementsPart(run);
  return [
    throughputPart(run, plan.throughput),
    values.notes ? { ...statements, notes: statementNotes(run) } : statements,
  ];
}

async function drainTo(hubDatabase: string | undefined): Promise<Outcome<DrainFigures>> {
  const hub = await startService({
    ...(hubDatabase ? { database: hubDatabase } : {}),
    env: { PORTARIA_LOG_LEVEL: 'warn' },
  });
  try {
    return await drainOffline(hub.url, (await hub.company('Bench Drain', 'UTC')).apiKey, plan.drainCheckins);
  } catch (error) {
    return failure(error as Error);
  } finally {
    await hub.stop();
    removeDir(hub.dataDir);
  }
}

async function drainPhase(cluster: BenchCluster): Promise<Part[]> {
  log(`drain of ${plan.drainCheckins} offline check-ins: SQLite hub…`);
  const sqlite = await drainTo(undefined);
  log('drain: PostgreSQL hub…');
  const postgres = await drainTo((await cluster.database('drain')).url);
  return [drainPart({ sqlite, postgres })];
}

async function fanoutPhase(cluster: BenchCluster): Promise<Part[]> {
  log(`fan-out to ${plan.fanout.kiosks} kiosks…`);
  const database = await cluster.database('fanout');
  const hub = await startService({ database: database.url, env: { PORTARIA_LOG_LEVEL: 'warn' } });
  try {
    const company = await hub.company('Bench Fan-out', 'UTC');
    const at = {
      url: hub.url,
      apiKey: company.apiKey,
      companyId: company.id,
      dataDir: hub.dataDir,
      database: database.url,
    };
    const run = await measureFanout(at, plan.fanout, log).catch(failure);
    return [fanoutPart(run, plan.fanout.watchMs)];
  } finally {
    await hub.stop();
    removeDir(hub.dataDir);
  }
}

async function firstSyncPhase(cluster: BenchCluster, counter: StatementCounter): Promise<Part[]> {
  log(`first sync on ${plan.historyVisits.toLocaleString('en-US')} visits…`);
  const database = await cluster.database('history');
  const run = await measureFirstSync(database, plan.historyVisits, counter, log).catch(failure);
  return [firstSyncPart(run)];
}

async function kioskPathPhase(): Promise<Part[]> {
  log(`SQLite kiosk path: this tree vs ${base}…`);
  const run = await measureKioskPath(base, baselines, join(workDir, 'kiosk-path'), plan.kioskPath, log).catch(failure);
  return [kioskPathPart(run, base)];
}

/** Removes the cluster (its server runs on by itself) and the folders when the bench is interrupted. */
function cleanUpOnInterrupt(cluster: BenchCluster | undefined): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cluster?.stop();
      rmSync(workDir, { recursive: true, force: true });
      process.exit(130);
    });
  }
}

async function runPhases(): Promise<Part[]> {
  const needsCluster = chosen.some((phase) => phase !== 'kiosk-path');
  const cluster = needsCluster ? await startBenchCluster() : undefined;
  cleanUpOnInterrupt(cluster);
  const counter = cluster ? await StatementCounter.open(cluster.url) : undefined;
  const parts: Part[] = [];
  try {
    const run: Record<Phase, () => Promise<Part[]>> = {
      push: () => throughputPhase(cluster as BenchCluster, counter as StatementCounter),
      drain: () => drainPhase(cluster as BenchCluster),
      fanout: () => fanoutPhase(cluster as BenchCluster),
      'first-sync': () => firstSyncPhase(cluster as BenchCluster, counter as StatementCounter),
      'kiosk-path': kioskPathPhase,
    };
    for (const phase of chosen) parts.push(...(await run[phase]()));
  } finally {
    await counter?.close();
    cluster?.stop();
  }
  return parts;
}

const began = performance.now();
const loadAtStart = loadavg()[0] as number;
let parts: Part[];
try {
  parts = await runPhases();
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
const sections: Section[] = parts.map((part) => part.section);
const figures: Record<string, number> = Object.assign({}, ...parts.map((part) => part.figures));
const seconds = (performance.now() - began) / 1000;
const loadAtEnd = loadavg()[0] as number;
Object.assign(figures, { load_average_start: loadAtStart, load_average_end: loadAtEnd, bench_seconds: seconds });
process.stdout.write(
  `Hub bench (${values.quick ? 'quick' : 'full'}; ${chosen.join(', ')}): ratios are this tree's ÷ the reference.\n\n` +
    `${values.markdown ? markdownTable(sections) : terminalTable(sections)}\n\n` +
    parts
      .flatMap((part) => part.notes ?? [])
      .map((line) => `${line}\n`)
      .join('') +
    `Load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}; ${Math.round(seconds)} s.\n`,
);
const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
process.stdout.write(`${JSON.stringify(rounded)}\n`);
