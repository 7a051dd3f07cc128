/**
 * The console's pages at scale: the first answer each page asks the service for, one request at a time, on the
 * large seeded database (2,000,000 visits), for an administrator's session and a host's, against the console's goal
 * of a p50 under 200 ms (docs/console.md). Days are the last ones of the seeded history, so the visit log and the
 * analytics read full days. The people are made through the API (a host with an account, its set-password link,
 * the password set), as an administrator would.
 *
 *   node --import tsx bench/console.ts [--quick]     (seeds bench/.work/<full|quick>/large if it is not there)
 */
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from './load.ts';
import { markdownTable, type Row, type Section, shown, targets, terminalTable } from './report.ts';
import type { Part } from './sections.ts';
import { lastSeededDay, reusableSeed, type SeededData, seed } from './seed.ts';
import { repoRoot, type ServerProcess, startPortaria } from './servers.ts';

export const consoleGoalMs = 200;

type Who = 'admin' | 'host';

export interface ConsoleRequest {
  key: string;
  page: string;
  path: string;
  /** Who asks it: a host's session reads only the pages a host has. */
  who: readonly Who[];
  /** A 404 is an answer too: a company that saved none of these settings (the page reads it as `optional`). */
  optional?: boolean;
}

const dayMs = 86_400_000;
const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);
const span = (days: number) => `from=${daysBefore(lastSeededDay, days - 1)}&to=${lastSeededDay}`;
const listQuery = (key: string, op: string, value: string | number, limit: number) =>
  `queryKey=${key}&queryOp=${encodeURIComponent(op)}&queryValue=${encodeURIComponent(String(value))}&limit=${limit}`;
/** The seeded company's last day begins at midnight in São Paulo (UTC-3), in Unix seconds. */
const lastDaySeconds = Date.parse(`${lastSeededDay}T03:00:00Z`) / 1000;

const both: readonly Who[] = ['admin', 'host'];
const admin: readonly Who[] = ['admin'];

/** Each page's first request, as the page makes it. */
export const consoleRequests: readonly ConsoleRequest[] = [
  { key: 'today', page: 'Today', path: '/v1/today', who: both },
  {
    key: 'invitations',
    page: 'Invitations',
    path: `/v1/invitees?${listQuery('expectedAt', '>=', lastDaySeconds, 26)}`,
    who: both,
  },
  {
    key: 'approvals',
    page: 'Approvals',
    path: `/v1/visits?${listQuery('authorizationStatus', '==', 'waiting', 500)}`,
    who: both,
  },
  { key: 'visit_log', page: 'Visit log', path: `/v1/visits/history?${span(1)}&limit=50`, who: both },
  {
    key: 'visit_log_search',
    page: 'Visit log, searched',
    path: `/v1/visits/history?${span(7)}&search=Ana&limit=50`,
    who: both,
  },
  {
    key: 'visit_log_hosts',
    page: 'Visit log, its host filter',
    path: '/v1/hosts/directory?limit=1000',
    who: both,
  },
  { key: 'hosts', page: 'Hosts', path: '/v1/hosts?limit=1000&offset=0', who: admin },
  { key: 'hosts_accounts', page: "Hosts, the accounts' states", path: '/v1/accounts', who: admin },
  { key: 'kiosks', page: 'Kiosks', path: '/v1/kiosks', who: admin },
  { key: 'analytics_30', page: 'Analytics, 30 days', path: `/v1/analytics?${span(30)}`, who: admin },
  { key: 'analytics_90', page: 'Analytics, 90 days', path: `/v1/analytics?${span(90)}`, who: admin },
  {
    key: 'analytics_hosts_30',
    page: 'Analytics, top hosts, 30 days',
    path: `/v1/analytics/hosts?${span(30)}`,
    who: admin,
  },
  {
    key: 'analytics_hosts_90',
    page: 'Analytics, top hosts, 90 days',
    path: `/v1/analytics/hosts?${span(90)}`,
    who: admin,
  },
  { key: 'settings_company', page: 'Settings (company)', path: '/v1/company', who: admin },
  {
    key: 'settings_notifications',
    page: 'Settings (notifications)',
    path: '/v1/integration/notifications',
    who: admin,
    optional: true,
  },
];

export interface ConsoleLatency {
  p50: number;
  p95: number;
  samples: number;
}

export interface ConsoleRun {
  who: Who;
  figures: Map<string, ConsoleLatency>;
  /** The first answer of each analytics span, before its hours were counted (ms). */
  cold: Map<string, number>;
}

interface Reply {
  status: number;
  body: string;
  setCookie: string[];
}

function send(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  options: { agent?: Agent; body?: unknown } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const sent = request(
      `${url}${path}`,
      {
        method,
        agent: options.agent,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            setCookie: response.headers['set-cookie'] ?? [],
          }),
        );
        response.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

const benchPassword = 'correct horse battery staple';

const sessionCookie = (reply: Reply) =>
  reply.setCookie.map((line) => line.split(';')[0]).find((c) => c?.startsWith('portaria_session='));

/**
 * A person of the seeded company with a password, signed in: the session cookie their console sends. A seeded
 * folder that is reused has them already from an earlier run (the host's e-mail is taken): they sign in.
 */
async function sessionOf(url: string, apiKey: string, role: 'ADMIN' | 'HOST'): Promise<Record<string, string>> {
  const key = { authorization: `Bearer ${apiKey}` };
  const email = `bench-${role.toLowerCase()}@example.com`;
  const made = await send(url, 'POST', '/v1/hosts', key, {
    body: { name: `Bench ${role}`, email, role, isActive: true, sendInvitationEmail: true },
  });
  const signedIn =
    made.status === 409
      ? await send(url, 'POST', '/v1/account/sign-in', {}, { body: { email, password: benchPassword } })
      : await passwordSet(url, key, made);
  const cookie = sessionCookie(signedIn);
  if (signedIn.status !== 200 || !cookie) throw new Error(`signing in answered ${signedIn.status}: ${signedIn.body}`);
  return { cookie };
}

/** The new host's account: its set-password link (as an administrator copies it), the password set. */
async function passwordSet(url: string, key: Record<string, string>, made: Reply): Promise<Reply> {
  if (made.status !== 200) throw new Error(`POST /v1/hosts answered ${made.status}: ${made.body}`);
  const hostId = (JSON.parse(made.body) as { id: string }).id;
  const link = await send(url, 'POST', `/v1/host/${hostId}/account-link`, key);
  if (link.status !== 200) throw new Error(`account-link answered ${link.status}: ${link.body}`);
  const token = String((JSON.parse(link.body) as { path: string }).path)
    .split('/')
    .pop();
  return await send(url, 'POST', '/v1/account/set-password', {}, { body: { token, password: benchPassword } });
}

function latencyOf(durations: readonly number[]): ConsoleLatency {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: sorted.length };
}

const answered = (asked: ConsoleRequest, status: number) =>
  status === 200 || (asked.optional === true && status === 404);

/** The durations (ms) of one request at a time over one kept-alive connection, for `seconds`, at least 10. */
async function durations(url: string, asked: ConsoleRequest, headers: Record<string, string>, seconds: number) {
  const { path } = asked;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const measured: number[] = [];
  const until = performance.now() + seconds * 1000;
  try {
    while (performance.now() < until || measured.length < 10) {
      const started = performance.now();
      const { status, body } = await send(url, 'GET', path, headers, { agent });
      measured.push(performance.now() - started);
      if (!answered(asked, status)) throw new Error(`GET ${path} answered ${status}: ${body.slice(0, 200)}`);
    }
  } finally {
    agent.destroy();
  }
  return measured;
}

/**
 * Starts Portaria on the seeded folder, makes an administrator and a host with their sessions, and times each
 * page's request for `seconds` after a few unmeasured ones. The analytics' first answer of each span (its hours
 * counted from the visits) is timed apart.
 */
export async function measureConsole(
  seeded: SeededData,
  seconds: number,
  log: (line: string) => void = () => {},
): Promise<ConsoleRun[]> {
  const server: ServerProcess = await startPortaria(seeded.dir);
  try {
    const runs: ConsoleRun[] = [];
    for (const who of ['admin', 'host'] as const) {
      const headers = await sessionOf(server.url, seeded.apiKey, who === 'admin' ? 'ADMIN' : 'HOST');
      const run: ConsoleRun = { who, figures: new Map(), cold: new Map() };
      for (const asked of consoleRequests.filter((r) => r.who.includes(who))) {
        const started = performance.now();
        const first = await send(server.url, 'GET', asked.path, headers);
        if (!answered(asked, first.status))
          throw new Error(`GET ${asked.path} answered ${first.status}: ${first.body}`);
        if (asked.key.startsWith('analytics_') && !asked.key.startsWith('analytics_hosts')) {
          run.cold.set(asked.key, performance.now() - started);
        }
        for (let i = 0; i < 3; i++) await send(server.url, 'GET', asked.path, headers);
        const latency = latencyOf(await durations(server.url, asked, headers, seconds));
        run.figures.set(asked.key, latency);
        log(`${who}: ${asked.page}: p50 ${latency.p50.toFixed(1)} / p95 ${latency.p95.toFixed(1)} ms`);
      }
      runs.push(run);
    }
    return runs;
  } finally {
    await server.stop();
  }
}

/** The console section of the bench's table: each page's p50 and p95 beside the goal. */
export function consolePart(runs: readonly ConsoleRun[], seeded: SeededData): Part {
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  for (const run of runs) {
    for (const asked of consoleRequests) {
      const latency = run.figures.get(asked.key);
      if (!latency) continue;
      figures[`console_${run.who}_${asked.key}_p50_ms`] = latency.p50;
      figures[`console_${run.who}_${asked.key}_p95_ms`] = latency.p95;
      const ratio = latency.p50 / consoleGoalMs;
      rows.push({
        measure: `${asked.page} (${run.who}'s session): \`GET ${asked.path.replace(/\?.*/, '')}\` p50 / p95 ms`,
        portaria: `${shown(latency.p50)} / ${shown(latency.p95)}`,
        reference: `${consoleGoalMs} (goal, p50)`,
        ratio,
        target: targets.atMost(ratio, 1),
      });
    }
    for (const [key, ms] of run.cold) {
      figures[`console_${run.who}_${key}_first_ms`] = ms;
      const asked = consoleRequests.find((r) => r.key === key);
      rows.push({
        measure: `${asked?.page ?? key}: the first answer, its hours counted from the visits (ms)`,
        portaria: shown(ms),
        reference: 'once per span',
      });
    }
  }
  const count = (n: number) => n.toLocaleString('en-US');
  const section: Section = {
    title: `Console pages' first answers at ${count(seeded.counts.visits)} visits, ${count(seeded.counts.hosts)} hosts`,
    rows,
  };
  return { section, figures };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
  const counts = values.quick
    ? { hosts: 10_000, invitees: 50_000, visits: 200_000 }
    : { hosts: 100_000, invitees: 500_000, visits: 2_000_000 };
  const dir = join(repoRoot, 'bench/.work', values.quick ? 'quick' : 'full', 'large');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const seeded = reusableSeed(dir, counts, 'history') ?? (await seed(dir, counts, 'history'));
  const part = consolePart(await measureConsole(seeded, values.quick ? 1 : 3, log), seeded);
  process.stdout.write(`${terminalTable([part.section])}\n\n${markdownTable([part.section])}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
