/**
 * Event-loop delay while a burst of check-ins hits the service, in the two arrangements the product has:
 *
 *   in-process  the service in this process: browser mode (`portaria serve`/`start --browser`), and the shell
 *               before the service moved to its own process. The figure is the service's process's delay.
 *   child       the shell's arrangement: the service in a child process (main/service-child.ts, forked by the
 *               same ServiceSupervisor the shell uses, with child_process.fork standing in for Electron's
 *               utilityProcess). The figures are this process's delay (the shell's main process: window, IPC)
 *               and the service process's own, measured over the same burst.
 *
 *   node --import tsx bench/event-loop.ts [--mode both|in-process|child] [--requests 2000] [--concurrency 50]
 *
 * The load comes from a worker thread with its own event loop, so sending requests does not count as delay.
 * Each check-in (POST /v1/visits, walk-in) commits its own transaction with an fsync (synchronous=FULL), and
 * queues the domain events' jobs, which the service's worker drains in the service's process during the burst.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createCompany } from '../local-api/companies/store.ts';
import { startService } from '../local-api/server.ts';
import { ServiceSupervisor } from '../main/service.ts';
import { nodeServiceProcess, type ServiceProcess, serviceChildEntry } from '../main/service-process.ts';

const { values } = parseArgs({
  options: { mode: { type: 'string' }, requests: { type: 'string' }, concurrency: { type: 'string' } },
});
const mode = values.mode ?? 'both';
const requests = Number(values.requests ?? 2000);
const concurrency = Number(values.concurrency ?? 50);

/** The load: `requests` walk-in check-ins, `concurrency` at a time, from the worker's own event loop. */
const loadScript = `
const { parentPort, workerData } = require('node:worker_threads');
const { randomUUID } = require('node:crypto');
const { url, apiKey, hostId, requests, concurrency } = workerData;
let next = 0;
const statuses = {};
async function lane() {
  while (next < requests) {
    const i = next++;
    const response = await fetch(url + '/v1/visits', {
      method: 'POST',
      headers: { authorization: 'Bearer ' + apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        visit: { id: randomUUID(), hostId },
        visitor: { name: 'Visitor ' + i, email: 'visitor' + i + '@bench.test', company: 'Initech' },
      }),
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
}
const started = performance.now();
Promise.all(Array.from({ length: concurrency }, lane)).then(() =>
  parentPort.postMessage({ statuses, ms: performance.now() - started }),
);
`;

interface Delay {
  p50: number;
  p99: number;
  max: number;
}

interface Burst {
  statuses: Record<string, number>;
  ms: number;
  /** This process's event-loop delay over the burst, in nanoseconds. */
  delay: Delay;
}

async function createHost(url: string, apiKey: string): Promise<string> {
  const host = await fetch(`${url}/v1/hosts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Helena Host', email: `helena-${randomUUID()}@bench.test` }),
  });
  return ((await host.json()) as { id: string }).id;
}

/** Sends the burst and measures this process's event-loop delay meanwhile. */
async function burst(url: string, apiKey: string): Promise<Burst> {
  const hostId = await createHost(url, apiKey);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const result = await new Promise<{ statuses: Record<string, number>; ms: number }>((resolve, reject) => {
    const worker = new Worker(loadScript, { eval: true, workerData: { url, apiKey, hostId, requests, concurrency } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  delay.disable();
  return { ...result, delay: { p50: delay.percentile(50), p99: delay.percentile(99), max: delay.max } };
}

const ms = (ns: number) => (ns / 1e6).toFixed(1);
const shown = (delay: Delay) => `p50 ${ms(delay.p50)} ms, p99 ${ms(delay.p99)} ms, max ${ms(delay.max)} ms`;
const summary = (result: Burst) =>
  `${requests} check-ins (POST /v1/visits), ${concurrency} at a time: ${(requests / (result.ms / 1000)).toFixed(0)} ` +
  `req/s, statuses ${JSON.stringify(result.statuses)}`;

async function inProcess(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portaria-bench-'));
  const service = await startService({ port: 0, dataDir, logLevel: 'warn' });
  try {
    const { apiKey } = await createCompany(service.ctx, { name: 'Bench', timezone: 'America/Sao_Paulo' });
    const result = await burst(service.url, apiKey);
    process.stdout.write(
      `in-process: ${summary(result)}\n  event-loop delay of the service's process: ${shown(result.delay)}\n`,
    );
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The probe answers as soon as the service's process is idle again: within a few milliseconds of the burst. */
async function probeResult(file: string): Promise<Delay> {
  for (let waited = 0; waited < 5000; waited += 20) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Delay;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the service process did not report its event-loop delay');
}

async function inChild(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portaria-bench-'));
  const probeFile = join(dataDir, 'loop-probe.json');
  process.env.PORTARIA_BENCH_PROBE = probeFile;
  let child: ServiceProcess | undefined;
  const fork = nodeServiceProcess(serviceChildEntry('ts'), ['--import', import.meta.resolve('./loop-probe.ts')]);
  const log = { info() {}, warn() {}, error: (data: object, message: string) => console.error(message, data) };
  const supervisor = new ServiceSupervisor({
    dataDir,
    port: 0,
    deviceKey: randomBytes(32),
    companyName: 'Bench',
    fork: () => {
      child = fork();
      return child;
    },
    log,
    logLevel: 'warn',
  });
  try {
    const service = await supervisor.start();
    const pid = child?.pid;
    if (pid === undefined) throw new Error('the service process has no pid');
    process.kill(pid, 'SIGUSR2');
    if (!service.firstStart) throw new Error('the service made no company on its first start');
    const result = await burst(service.url, service.firstStart.apiKey);
    process.kill(pid, 'SIGUSR2');
    const serviceDelay = await probeResult(probeFile);
    process.stdout.write(
      `child process: ${summary(result)}\n` +
        `  event-loop delay of the parent (the shell's main process): ${shown(result.delay)}\n` +
        `  event-loop delay of the service's process:                 ${shown(serviceDelay)}\n`,
    );
  } finally {
    await supervisor.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (mode === 'both' || mode === 'in-process') await inProcess();
if (mode === 'both' || mode === 'child') await inChild();
