/**
 * `npm run bench:startup -- [--against <commit>] [--runs N]`: start-up to the first answer of this tree's
 * `portaria serve`, of another commit's (built in bench/.work, bench/baseline.ts) and of the bare Express +
 * better-sqlite3 server (bench/ceiling.ts), taking turns run after run so that a machine shared with other work
 * slows all three alike. Each is started once uncounted first. Prints, for each, the median, the spread and the
 * ratio to the bare server, in wall time and in the CPU time the process used until then (less sensitive to other
 * work than wall time, in steps of 10 ms).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineTree, seededAt } from './baseline.ts';
import { hotIds } from './compare.ts';
import { getOnce } from './load.ts';
import { databaseFile, reusableSeed, seed } from './seed.ts';
import { repoRoot, type ServerProcess, startCeiling, startPortaria } from './servers.ts';

const { values } = parseArgs({ options: { against: { type: 'string' }, runs: { type: 'string', default: '11' } } });
const runs = Number(values.runs);
const workRoot = join(repoRoot, 'bench/.work');
// The small database of `npm run bench` (bench/run.ts), seeded once and reused.
const counts = { hosts: 1000, invitees: 5000, visits: 20_000 };
const smallDir = join(workRoot, 'small');
const small = reusableSeed(smallDir, counts, 'history') ?? (await seed(smallDir, counts, 'history'));
const log = (line: string) => process.stderr.write(`${line}\n`);
const visitId = hotIds(databaseFile(small.dir)).visits[0] ?? '';

interface Start {
  ms: number;
  cpuMs: number;
}

async function firstAnswer(start: () => Promise<ServerProcess>, path: string, apiKey?: string): Promise<Start> {
  const server = await start();
  try {
    const { status } = await getOnce(server.url, path, apiKey);
    const ms = performance.now() - server.spawnedAt;
    if (status !== 200) throw new Error(`first request answered ${status}`);
    return { ms, cpuMs: server.cpuMs() };
  } finally {
    await server.stop();
  }
}

/**
 * The other commit, with a database of the same counts seeded by its own code: this tree's database has migrations
 * an older commit refuses.
 */
const against = values.against
  ? (() => {
      const commit = values.against;
      const root = baselineTree(commit, workRoot, log);
      return { commit, root, seeded: seededAt(root, join(workRoot, `small-${commit}`), counts, 'history') };
    })()
  : undefined;

const servers: Record<string, () => Promise<Start>> = {
  bare: () => firstAnswer(() => startCeiling(databaseFile(small.dir)), `/v1/visit/${visitId}`),
  ...(against
    ? {
        [against.commit]: () =>
          firstAnswer(
            () => startPortaria(against.seeded.dir, [], { root: against.root }),
            '/v1/hosts?limit=1',
            against.seeded.apiKey,
          ),
      }
    : {}),
  'this tree': () => firstAnswer(() => startPortaria(small.dir), '/v1/hosts?limit=1', small.apiKey),
};

const loadAtStart = loadavg()[0] as number;
const starts: Record<string, Start[]> = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
for (let run = 0; run <= runs; run++) {
  for (const [name, start] of Object.entries(servers)) {
    const figures = await start();
    if (run > 0) starts[name]?.push(figures);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const bare = starts.bare ?? [];
for (const [name, figures] of Object.entries(starts)) {
  const ms = figures.map((f) => f.ms);
  const cpu = figures.map((f) => f.cpuMs);
  console.log(
    `${name.padEnd(10)} wall ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}), ` +
      `${(median(ms) / median(bare.map((f) => f.ms))).toFixed(2)}× the bare server; ` +
      `CPU ${median(cpu).toFixed(0)} ms, ${(median(cpu) / median(bare.map((f) => f.cpuMs))).toFixed(2)}×`,
  );
}
console.log(
  `${runs} runs each; load average ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end`,
);
