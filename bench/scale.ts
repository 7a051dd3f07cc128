/**
 * List requests on a large and a 100 times smaller database: their latency should follow the work asked (one
 * page), not the size of the company's history.
 */
import { getOnce, type LatencyFigures, sequentialLatency } from './load.ts';
import type { SeededData } from './seed.ts';
import { peakRss, startPortaria } from './servers.ts';

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

/** Starts Portaria on a seeded folder and measures each list request one at a time. */
export async function measureScale(
  seeded: SeededData,
  seconds: number,
  log: (line: string) => void = () => {},
): Promise<ScaleRun> {
  const server = await startPortaria(seeded.dir);
  const peak = peakRss(server);
  const figures = new Map<string, ScaleFigures>();
  let peakRssMb = 0;
  try {
    for (const q of scaleQueries) {
      const path = q.path(seeded);
      const { status, body } = await getOnce(server.url, path, seeded.apiKey);
      if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${body.slice(0, 200)}`);
      const size = (JSON.parse(body) as { size: number }).size;
      await sequentialLatency(server.url, path, seeded.apiKey, 0, 5);
      const latency = await sequentialLatency(server.url, path, seeded.apiKey, seconds);
      figures.set(q.key, { ...latency, size });
      log(`${q.label} (${size} objects): p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms`);
    }
  } finally {
    peakRssMb = peak.stop();
    await server.stop();
  }
  return { figures, peakRssMb };
}
