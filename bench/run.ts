/**
 * `npm run bench [-- --quick]`: speed, memory and scale of the /v1 service, side by side with the stack's own
 * ceiling. Real processes on loopback, real SQLite files in bench/.work (seeded once, reused while the schema and
 * the counts are the same). Prints one table, writes its section of docs/benchmarks.md (a quick run: of
 * bench/.work/benchmarks-quick.md, untracked), and prints every figure as one JSON object on the last line. Its
 * hub section is a short one (bench/hub/arrangements.ts); the hub's own bench is `npm run bench:hub` (bench/hub.ts:
 * some minutes of its own, so not run from here).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { baselineTree, beforePostgres, seededAt } from './baseline.ts';
import { type ComparisonRun, compareWithCeiling, hotIds } from './compare.ts';
import { consolePart, measureConsole } from './console.ts';
import { measureHubs } from './hub/arrangements.ts';
import { runIntegrationScripts, type ScriptResult } from './integration.ts';
import { unindexedQueryFields } from './plans.ts';
import { measureRenderer, type RendererResult } from './renderer.ts';
import { markdownTable, terminalTable, writeGeneratedSection } from './report.ts';
import { measureScale } from './scale.ts';
import {
  ceilingPart,
  hubPart,
  integrationPart,
  kioskPathPart,
  rendererPart,
  scalePart,
  startupPart,
} from './sections.ts';
import { databaseFile, reusableSeed, type SeedCounts, type SeededData, type SeedProfile, seed } from './seed.ts';
import { repoRoot, startPortaria } from './servers.ts';
import { ceilingStartup, portariaStartup, type StartupFigures } from './startup.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const quick = values.quick;

/**
 * Everything a run does differently in quick mode, in one place (the document states it). The small database is
 * the same in both modes (its pages are full: 1,000 hosts, 500 invitees per query, 1,000 visits after the offset);
 * quick mode's large one is 10 times larger instead of 100.
 */
const small: SeedCounts = { hosts: 1000, invitees: 5000, visits: 20_000 };
const plan = quick
  ? {
      hot: { hosts: 50, invitees: 30_000, visits: 30_000 },
      large: { hosts: 10_000, invitees: 50_000, visits: 200_000 },
      load: { connections: 10, seconds: 1 },
      hub: { kiosks: 4, companies: 2, batchesPerKiosk: 4, batchSize: 100, pullSeconds: 1 },
      warmupSeconds: 0.5,
      rounds: 2,
      scaleSeconds: 1,
      startupRuns: 1,
      ttiRuns: 1,
    }
  : {
      hot: { hosts: 100, invitees: 80_000, visits: 80_000 },
      large: { hosts: 100_000, invitees: 500_000, visits: 2_000_000 },
      load: { connections: 10, seconds: 1.5 },
      hub: { kiosks: 8, companies: 4, batchesPerKiosk: 12, batchSize: 100, pullSeconds: 3 },
      warmupSeconds: 1,
      rounds: 6,
      scaleSeconds: 3,
      startupRuns: 3,
      ttiRuns: 3,
    };

const workRoot = join(repoRoot, 'bench/.work');
const workDir = join(workRoot, quick ? 'quick' : 'full');
const log = (line: string) => process.stderr.write(`${line}\n`);
const began = performance.now();
const loadAtStart = loadavg()[0] as number;

async function seeded(
  dir: string,
  counts: SeedCounts,
  profile: SeedProfile,
): Promise<SeededData & { seconds: number }> {
  const name = relative(workRoot, dir);
  const reused = reusableSeed(dir, counts, profile);
  if (reused) return { ...reused, seconds: 0 };
  log(`seeding ${name}: ${counts.hosts} hosts, ${counts.invitees} invitees, ${counts.visits} visits…`);
  const made = await seed(dir, counts, profile);
  log(`  seeded in ${made.seconds.toFixed(1)} s`);
  return made;
}

const hot = await seeded(join(workDir, 'hot'), plan.hot, 'fresh');
const smallDb = await seeded(join(workRoot, 'small'), small, 'history');
const largeDb = await seeded(join(workDir, 'large'), plan.large, 'history');

log('ceiling comparison…');
const comparison: ComparisonRun = await compareWithCeiling({
  seeded: hot,
  workDir: join(workDir, 'run'),
  settings: plan.load,
  warmupSeconds: plan.warmupSeconds,
  rounds: plan.rounds,
  log,
});

log(`SQLite kiosk path against ${beforePostgres}…`);
async function kioskPath(): Promise<ComparisonRun> {
  const root = baselineTree(beforePostgres, workRoot, log);
  // Seeded by the older tree: this one migrates its copy forward at start, the older one would refuse a newer schema.
  const before = seededAt(root, join(workDir, `hot-${beforePostgres}`), plan.hot, 'fresh');
  return compareWithCeiling({
    seeded: before,
    workDir: join(workDir, 'kiosk-path'),
    settings: plan.load,
    warmupSeconds: plan.warmupSeconds,
    rounds: plan.rounds,
    reference: { label: beforePostgres, apiKey: before.apiKey, start: (dir) => startPortaria(dir, [], { root }) },
    log,
  });
}
const kiosk = await kioskPath().catch((error: Error) => ({ failed: error.message.split('\n')[0] as string }));

log('hub on PostgreSQL and on SQLite…');
const hubs = await measureHubs(join(workDir, 'hub'), plan.hub, (line) => log(`  ${line}`));

log('start-up and idle memory…');
const startup: Record<'small' | 'large' | 'ceiling', StartupFigures> = {
  small: await portariaStartup(smallDb, plan.startupRuns),
  large: await portariaStartup(largeDb, plan.startupRuns),
  ceiling: await ceilingStartup(databaseFile(hot.dir), hotIds(databaseFile(hot.dir)).visits[0] ?? '', plan.startupRuns),
};

log('list requests at scale…');
const scale = await measureScale(largeDb, smallDb, plan.scaleSeconds, (line) => log(`  ${line}`));

log("console pages' first answers at scale…");
const consoleRuns = await measureConsole(largeDb, plan.scaleSeconds, (line) => log(`  ${line}`));

log('renderer…');
const renderer: RendererResult = await measureRenderer(repoRoot, plan.ttiRuns).catch((error: Error) => ({
  built: false as const,
  reason: `renderer measurement failed: ${error.message.split('\n')[0]}`,
}));

log('integration and sync scripts…');
const scripts: ScriptResult[] = await runIntegrationScripts(repoRoot, quick);

const loadAtEnd = loadavg()[0] as number;
const parts = [
  ceilingPart(comparison),
  kioskPathPart(kiosk, beforePostgres),
  hubPart(hubs, plan.hub),
  scalePart(
    scale.large,
    scale.small,
    largeDb,
    smallDb,
    unindexedQueryFields(databaseFile(largeDb.dir), largeDb.companyId),
  ),
  consolePart(consoleRuns, largeDb),
  startupPart(startup, comparison, scale.large, scale.small),
  integrationPart(scripts),
  rendererPart(renderer),
];
const sections = parts.map((part) => part.section);
const notes = parts.flatMap((part) => part.notes ?? []);
const figures: Record<string, number> = Object.assign({}, ...parts.map((part) => part.figures));

const seconds = (performance.now() - began) / 1000;
const cpu = cpus()[0]?.model ?? 'unknown';
const machine = {
  cpu,
  cores: cpus().length,
  memoryGb: totalmem() / 1024 ** 3,
  node: process.version,
};
Object.assign(figures, {
  machine_cores: machine.cores,
  machine_memory_gb: machine.memoryGb,
  load_average_start: loadAtStart,
  load_average_end: loadAtEnd,
  seed_seconds: hot.seconds + smallDb.seconds + largeDb.seconds,
  bench_seconds: seconds,
});

const missed = sections.flatMap((s) => s.rows.filter((r) => r.target && !r.target.met).map((r) => r.measure.trim()));
const settings =
  `${quick ? 'Quick run (`npm run bench -- --quick`)' : 'Full run (`npm run bench`)'}: hot endpoints with autocannon, ` +
  `${plan.load.connections} connections, ${plan.load.seconds} s × ${plan.rounds} round(s) per server after ` +
  `${plan.warmupSeconds} s of warm-up, the two servers alternating; lists one request at a time for ` +
  `${plan.scaleSeconds} s each; start-up median of ${plan.startupRuns}.`;
const markdown = [
  `Generated by \`npm run bench${quick ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)} in ` +
    `${Math.round(seconds)} s. Machine: ${machine.cpu}, ${machine.cores} cores, ` +
    `${machine.memoryGb.toFixed(1)} GiB, Node ${machine.node}.`,
  '',
  settings,
  '',
  `Noise: load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end (other work ` +
    `shares the machine); the ceiling's own requests/s varied by ${(comparison.ceilingVariation * 100).toFixed(0)} % ` +
    '(standard deviation ÷ mean) from one round to the next.',
  '',
  markdownTable(sections),
  '',
  ...notes.flatMap((note) => [note, '']),
  missed.length === 0
    ? 'Every target met in this run.'
    : `Targets missed in this run: ${missed.join('; ')}. See "Reading the figures" below.`,
].join('\n');

// A quick run's figures are a smoke test of the bench, not figures to publish: they go to an untracked file.
const report = quick ? join(workRoot, 'benchmarks-quick.md') : join(repoRoot, 'docs/benchmarks.md');
writeGeneratedSection(report, '## Core service: speed, memory and scale (`npm run bench`)', markdown);

process.stdout.write(
  `Portaria benchmarks — ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGb.toFixed(1)} GiB, ` +
    `Node ${machine.node}\n${settings}\n\n${terminalTable(sections)}\n\n${notes.map((n) => `${n}\n`).join('')}` +
    `Load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}; ${Math.round(seconds)} s; ` +
    `${relative(repoRoot, report)} updated.\n`,
);
const rounded = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Math.round(v * 1000) / 1000]));
process.stdout.write(`${JSON.stringify(rounded)}\n`);
