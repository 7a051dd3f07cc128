/**
 * Kiosks as a hub sees them, without kiosk processes: each has its own client id and HLC and speaks the sync
 * protocol over HTTP (docs/sync.md): pushes batches of check-ins and check-outs as a kiosk's outbox makes them, and
 * pulls the change feed page by page.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { type LatencyFigures, latencyOf, requestOnce } from '../load.ts';
import { repoRoot } from '../servers.ts';

export interface Company {
  id: string;
  apiKey: string;
}

const cliPath = join(repoRoot, 'main/cli/portaria.mjs');

/** Creates a company with the command line (as an operator does), on the data folder's SQLite or on `database`. */
export function createCompany(dataDir: string, database: string | undefined, name: string): Company {
  const args = ['company', 'create', '--data', dataDir, '--name', name, '--timezone', 'UTC'];
  if (database) args.push('--database', database);
  const made = JSON.parse(execFileSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' })) as Company;
  return { id: made.id, apiKey: made.apiKey };
}

/** `count` kiosks spread evenly over the companies, each with its own client id and clock. */
export function newKiosks(count: number, companies: Company[]): Kiosk[] {
  return Array.from({ length: count }, (_, i) => ({
    clientId: `bench-kiosk-${i}-${randomBytes(4).toString('hex')}`,
    node: randomBytes(8).toString('hex'),
    company: companies[i % companies.length] as Company,
    nextId: 1,
    inside: [],
  }));
}

/** A kiosk as the hub sees it: its client id, its next mutation id, its clock, its company's key. */
export interface Kiosk {
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

export type Send = (method: 'GET' | 'POST', path: string, body?: string) => Promise<{ status: number; body: string }>;

/** A request the network failed (a connection reset or refused), as an answer: status 0, its code as the type. */
export async function answered(request: Promise<{ status: number; body: string }>) {
  try {
    return await request;
  } catch (error) {
    return { status: 0, body: JSON.stringify({ type: (error as NodeJS.ErrnoException).code ?? 'NETWORK' }) };
  }
}

/**
 * Runs `each` for every kiosk at once, over one kept-alive agent; `send` makes a request to the kiosk's process
 * (`urlOf`) with its company's key and records its latency. Answers the elapsed seconds and the latencies. A
 * request the network fails fails the run, or with `networkFailures: 'answer'` is answered with status 0.
 */
export async function everyKiosk(
  kiosks: Kiosk[],
  urlOf: (i: number) => string,
  each: (kiosk: Kiosk, send: Send) => Promise<void>,
  networkFailures: 'throw' | 'answer' = 'throw',
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
          const request = requestOnce(urlOf(i), method, path, kiosk.company.apiKey, options);
          const reply = await (networkFailures === 'answer' ? answered(request) : request);
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

/** Answers other than 200, counted by status and error type ("408 REQUEST_TIMEOUT"). */
export type Refusals = Record<string, number>;

export function noteRefusal(refusals: Refusals, reply: { status: number; body: string }): void {
  let type = '';
  try {
    type = (JSON.parse(reply.body) as { type?: string }).type ?? '';
  } catch {
    // Not the service's JSON error: the status alone.
  }
  const key = `${reply.status}${type ? ` ${type}` : ''}`;
  refusals[key] = (refusals[key] ?? 0) + 1;
}

/**
 * Each kiosk pushes its batches one after the other, all kiosks at once; with `seconds`, no kiosk starts a batch
 * after that time (a slow hub is measured in bounded time). A push answered other than 200 fails the run, or with
 * `sendAgain` is counted and sent again, as a kiosk does after its backoff.
 */
export async function pushAll(
  kiosks: Kiosk[],
  plan: { batchesPerKiosk: number; batchSize: number; seconds?: number; sendAgain?: boolean },
  urlOf: (i: number) => string,
) {
  let applied = 0;
  let failures = 0;
  const refused: Refusals = {};
  const until = performance.now() + (plan.seconds ?? Number.POSITIVE_INFINITY) * 1000;
  const run = await everyKiosk(
    kiosks,
    urlOf,
    async (kiosk, send) => {
      let batch = nextBatch(kiosk, plan.batchSize);
      for (let b = 0; b < plan.batchesPerKiosk && performance.now() < until; b++) {
        const reply = await send('POST', '/v1/sync/push', JSON.stringify(batch));
        if (reply.status !== 200) {
          if (!plan.sendAgain) throw new Error(`push answered ${reply.status}: ${reply.body.slice(0, 300)}`);
          noteRefusal(refused, reply);
          continue;
        }
        const results = (JSON.parse(reply.body) as { results: { result: string }[] }).results;
        const ok = results.filter((r) => r.result === 'applied').length;
        applied += ok;
        failures += results.length - ok;
        batch = nextBatch(kiosk, plan.batchSize);
      }
    },
    plan.sendAgain ? 'answer' : 'throw',
  );
  return { perSecond: applied / run.seconds, latency: run.latency, applied, failures, refused };
}

type Page = { changes: unknown[]; cursor: string; hasMore: boolean };

const changesPath = (kiosk: Kiosk, since: string | undefined) =>
  `/v1/sync/changes?limit=500&clientId=${kiosk.clientId}${since ? `&since=${encodeURIComponent(since)}` : ''}`;

/**
 * Each kiosk pulls full passes of its company's feed (from no cursor to the end), for `seconds`; a page answered
 * other than 200 is counted and asked again, and so is one the network failed with `askAgain`.
 */
export async function pullAll(kiosks: Kiosk[], seconds: number, urlOf: (i: number) => string, askAgain = false) {
  let rows = 0;
  let pages = 0;
  const refused: Refusals = {};
  const until = performance.now() + seconds * 1000;
  const run = await everyKiosk(
    kiosks,
    urlOf,
    async (kiosk, send) => {
      let since: string | undefined;
      while (performance.now() < until) {
        const reply = await send('GET', changesPath(kiosk, since));
        if (reply.status !== 200) {
          noteRefusal(refused, reply);
          continue;
        }
        const page = JSON.parse(reply.body) as Page;
        rows += page.changes.length;
        pages++;
        since = page.hasMore ? page.cursor : undefined;
      }
    },
    askAgain ? 'answer' : 'throw',
  );
  const failures = Object.values(refused).reduce((sum, n) => sum + n, 0);
  return { perSecond: rows / run.seconds, latency: run.latency, failures, pages, rows, refused };
}

/**
 * Each kiosk pulls its company's feed to the end, and answers the cursor it reached (a following kiosk's); a page
 * answered other than 200 is asked again, up to 5 times.
 */
export async function followToEnd(kiosks: Kiosk[], urlOf: (i: number) => string): Promise<string[]> {
  const cursors: string[] = [];
  await everyKiosk(
    kiosks,
    urlOf,
    async (kiosk, send) => {
      let since: string | undefined;
      for (let refusals = 0; ; ) {
        const reply = await send('GET', changesPath(kiosk, since));
        if (reply.status !== 200) {
          if (++refusals > 5) throw new Error(`pull answered ${reply.status}: ${reply.body.slice(0, 300)}`);
          continue;
        }
        const page = JSON.parse(reply.body) as Page;
        since = page.cursor;
        if (!page.hasMore) break;
      }
      cursors[kiosks.indexOf(kiosk)] = since as string;
    },
    'answer',
  );
  return cursors;
}

/**
 * `polls` idle polls per kiosk, all kiosks at once: what a kiosk that follows the feed and has nothing to push sends
 * every few seconds, a page after the cursor at the end (`cursors`, from `followToEnd`), answered empty.
 */
export async function idlePolls(kiosks: Kiosk[], cursors: string[], polls: number, urlOf: (i: number) => string) {
  const refused: Refusals = {};
  let failures = 0;
  const run = await everyKiosk(
    kiosks,
    urlOf,
    async (kiosk, send) => {
      for (let i = 0; i < polls; i++) {
        const reply = await send('GET', changesPath(kiosk, cursors[kiosks.indexOf(kiosk)]));
        if (reply.status !== 200) noteRefusal(refused, reply);
        else if ((JSON.parse(reply.body) as Page).changes.length > 0) failures++;
      }
    },
    'answer',
  );
  return { latency: run.latency, failures, refused };
}
