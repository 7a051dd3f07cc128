/**
 * Event-loop delay of the process that runs the service while a burst of check-ins hits it: in the Electron
 * shell that process is the main process, which also runs the window's events, so its delay is how late the UI's
 * IPC answers and the service's timers can be (browser mode gives the same figure: the same service, one process).
 *
 *   node --import tsx bench/event-loop.ts [--requests 2000] [--concurrency 50]
 *
 * The service runs in this process, as in the shell; the load comes from a worker thread with its own event
 * loop, so sending requests does not count as the service's delay. Each check-in (POST /v1/visits, walk-in) also
 * queues the domain events' jobs, which the service's worker drains in the same process during the burst.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createCompany } from '../local-api/companies/store.ts';
import { startService } from '../local-api/server.ts';

const { values } = parseArgs({ options: { requests: { type: 'string' }, concurrency: { type: 'string' } } });
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

const dataDir = await mkdtemp(join(tmpdir(), 'portaria-bench-'));
const service = await startService({ port: 0, dataDir, logLevel: 'warn' });
try {
  const { apiKey } = createCompany(service.ctx, { name: 'Bench', timezone: 'America/Sao_Paulo' });
  const host = await fetch(`${service.url}/v1/hosts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Helena Host', email: `helena-${randomUUID()}@bench.test` }),
  });
  const hostId = ((await host.json()) as { id: string }).id;

  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const result = await new Promise<{ statuses: Record<string, number>; ms: number }>((resolve, reject) => {
    const worker = new Worker(loadScript, {
      eval: true,
      workerData: { url: service.url, apiKey, hostId, requests, concurrency },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  delay.disable();

  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  process.stdout.write(
    `${requests} check-ins (POST /v1/visits), ${concurrency} at a time: ${(requests / (result.ms / 1000)).toFixed(0)} req/s, ` +
      `statuses ${JSON.stringify(result.statuses)}\n` +
      `event-loop delay of the service's process: p50 ${ms(delay.percentile(50))} ms, ` +
      `p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms\n`,
  );
} finally {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
