/**
 * The SQLite kiosk path (a read, a walk-in, an invitee check-in, a check-out over HTTP) of this working tree
 * against a base commit, built from its own files (bench/baseline.ts) in a folder outside the repository and kept
 * there for the next run; the two servers take turns on copies of one database seeded by the base's own code.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { baselineTree, seededAt } from '../baseline.ts';
import { type ComparisonRun, compareWithCeiling } from '../compare.ts';
import type { LoadSettings } from '../load.ts';
import type { SeedCounts } from '../seed.ts';
import { repoRoot, startPortaria } from '../servers.ts';

export interface KioskPathPlan {
  counts: SeedCounts;
  load: LoadSettings;
  warmupSeconds: number;
  rounds: number;
}

/** A commit's short id, from any name git knows it by (`main` is also a folder here: `^{commit}` says which). */
export function commitOf(name: string): string {
  const args = ['rev-parse', '--short', '--verify', `${name}^{commit}`];
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
}

/**
 * Builds `base` in `cacheDir` (once per commit), seeds with it in `workDir`, and drives the four endpoints on the
 * base's `portaria serve` and this tree's.
 */
export async function measureKioskPath(
  base: string,
  cacheDir: string,
  workDir: string,
  plan: KioskPathPlan,
  log: (line: string) => void,
): Promise<ComparisonRun> {
  const commit = commitOf(base);
  const root = baselineTree(commit, cacheDir, log);
  const seeded = seededAt(root, join(workDir, 'seeded'), plan.counts, 'fresh');
  return compareWithCeiling({
    seeded,
    workDir: join(workDir, 'run'),
    settings: plan.load,
    warmupSeconds: plan.warmupSeconds,
    rounds: plan.rounds,
    reference: { label: commit, apiKey: seeded.apiKey, start: (dir) => startPortaria(dir, [], { root }) },
    log,
  });
}
