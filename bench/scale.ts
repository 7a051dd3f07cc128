/**
 * List requests on a large and a 100 times smaller database: their latency should follow the work asked (one
 * page), not the size of the company's history.
 */
import { getOnce, type LatencyFigures, latencyOf, sequentialDurations } from './load.ts';
import type { SeededData } from './seed.ts';
import { peakRss, type ServerProcess, startPortaria } from './servers.ts';

export interface ScaleQuery {
  key: string;
  label: string;
  path(seeded: SeededData): string;
}

/** The offset of the visits page: 100,000 where the database has it, else the last full page there is. */
export const visitsOffset = (seeded: SeededData) => Math.max(0, Math.min(100_000, seeded.counts.visits - 1000));

const query = (key: string, op: string, value: string | number) =>
  `queryKey=${key}&queryOp=${encodeURIComponent(op)}&queryValue=${encodeURIComponent(String(value))}`;

export const scaleQueries: readonly ScaleQuery[] = [
  { key: 'hosts_list', label: 'GET /v1/hosts?limit=1000', path: () => '/v1/hosts?limit=1000' },
  {
    key: 'invitees_expected_after',
    label: 'GET /v1/invitees expectedAt >',
    path: (s) => `/v1/invitees?${query('expectedAt', '>', s.probes.expectedAfterSeconds)}`,
  },
  {
    key: 'invitees_status',
    label: 'GET /v1/invitees status ==',
    path: () => `/v1/invitees?${query('status', '==', 'confirmed')}`,
  },
  {
    key: 'invitees_name',
    label: 'GET /v1/invitees name ==',
    path: (s) => `/v1/invitees?${query('name', '==', s.probes.inviteeName)}`,
  },
  {
    key: 'invitees_host_name',
    label: 'GET /v1/invitees hostName ==',
    path: (s) => `/v1/invitees?${query('hostName', '==', s.probes.hostName)}`,
  },
  {
    key: 'visits_offset',
    label: 'GET /v1/visits?limit=1000&offset=N',
    path: (s) => `/v1/visits?limit=1000&offset=${visitsOffset(s)}`,
  },
];

export interface ScaleFigures extends LatencyFigures {
  /** How many objects the page held (the same at both scales, or the comparison would be unfair). */
  size: number;
}

export interface ScaleRun {
  figures: Map<string, ScaleFigures>;
  peakRssMb: number;
}

interface Target {
  seeded: SeededData;
  server: ServerProcess;
}

/** Checks what the request answers, warms it up, and returns the page's size. */
async function pageSize({ seeded, server }: Target, path: string): Promise<number> {
  const { status, body } = await getOnce(server.url, path, seeded.apiKey);
  if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${body.slice(0, 200)}`);
  await sequentialDurations(server.url, path, seeded.apiKey, 0, 5);
  return (JSON.parse(body) as { size: number }).size;
}

/**
 * Starts Portaria on both seeded folders and measures each list request one at a time, the two databases taking
 * turns in rounds (A B B A) so that both meet the same moments of a shared machine's load.
 */
export async function measureScale(
  large: SeededData,
  small: SeededData,
  seconds: number,
  log: (line: string) => void = () => {},
): Promise<{ large: ScaleRun; small: ScaleRun }> {
  const targets: Target[] = [];
  try {
    for (const seeded of [large, small]) targets.push({ seeded, server: await startPortaria(seeded.dir) });
    const peaks = targets.map((t) => peakRss(t.server));
    const figures = targets.map(() => new Map<string, ScaleFigures>());
    const rounds = 4;
    for (const q of scaleQueries) {
      const sizes: number[] = [];
      const durations: number[][] = targets.map(() => []);
      for (const target of targets) sizes.push(await pageSize(target, q.path(target.seeded)));
      for (let round = 0; round < rounds; round++) {
        for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
          const { seeded, server } = targets[i] as Target;
          const measured = await sequentialDurations(server.url, q.path(seeded), seeded.apiKey, seconds / rounds, 10);
          durations[i]?.push(...measured);
        }
      }
      for (const [i, map] of figures.entries())
        map.set(q.key, { ...latencyOf(durations[i] ?? []), size: sizes[i] ?? 0 });
      const shown = (i: number) => {
        const f = figures[i]?.get(q.key) as ScaleFigures;
        return `p50 ${f.p50.toFixed(2)} / p99 ${f.p99.toFixed(2)} ms (${f.size} objects)`;
      };
      log(`${q.label}: large ${shown(0)}, small ${shown(1)}`);
    }
    const [largeRun, smallRun] = figures.map((map, i) => ({ figures: map, peakRssMb: peaks[i]?.stop() ?? 0 }));
    return { large: largeRun as ScaleRun, small: smallRun as ScaleRun };
  } finally {
    await Promise.all(targets.map((t) => t.server.stop()));
  }
}
