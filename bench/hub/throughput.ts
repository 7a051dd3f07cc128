/**
 * Push and pull through the hub on PostgreSQL against the bare server of bare-server.ts on the same cluster, on
 * loopback and behind the delay proxy: simulated kiosks push at once, then pull full passes of the feed, then poll
 * idle; meanwhile a cheap GET is timed, and pg_stat_statements counts what each phase sent to the database.
 */
import { mkdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { getOnce, type LatencyFigures, latencyOf } from '../load.ts';
import { loggedErrors, repoRoot, type ServerProcess, startPortaria, startProcess } from '../servers.ts';
import type { BenchCluster, StatementCount, StatementCounter } from './cluster.ts';
import {
  answered,
  type Company,
  createCompany,
  followToEnd,
  idlePolls,
  type Kiosk,
  newKiosks,
  noteRefusal,
  pullAll,
  pushAll,
  type Refusals,
} from './simulated-kiosks.ts';

export interface ThroughputPlan {
  kiosks: number;
  companies: number;
  batchSize: number;
  /** Most batches a kiosk pushes; no batch starts after `pushSeconds`. */
  batchesPerKiosk: number;
  pushSeconds: number;
  pullSeconds: number;
  /** Idle polls per kiosk once it follows the feed. */
  idlePolls: number;
  /** Seconds the cheap GET is timed with nothing else running. */
  idleProbeSeconds: number;
  /** The delay proxy's delay, each way, ms. */
  delayMs: number;
  /**
   * Kiosks of the delayed run: fewer, so that a service that waits for each statement's round trip in turn is
   * measured in bounded time (its pages and idle polls queue behind its pushes).
   */
  delayedKiosks: number;
}

export type Target = 'hub' | 'bare';
export type Network = 'loopback' | 'delayed';

/** Statements per operation: all of them, and those that are not BEGIN/COMMIT/ROLLBACK/SAVEPOINT/RELEASE. */
export interface PerOperation {
  all: number;
  withoutTransactionControl: number;
  top: StatementCount['top'];
}

export interface TargetFigures {
  pushPerSecond: number;
  push: LatencyFigures;
  /** Server CPU per applied mutation (the service's process; PostgreSQL's not counted), µs. */
  cpuUsPerMutation: number;
  pullRowsPerSecond: number;
  /** Rows a pulled page held on average (the kiosks' companies' feeds are short in a quick run). */
  rowsPerPage: number;
  pull: LatencyFigures;
  idlePoll: LatencyFigures;
  cheapIdle: LatencyFigures;
  cheapDuringPush: LatencyFigures;
  statements: { cheap: PerOperation; mutation: PerOperation; page: PerOperation; poll: PerOperation };
  /** Mutations answered other than `applied`, idle polls answered with changes. */
  failures: number;
  /** Requests answered other than 200 (pushes and pages were sent again), by phase. */
  refused: { push: Refusals; pull: Refusals; poll: Refusals; cheap: Refusals };
  /** What the service logged of its errors, when it answered some requests with one (`loggedErrors`). */
  logged: string;
}

export type TargetOutcome = TargetFigures | { failed: string };

/** Times one GET at a time (10 ms apart, so the probe itself is light) until stopped, and its refusals. */
function probe(url: string, path: string, apiKey: string): { stop(): Promise<LatencyFigures & { refused: Refusals }> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const durations: number[] = [];
  const refused: Refusals = {};
  let running = true;
  const loop = (async () => {
    while (running) {
      const sent = performance.now();
      const reply = await answered(getOnce(url, path, apiKey, agent));
      durations.push(performance.now() - sent);
      if (reply.status !== 200) noteRefusal(refused, reply);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop.finally(() => agent.destroy());
      return { ...latencyOf(durations), refused };
    },
  };
}

const cheapPath = '/v1/hosts?limit=1';

function perOperation(count: StatementCount, operations: number): PerOperation {
  const per = (n: number) => (operations > 0 ? n / operations : Number.NaN);
  return {
    all: per(count.calls),
    withoutTransactionControl: per(count.calls - count.transactionControl),
    top: count.top,
  };
}

function mergedRefusals(...all: Refusals[]): Refusals {
  const merged: Refusals = {};
  for (const refusals of all) {
    for (const [key, n] of Object.entries(refusals)) merged[key] = (merged[key] ?? 0) + n;
  }
  return merged;
}

/** `count` less `scale` times `probe`'s statements (the probe's requests of a phase, at its rate counted alone). */
function withoutProbe(count: StatementCount, probe: StatementCount, scale: number): StatementCount {
  return {
    calls: count.calls - probe.calls * scale,
    transactionControl: count.transactionControl - probe.transactionControl * scale,
    top: count.top,
  };
}

/** The service under test on `databaseUrl` (direct or through the proxy), and its companies. */
async function startTarget(
  target: Target,
  workDir: string,
  databaseUrl: string,
  directUrl: string,
  companies: number,
): Promise<{ server: ServerProcess; companies: Company[] }> {
  if (target === 'bare') {
    const script = join(repoRoot, 'bench/hub/bare-server.ts');
    const server = await startProcess(['--import', 'tsx', script, '--database', databaseUrl]);
    // The bare server takes the bearer token as the company id.
    const ids = Array.from({ length: companies }, (_, i) => `bare-company-${i}`);
    return { server, companies: ids.map((id) => ({ id, apiKey: id })) };
  }
  const dataDir = join(workDir, 'hub');
  mkdirSync(dataDir, { recursive: true });
  const server = await startPortaria(dataDir, [], { serveArgs: ['--database', databaseUrl] });
  const made = Array.from({ length: companies }, (_, i) => createCompany(dataDir, directUrl, `Bench Hub ${i}`));
  return { server, companies: made };
}

/** Push (with the cheap GET timed alongside), pull, idle polls: each phase's statements counted on its own. */
async function drive(
  server: ServerProcess,
  kiosks: Kiosk[],
  plan: ThroughputPlan,
  statements: { counter: StatementCounter; database: string },
): Promise<Omit<TargetFigures, 'logged'>> {
  const urlOf = () => server.url;
  const key = (kiosks[0] as Kiosk).company.apiKey;
  await statements.counter.reset();
  const idleProbe = probe(server.url, cheapPath, key);
  await new Promise((resolve) => setTimeout(resolve, plan.idleProbeSeconds * 1000));
  const cheapIdle = await idleProbe.stop();
  const cheapStatements = await statements.counter.count(statements.database);

  await statements.counter.reset();
  const cpuBefore = server.cpuMs();
  const busyProbe = probe(server.url, cheapPath, key);
  const pushed = await pushAll(kiosks, { ...plan, seconds: plan.pushSeconds, sendAgain: true }, urlOf).catch(
    async (error) => {
      // The probe would go on otherwise, keeping the bench alive.
      await busyProbe.stop().catch(() => undefined);
      throw error;
    },
  );
  const cheapDuringPush = await busyProbe.stop();
  const cpuMs = server.cpuMs() - cpuBefore;
  // The probe's reads ran meanwhile: taken out at the rate counted while it ran alone.
  const pushStatements = withoutProbe(
    await statements.counter.count(statements.database),
    cheapStatements,
    cheapDuringPush.samples / Math.max(1, cheapIdle.samples),
  );

  await statements.counter.reset();
  const pulled = await pullAll(kiosks, plan.pullSeconds, urlOf, true);
  const pullStatements = await statements.counter.count(statements.database);

  const cursors = await followToEnd(kiosks, urlOf);
  await statements.counter.reset();
  const polled = await idlePolls(kiosks, cursors, plan.idlePolls, urlOf);
  const pollStatements = await statements.counter.count(statements.database);

  return {
    pushPerSecond: pushed.perSecond,
    push: pushed.latency,
    cpuUsPerMutation: pushed.applied > 0 ? (cpuMs * 1000) / pushed.applied : 0,
    pullRowsPerSecond: pulled.perSecond,
    rowsPerPage: pulled.pages > 0 ? pulled.rows / pulled.pages : 0,
    pull: pulled.latency,
    idlePoll: polled.latency,
    cheapIdle,
    cheapDuringPush,
    statements: {
      cheap: perOperation(cheapStatements, cheapIdle.samples),
      mutation: perOperation(pushStatements, pushed.applied),
      page: perOperation(pullStatements, pulled.pages),
      poll: perOperation(pollStatements, kiosks.length * plan.idlePolls),
    },
    failures: pushed.failures + polled.failures,
    refused: {
      push: pushed.refused,
      pull: pulled.refused,
      poll: polled.refused,
      cheap: mergedRefusals(cheapIdle.refused, cheapDuringPush.refused),
    },
  };
}

/** One target on one network, on a database of its own. */
export async function measureTarget(
  target: Target,
  network: Network,
  setup: { cluster: BenchCluster; proxyUrl: string; counter: StatementCounter; workDir: string },
  plan: ThroughputPlan,
): Promise<TargetFigures> {
  const database = await setup.cluster.database(`${target}_${network}`);
  const serverUrl = network === 'delayed' ? `${setup.proxyUrl}/${database.name}` : database.url;
  const workDir = join(setup.workDir, `${target}-${network}`);
  const { server, companies } = await startTarget(target, workDir, serverUrl, database.url, plan.companies);
  try {
    const kiosks = newKiosks(network === 'delayed' ? plan.delayedKiosks : plan.kiosks, companies);
    const figures = await drive(server, kiosks, plan, { counter: setup.counter, database: database.name });
    return { ...figures, logged: loggedErrors([server]) };
  } catch (error) {
    throw new Error(`${(error as Error).message}${loggedErrors([server])}`);
  } finally {
    await server.stop();
  }
}

/** The delay proxy in front of the cluster, as its own process; its URL as a PostgreSQL server address. */
export async function startDelayProxy(
  clusterUrl: string,
  delayMs: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(clusterUrl);
  const script = join(repoRoot, 'bench/hub/delay-proxy.ts');
  const proxy = await startProcess(['--import', 'tsx', script, '--target', target.host, '--delay', String(delayMs)]);
  return { url: `postgres://postgres@${new URL(proxy.url).host}`, stop: () => proxy.stop() };
}
