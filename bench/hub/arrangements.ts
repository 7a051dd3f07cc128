/**
 * The hub as kiosks meet it, on SQLite and on PostgreSQL: simulated kiosks push their check-ins and check-outs
 * (`POST /v1/sync/push`, batches of 100 as a kiosk sends them, one batch at a time per kiosk) and pull the change
 * feed (`GET /v1/sync/changes`, full passes in pages of 500), against one hub process on SQLite, one on
 * PostgreSQL, and two on the same PostgreSQL database (the kiosks split between them, as a load balancer would).
 * The cluster is this run's own (test/helpers/postgres.ts `startCluster`), in a temporary folder.
 */

import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Cluster,
  createDatabase,
  dropDatabase,
  startCluster,
  transactionCounts,
} from '../../test/helpers/postgres.ts';
import type { LatencyFigures } from '../load.ts';
import { loggedErrors, type ServerProcess, startPortaria } from '../servers.ts';
import { createCompany, newKiosks, pullAll, pushAll } from './simulated-kiosks.ts';

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
    const kiosks = newKiosks(plan.kiosks, companies);
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
