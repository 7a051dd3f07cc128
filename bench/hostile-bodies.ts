/**
 * How long a small request waits while hostile bodies arrive (issue 15, point 4): one client asks GET /v1/hosts,
 * one request at a time, for `--seconds`; first alone, then while `--attackers` clients (holding a valid key, as a
 * tenant of a shared hub does) each send hostile JSON bodies to POST /v1/visits, one after the other:
 *
 *   huge    the body that froze the service: 1.4 million keys, 17 MB (over the size limit: refused at once)
 *   dense   the same kind of body cut to the size limit, 2 MiB (refused at its 50,001st value, before parsing)
 *   largest the costliest body a client may send: 2 MiB holding just under 50,000 values, parsed and validated
 *
 *   node --import tsx bench/hostile-bodies.ts [--seconds 10] [--attackers 4] [--kinds huge,dense,largest]
 *                                             [--root <a checkout of Portaria>]
 *
 * `--root` measures another checkout's service (e.g. the code before the limits) with the same load. Prints one
 * line per phase and the figures as JSON on the last line; docs/benchmarks.md ("Hostile bodies") has a dated run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bodyLimits } from '../local-api/http/limits.ts';
import { peakRss, repoRoot, startProcess } from './servers.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    attackers: { type: 'string' },
    root: { type: 'string' },
    kinds: { type: 'string' },
  },
});
const seconds = Number(values.seconds ?? 10);
const attackers = Number(values.attackers ?? 4);
const root = resolve(values.root ?? repoRoot);
// The command line's entry moved (local-api/bin → cli/ → main/cli/): an older checkout has a former place.
const cli =
  ['main/cli/portaria.mjs', 'cli/portaria.mjs', 'local-api/bin/portaria.mjs']
    .map((path) => join(root, path))
    .find(existsSync) ?? '';

/** `{"k0":0,"k1":1,…}`: `keys` keys, each value a string of `valueLength` characters. */
function bodyOfKeys(keys: number, valueLength = 0): Buffer {
  const value = valueLength > 0 ? `"${'v'.repeat(valueLength)}"` : '0';
  const parts: string[] = [];
  for (let i = 0; i < keys; i++) parts.push(`"k${i}":${value}`);
  return Buffer.from(`{${parts.join(',')}}`);
}

const bodies = {
  huge: bodyOfKeys(1_400_000),
  dense: bodyOfKeys(1_400_000).subarray(0, bodyLimits.maxBytes),
  // Keys with string values: just under both the size and the value limits.
  largest: bodyOfKeys(bodyLimits.maxValues / 2 - 10, Math.floor(bodyLimits.maxBytes / (bodyLimits.maxValues / 2)) - 20),
};

interface Answer {
  status: number;
  ms: number;
}

function send(url: string, agent: Agent, method: string, path: string, apiKey: string, body?: Buffer) {
  return new Promise<Answer>((resolveAnswer) => {
    const started = performance.now();
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` };
    if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(body.length) });
    const req = request(`${url}${path}`, { method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    // A refused upload may be cut by the service while it is still being sent: that is an answer too.
    req.on('error', () => resolveAnswer({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface Phase {
  requests: number;
  /** Small requests that got no 200. */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  peakRssMb: number;
  hostile: Record<string, Record<string, number>>;
}

async function phase(url: string, apiKey: string, rss: () => number, hostile: boolean): Promise<Phase> {
  const until = performance.now() + seconds * 1000;
  const statuses: Record<string, Record<string, number>> = {};
  const lanes = hostile
    ? Array.from({ length: attackers }, async (_, lane) => {
        const agent = new Agent({ keepAlive: true });
        const kinds = (values.kinds?.split(',') ?? Object.keys(bodies)) as (keyof typeof bodies)[];
        for (let i = lane; performance.now() < until; i++) {
          const kind = kinds[i % kinds.length] as keyof typeof bodies;
          const answer = await send(url, agent, 'POST', '/v1/visits', apiKey, bodies[kind]);
          const counts = statuses[kind] ?? {};
          counts[answer.status] = (counts[answer.status] ?? 0) + 1;
          statuses[kind] = counts;
        }
        agent.destroy();
      })
    : [];
  const agent = new Agent({ keepAlive: true });
  const latencies: number[] = [];
  let failed = 0;
  while (performance.now() < until) {
    const answer = await send(url, agent, 'GET', '/v1/hosts?limit=10', apiKey);
    // A request that failed (a connection cut, no answer) counts at the time it took to fail.
    if (answer.status !== 200) failed++;
    latencies.push(answer.ms);
  }
  agent.destroy();
  await Promise.all(lanes);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    maxMs: latencies.at(-1) ?? 0,
    peakRssMb: rss(),
    hostile: statuses,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'portaria-hostile-'));
try {
  const { apiKey } = JSON.parse(
    execFileSync(process.execPath, [cli, 'company', 'create', '--data', dataDir, '--name', 'Hostile Bench'], {
      encoding: 'utf8',
    }),
  ) as { apiKey: string };
  const server = await startProcess([cli, 'serve', '--port', '0', '--data', dataDir, '--backup-interval', '0']);
  try {
    for (let i = 0; i < 20; i++) {
      await send(
        server.url,
        new Agent(),
        'POST',
        '/v1/hosts',
        apiKey,
        Buffer.from(JSON.stringify({ name: `Host ${i}`, email: `h${i}@bench.test` })),
      );
    }
    const quietPeak = peakRss(server);
    const quiet = await phase(server.url, apiKey, () => quietPeak.stop(), false);
    const attackPeak = peakRss(server);
    const attacked = await phase(server.url, apiKey, () => attackPeak.stop(), true);
    const line = (name: string, p: Phase) =>
      `${name}: ${p.requests} GET /v1/hosts (${p.failed} failed), p50 ${p.p50Ms.toFixed(1)} ms, p99 ${p.p99Ms.toFixed(1)} ms, ` +
      `max ${p.maxMs.toFixed(0)} ms, peak RSS ${p.peakRssMb.toFixed(0)} MiB`;
    process.stderr.write(`${line('alone', quiet)}\n${line(`with ${attackers} hostile clients`, attacked)}\n`);
    process.stderr.write(`hostile bodies answered: ${JSON.stringify(attacked.hostile)}\n`);
    process.stdout.write(
      `${JSON.stringify({ root, seconds, attackers, bodyBytes: Object.fromEntries(Object.entries(bodies).map(([k, b]) => [k, b.length])), quiet, attacked })}\n`,
    );
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
