/**
 * The hub as kiosks meet it, on SQLite and on PostgreSQL: simulated kiosks push their check-ins and check-outs
 * (`POST /v1/sync/push`, batches of 100 as a kiosk sends them, one batch at a time per kiosk) and pull the change
 * feed (`GET /v1/sync/changes`, full passes in pages of 500), against one hub process on SQLite, one on
 * PostgreSQL, and two on the same PostgreSQL database (the kiosks split between them, as a load balancer would).
 * The cluster is this run's own (test/helpers/postgres.ts `startCluster`), in a temporary folder.
 */

import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import {
  type Cluster,
  createDatabase,
  dropDatabase,
  startCluster,
  transactionCounts,
} from '../test/helpers/postgres.ts';
import { type LatencyFigures, latencyOf, requestOnce } from './load.ts';
import { repoRoot, type ServerProcess, startPortaria } from './servers.ts';

export interface HubPlan {
  /** Simulated kiosks, spread evenly over `companies` companies. */
  kiosks: number;
  companies: number;
  /** Batches each kiosk pushes (a fixed amount, so every hub ends with the same rows to pull). */
  batchesPerKiosk: number;
  /** Mutations a batch holds: a kiosk sends at most 100 (docs/sync.md, "Push"). */
  batchSize: number;
  /** How long the kiosks pull full passes of the feed. */
  pullSeconds: number;
}

/** What kiosks measured against one arrangement of hub processes. */
export interface HubFigures {
  /** Mutations the hub applied per second, all kiosks together. */
  pushPerSecond: number;
  /** Latency of one push (one batch), ms. */
  push: LatencyFigures;
  /** Feed rows the kiosks received per second, all together. */
  pullRowsPerSecond: number;
  /** Latency of one page of the feed, ms. */
  pull: LatencyFigures;
  /** Server CPU (every hub process) per applied mutation, µs: PostgreSQL's own processes are not counted. */
  cpuUsPerMutation: number;
  /** Mutations not answered `applied`, and requests not answered 200. */
  failures: number;
  /**
   * PostgreSQL's transactions in the database over the whole arrangement, committed and rolled back (a
   * serialization failure the service retried is one rollback); absent on SQLite.
   */
  transactions?: { commits: number; rollbacks: number };
}

/** An arrangement's figures, or why it could not be measured (its first error). */
export type HubOutcome = HubFigures | { failed: string };

export interface HubRun {
  sqlite: HubOutcome;
  postgres: HubOutcome;
  postgresTwo: HubOutcome;
}

interface Company {
  id: string;
  apiKey: string;
}

const cliPath = join(repoRoot, 'main/cli/portaria.mjs');

/** Creates a company with the command line (as an operator does), on the data folder's SQLite or on `database`. */
function createCompany(dataDir: string, database: string | undefined, name: string): Company {
  const args = ['company', 'create', '--data', dataDir, '--name', name, '--timezone', 'UTC'];
  if (database) args.push('--database', database);
  const made = JSON.parse(execFileSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' })) as Company;
  return { id: made.id, apiKey: made.apiKey };
}

/** A kiosk as the hub sees it: its client id, its next mutation id, its clock, its company's key. */
interface Kiosk {
  clientId: string;
  node: string;
  company: Company;
  nextId: number;
  /** The visits it checked in and has not checked out yet. */
  inside: string[];
}

function hlc(node: string, counter: number): string {
  return `${String(Date.now()).padStart(15, '0')}-${(counter % 0x10000).toString(16).padStart(4, '0')}-${node}`;
}

/**
 * The kiosk's next batch, as its outbox makes them: a walk-in's check-in, then the check-out of the visitor who came
 * in before (every other mutation), so the hub runs both of a kiosk's busiest mutations.
 */
function nextBatch(kiosk: Kiosk, size: number) {
  const mutations = [];
  for (let i = 0; i < size; i++) {
    const id = kiosk.nextId++;
    const at = new Date().toISOString();
    const leaving = i % 2 === 1 ? kiosk.inside.shift() : undefined;
    if (leaving) {
      mutations.push({
        id,
        name: 'visit.checkout',
        hlc: hlc(kiosk.node, id),
        args: { id: leaving, checkout: { checkoutAt: at } },
      });
    } else {
      const visit = randomUUID();
      kiosk.inside.push(visit);
      mutations.push({
        id,
        name: 'visit.checkin',
        hlc: hlc(kiosk.node, id),
        args: { visit: { id: visit, checkinAt: at }, visitor: { name: `Bench Visitor ${id}` } },
      });
    }
  }
  return { clientId: kiosk.clientId, mutations };
}

type Send = (method: 'GET' | 'POST', path: string, body?: string) => Promise<{ status: number; body: string }>;

/**
 * Runs `each` for every kiosk at once, over one kept-alive agent; `send` makes a request to the kiosk's process
 * (`urlOf`) with its company's key and records its latency. Answers the elapsed seconds and the latencies.
 */
async function everyKiosk(
  kiosks: Kiosk[],
  urlOf: (i: number) => string,
  each: (kiosk: Kiosk, send: Send) => Promise<void>,
): Promise<{ seconds: number; latency: LatencyFigures }> {
  const agent = new Agent({ keepAlive: true });
  const durations: number[] = [];
  const started = performance.now();
  try {
    await Promise.all(
      kiosks.map((kiosk, i) =>
        each(kiosk, async (method, path, body) => {
          const sent = performance.now();
          const options = body === undefined ? { agent } : { agent, body };
          const reply = await requestOnce(urlOf(i), method, path, kiosk.company.apiKey, options);
          durations.push(performance.now() - sent);
          return reply;
        }),
      ),
    );
  } finally {
    agent.destroy();
  }
  return { seconds: (performance.now() - started) / 1000, latency: latencyOf(durations) };
}

/** Each kiosk pushes its batches one after the other, all kiosks at once. */
async function pushAll(kiosks: Kiosk[], plan: HubPlan, urlOf: (i: number) => string) {
  let applied = 0;
  let failures = 0;
  const run = await everyKiosk(kiosks, urlOf, async (kiosk, send) => {
    for (let b = 0; b < plan.batchesPerKiosk; b++) {
      const reply = await send('POST', '/v1/sync/push', JSON.stringify(nextBatch(kiosk, plan.batchSize)));
      if (reply.status !== 200) throw new Error(`push answered ${reply.status}: ${reply.body.slice(0, 300)}`);
      const results = (JSON.parse(reply.body) as { results: { result: string }[] }).results;
      const ok = results.filter((r) => r.result === 'applied').length;
      applied += ok;
      failures += results.length - ok;
    }
  });
  return { perSecond: applied / run.seconds, latency: run.latency, applied, failures };
}

/** Each kiosk pulls full passes of its company's feed (from no cursor to the end), for `seconds`. */
async function pullAll(kiosks: Kiosk[], seconds: number, urlOf: (i: number) => string) {
  let rows = 0;
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const run = await everyKiosk(kiosks, urlOf, async (kiosk, send) => {
    let since: string | undefined;
    while (performance.now() < until) {
      const query = `limit=500&clientId=${kiosk.clientId}${since ? `&since=${encodeURIComponent(since)}` : ''}`;
      const reply = await send('GET', `/v1/sync/changes?${query}`);
      if (reply.status !== 200) {
        failures++;
        continue;
      }
      const page = JSON.parse(reply.body) as { changes: unknown[]; cursor: string; hasMore: boolean };
      rows += page.changes.length;
      since = page.hasMore ? page.cursor : undefined;
    }
  });
  return { perSecond: rows / run.seconds, latency: run.latency, failures };
}

/**
 * Starts `processes` hub processes on one database (SQLite: the data folder's, one process only), makes the
 * companies and the kiosks, pushes, pulls, stops.
 */
async function measureArrangement(
  workDir: string,
  database: { server: string; name: string } | undefined,
  processes: number,
  plan: HubPlan,
  log: (line: string) => void,
): Promise<HubFigures> {
  // Each process has a data folder of its own holding the same device.key, as deployed hubs do (docs/deployment.md).
  const dirs = Array.from({ length: processes }, (_, i) => join(workDir, `hub-${i}`));
  for (const dir of dirs) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }
  const url = database && `${database.server}/${database.name}`;
  const serveArgs = url ? ['--database', url] : [];
  const first = await startPortaria(dirs[0] as string, [], { serveArgs });
  const servers: ServerProcess[] = [first];
  try {
    const companies = Array.from({ length: plan.companies }, (_, i) =>
      createCompany(dirs[0] as string, url, `Bench Hub ${i}`),
    );
    for (const dir of dirs.slice(1)) {
      copyFileSync(join(dirs[0] as string, 'device.key'), join(dir, 'device.key'));
      servers.push(await startPortaria(dir, [], { serveArgs }));
    }
    const kiosks: Kiosk[] = Array.from({ length: plan.kiosks }, (_, i) => ({
      clientId: `bench-kiosk-${i}-${randomBytes(4).toString('hex')}`,
      node: randomBytes(8).toString('hex'),
      company: companies[i % companies.length] as Company,
      nextId: 1,
      inside: [],
    }));
    const urlOf = (i: number) => (servers[i % servers.length] as ServerProcess).url;
    const cpuBefore = servers.reduce((sum, s) => sum + s.cpuMs(), 0);
    const pushed = await pushAll(kiosks, plan, urlOf);
    const cpuMs = servers.reduce((sum, s) => sum + s.cpuMs(), 0) - cpuBefore;
    const pulled = await pullAll(kiosks, plan.pullSeconds, urlOf);
    await Promise.all(servers.map((s) => s.stop()));
    const figures: HubFigures = {
      pushPerSecond: pushed.perSecond,
      push: pushed.latency,
      pullRowsPerSecond: pulled.perSecond,
      pull: pulled.latency,
      cpuUsPerMutation: pushed.applied > 0 ? (cpuMs * 1000) / pushed.applied : 0,
      failures: pushed.failures + pulled.failures,
      ...(database && { transactions: await transactionCounts(database.server, database.name) }),
    };
    log(
      `${database ? `PostgreSQL, ${processes} process(es)` : 'SQLite'}: push ${figures.pushPerSecond.toFixed(0)} ` +
        `mutations/s (p99 ${figures.push.p99.toFixed(0)} ms), pull ${figures.pullRowsPerSecond.toFixed(0)} rows/s ` +
        `(p99 ${figures.pull.p99.toFixed(0)} ms)` +
        (figures.transactions
          ? `, ${figures.transactions.rollbacks} of ${figures.transactions.commits + figures.transactions.rollbacks} ` +
            'transactions rolled back'
          : ''),
    );
    return figures;
  } catch (error) {
    throw new Error(`${(error as Error).message}${loggedErrors(servers)}`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/**
 * What the processes said of a failure: the messages of the errors they logged (pino's JSON lines), and for a
 * process that ended by itself, how it ended and the last line it wrote that was not the log's.
 */
function loggedErrors(servers: ServerProcess[]): string {
  const said = new Set<string>();
  for (const [i, server] of servers.entries()) {
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '');
    for (const line of lines) {
      try {
        const message = (JSON.parse(line) as { err?: { message?: string } }).err?.message;
        if (message) said.add(message);
      } catch {
        // A line cut by the 64 KiB window, or not the log's: kept below if the process ended.
      }
    }
    const ended = server.ended();
    if (ended) {
      const last = lines.filter((line) => !line.startsWith('{')).pop();
      said.add(`process ${i + 1} ${ended}${last ? `: ${last.trim().slice(0, 300)}` : ''}`);
    }
  }
  return said.size > 0 ? ` (${[...said].join('; ')})` : '';
}

/** The three arrangements in turn, on a cluster of this run's own (or the server PORTARIA_BENCH_POSTGRES names). */
export async function measureHubs(workDir: string, plan: HubPlan, log: (line: string) => void): Promise<HubRun> {
  const given = process.env.PORTARIA_BENCH_POSTGRES;
  const cluster: Cluster | undefined = given ? undefined : await startCluster();
  const server = given ?? (cluster as Cluster).url;
  // A fresh database for each arrangement, so both PostgreSQL runs start from the same (empty) state.
  const created: string[] = [];
  const freshDatabase = async () => {
    const name = `portaria_bench_hub_${randomBytes(6).toString('hex')}`;
    created.push(name);
    await createDatabase(server, name);
    return { server, name };
  };
  const attempt = (
    dir: string,
    database: { server: string; name: string } | undefined,
    processes: number,
  ): Promise<HubOutcome> =>
    measureArrangement(join(workDir, dir), database, processes, plan, log).catch((error: Error) => {
      log(`${dir}: ${error.message}`);
      return { failed: error.message.split('\n')[0] as string };
    });
  try {
    const sqlite = await attempt('sqlite', undefined, 1);
    const postgres = await attempt('pg-one', await freshDatabase(), 1);
    const postgresTwo = await attempt('pg-two', await freshDatabase(), 2);
    return { sqlite, postgres, postgresTwo };
  } finally {
    if (cluster) cluster.stop();
    else for (const name of created) await dropDatabase(server, name);
    rmSync(workDir, { recursive: true, force: true });
  }
}
