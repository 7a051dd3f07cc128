/** Start-up: from spawning the process to the first answered request; and the resident memory once idle. */
import { setTimeout as sleep } from 'node:timers/promises';
import { getOnce } from './load.ts';
import type { SeededData } from './seed.ts';
import { type ServerProcess, startCeiling, startPortaria } from './servers.ts';

export interface StartupFigures {
  /** Median over the runs, in ms. */
  firstAnswerMs: number;
  /** Resident memory a second after the first answer, median over the runs, in MiB. */
  idleRssMb: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function firstAnswer(
  start: () => Promise<ServerProcess>,
  path: string,
  apiKey: string | undefined,
): Promise<{ ms: number; rssMb: number }> {
  const server = await start();
  try {
    const { status } = await getOnce(server.url, path, apiKey);
    const ms = performance.now() - server.spawnedAt;
    if (status !== 200) throw new Error(`first request answered ${status}`);
    await sleep(1000);
    return { ms, rssMb: server.rssMb() };
  } finally {
    await server.stop();
  }
}

async function measure(start: () => Promise<ServerProcess>, path: string, apiKey: string | undefined, runs: number) {
  // The first start after other work pays for what that work left (the disk still writing the databases the hot
  // endpoints changed): one start of each server is made and not counted, so each is measured in the same state.
  await firstAnswer(start, path, apiKey);
  const results: { ms: number; rssMb: number }[] = [];
  for (let i = 0; i < runs; i++) results.push(await firstAnswer(start, path, apiKey));
  return { firstAnswerMs: median(results.map((r) => r.ms)), idleRssMb: median(results.map((r) => r.rssMb)) };
}

/** Portaria's start-up on a seeded folder: the first request is a one-host page, as a kiosk's first screen. */
export const portariaStartup = (seeded: SeededData, runs: number): Promise<StartupFigures> =>
  measure(() => startPortaria(seeded.dir), '/v1/hosts?limit=1', seeded.apiKey, runs);

/** The ceiling's start-up on a database file, reading one visit. */
export const ceilingStartup = (dbFile: string, visitId: string, runs: number): Promise<StartupFigures> =>
  measure(() => startCeiling(dbFile), `/v1/visit/${visitId}`, undefined, runs);
