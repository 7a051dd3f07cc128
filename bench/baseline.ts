/**
 * Another commit's Portaria, to measure this tree against it in the same run: the commit's files (`git archive`,
 * which changes nothing in the repository) in bench/.work/baseline-<commit>, this checkout's node_modules linked
 * there, built once with the commit's own build. The folder is reused by later runs (a commit does not change).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SeedCounts, SeededData, SeedProfile } from './seed.ts';
import { repoRoot } from './servers.ts';

/** The main branch before the PostgreSQL hub (issue 16): the SQLite kiosk path's figures are held against it. */
export const beforePostgres = '4e4c277';

/** The commit's tree, built; made when missing or left half-made by an interrupted run. */
export function baselineTree(commit: string, workRoot: string, log: (line: string) => void): string {
  const root = join(workRoot, `baseline-${commit}`);
  const done = join(root, '.bench-ready');
  if (existsSync(done)) return root;
  log(`building commit ${commit} in ${root}…`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: repoRoot, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'main/build/build.ts'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`building ${commit} failed: ${build.stderr.trim().split('\n').pop()}`);
  writeFileSync(done, `${commit}\n`);
  return root;
}

/**
 * A database seeded by the commit's own seeding code (its migrations: a newer tree migrates a copy forward when it
 * starts on it, as an upgraded kiosk does; an older one refuses a schema it does not know). Reused while the counts
 * and the profile are the same.
 */
export function seededAt(root: string, dir: string, counts: SeedCounts, profile: SeedProfile): SeededData {
  const manifest = join(dir, 'seed.json');
  if (existsSync(manifest)) {
    const seeded = JSON.parse(readFileSync(manifest, 'utf8')) as SeededData;
    if (seeded.profile === profile && JSON.stringify(seeded.counts) === JSON.stringify(counts)) return seeded;
  }
  const args = ['--dir', dir, '--hosts', `${counts.hosts}`, '--invitees', `${counts.invitees}`];
  args.push('--visits', `${counts.visits}`, '--profile', profile);
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'bench/seed.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`seeding with ${root} failed: ${made.stderr.trim().split('\n').pop()}`);
  return JSON.parse(made.stdout.trim().split('\n').pop() as string) as SeededData;
}
