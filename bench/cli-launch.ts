/**
 * What `npx portaria` costs over running the command line's launcher directly: `npx portaria --help` against
 * `node main/cli/portaria.mjs --help`, alternately, each run timed from spawn to exit, with `npx --version` (npm's own
 * start, the least any npx call costs). npx took seconds more when it read every installed package again: when
 * package.json named the command as its "bin" (main/build/link-command.mjs says why), and when npm's record of
 * node_modules (its hidden lock file, node_modules/.package-lock.json) was older than a folder in node_modules. So
 * the folders newer than that record are listed too. Goal: npx within 0.5 s of the direct call (docs/benchmarks.md).
 *
 *   node --import tsx bench/cli-launch.ts [--runs 7]        (npm run bench:cli-launch)
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../main/build/paths.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Math.min(Math.max(Number.parseInt(values.runs, 10) || 7, 1), 50);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const ways = {
  // npm's own start: the least any npx call costs.
  'npx --version': [npx, ['--version']],
  'npx portaria --help': [npx, ['portaria', '--help']],
  'node main/cli/portaria.mjs --help': [process.execPath, [join(repoRoot, 'main', 'cli', 'portaria.mjs'), '--help']],
} satisfies Record<string, [string, string[]]>;

function timed(command: string, args: string[]): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.error}`);
  return performance.now() - started;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

/** Folders of node_modules changed after npm last recorded it: each makes npm re-read every package. */
function newerThanNpmRecord(): string[] {
  const modules = join(repoRoot, 'node_modules');
  const recorded = statSync(join(modules, '.package-lock.json'), { throwIfNoEntry: false })?.mtimeMs;
  if (recorded === undefined) return ['(no node_modules/.package-lock.json)'];
  // npm compares the folders of packages, not dot-folders such as .bin.
  return readdirSync(modules).filter(
    (entry) => !entry.startsWith('.') && statSync(join(modules, entry)).mtimeMs > recorded,
  );
}

const stale = newerThanNpmRecord();
const times = Object.fromEntries(Object.keys(ways).map((name) => [name, [] as number[]]));
// Once each first, to warm the file cache.
for (const [command, args] of Object.values(ways)) timed(command, args);
for (let run = 0; run < runs; run += 1) {
  for (const [name, [command, args]] of Object.entries(ways)) times[name]?.push(timed(command, args));
}
const ms = (value: number) => `${Math.round(value)} ms`;
for (const [name, list] of Object.entries(times)) {
  console.log(`${name.padEnd(36)} median ${ms(median(list)).padStart(8)}   min ${ms(Math.min(...list)).padStart(8)}`);
}
const cost = median(times['npx portaria --help'] ?? []) - median(times['node main/cli/portaria.mjs --help'] ?? []);
console.log(`\nnpx costs ${ms(cost)} more (median of ${runs}; goal: within 500 ms)`);
console.log(`node_modules entries newer than npm's hidden lock file: ${stale.length ? stale.join(', ') : 'none'}`);
