/**
 * The console's pages at scale: the first answer each page asks the service for, one request at a time, on the
 * large seeded database (2,000,000 visits), against the console's goal of a p50 under 200 ms (docs/console.md).
 * Days are the last ones of the seeded history, so the visit log and the analytics read full days.
 */
import { getOnce, percentile, sequentialDurations } from './load.ts';
import { type Row, type Section, shown, targets } from './report.ts';
import type { Part } from './sections.ts';
import { lastSeededDay, type SeededData } from './seed.ts';
import { type ServerProcess, startPortaria } from './servers.ts';

export const consoleGoalMs = 200;

export interface ConsoleRequest {
  key: string;
  page: string;
  path: string;
}

const dayMs = 86_400_000;
const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);
const span = (days: number) => `from=${daysBefore(lastSeededDay, days - 1)}&to=${lastSeededDay}`;

/** Each page's first request, as the page makes it (a first page of 50 where the page lists). */
export const consoleRequests: readonly ConsoleRequest[] = [
  { key: 'today', page: 'Today', path: '/v1/today' },
  { key: 'invitations', page: 'Invitations', path: '/v1/invitees?limit=50' },
  { key: 'approvals', page: 'Approvals', path: '/v1/roster' },
  { key: 'visit_log', page: 'Visit log', path: `/v1/visits/history?${span(1)}&limit=50` },
  { key: 'visit_log_search', page: 'Visit log, searched', path: `/v1/visits/history?${span(7)}&search=Ana&limit=50` },
  { key: 'hosts', page: 'Hosts', path: '/v1/hosts?limit=50' },
  { key: 'kiosks', page: 'Kiosks', path: '/v1/credentials' },
  { key: 'analytics_30', page: 'Analytics, 30 days', path: `/v1/analytics?${span(30)}` },
  { key: 'analytics_90', page: 'Analytics, 90 days', path: `/v1/analytics?${span(90)}` },
  { key: 'settings_company', page: 'Settings (company)', path: '/v1/company' },
  { key: 'settings_notifications', page: 'Settings (notifications)', path: '/v1/integration/notifications' },
];

export interface ConsoleLatency {
  p50: number;
  p95: number;
  samples: number;
}

export interface ConsoleRun {
  who: string;
  figures: Map<string, ConsoleLatency>;
}

function latencyOf(durations: readonly number[]): ConsoleLatency {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), samples: sorted.length };
}

/** Starts Portaria on the seeded folder and times each page's request for `seconds`, after a warm-up. */
export async function measureConsole(
  seeded: SeededData,
  seconds: number,
  log: (line: string) => void = () => {},
): Promise<ConsoleRun> {
  const server: ServerProcess = await startPortaria(seeded.dir);
  try {
    const figures = new Map<string, ConsoleLatency>();
    for (const request of consoleRequests) {
      const { status, body } = await getOnce(server.url, request.path, seeded.apiKey);
      if (status !== 200) throw new Error(`GET ${request.path} answered ${status}: ${body.slice(0, 200)}`);
      await sequentialDurations(server.url, request.path, seeded.apiKey, 0, 3);
      const latency = latencyOf(await sequentialDurations(server.url, request.path, seeded.apiKey, seconds, 10));
      figures.set(request.key, latency);
      log(`${request.page}: p50 ${latency.p50.toFixed(1)} / p95 ${latency.p95.toFixed(1)} ms`);
    }
    return { who: 'admin', figures };
  } finally {
    await server.stop();
  }
}

/** The console section of the bench's table: each page's p50 and p95 beside the goal. */
export function consolePart(runs: readonly ConsoleRun[], seeded: SeededData): Part {
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  for (const run of runs) {
    for (const request of consoleRequests) {
      const latency = run.figures.get(request.key);
      if (!latency) continue;
      figures[`console_${run.who}_${request.key}_p50_ms`] = latency.p50;
      figures[`console_${run.who}_${request.key}_p95_ms`] = latency.p95;
      const ratio = latency.p50 / consoleGoalMs;
      rows.push({
        measure: `${request.page} (${run.who}): \`GET ${request.path.replace(/\?.*/, '')}\` p50 / p95 ms`,
        portaria: `${shown(latency.p50)} / ${shown(latency.p95)}`,
        reference: `${consoleGoalMs} (goal, p50)`,
        ratio,
        target: targets.atMost(ratio, 1),
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
