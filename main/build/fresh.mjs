// Whether a build is up to date with its sources, and a lock so that only one process builds at a time. Plain
// JavaScript: the command line's launcher (main/cli/portaria.mjs) checks a build with it before it runs the build,
// and needs neither tsx nor esbuild for that.
//
// A build records its inputs in a manifest: for each file (relative to the repository) its size and modification
// time, and for each source folder the list of its files, so that a file added or removed there counts as a change.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** The paths of directory entries that are files, relative to `root`, with `/` separators, sorted; none under `dist`. */
const filePaths = (root, entries) =>
  entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').includes('dist'))
    .sort();

/** The files under `dir`, relative to `root`, with `/` separators, sorted; none under a `dist` folder. */
export function filesUnder(root, dir) {
  return filePaths(root, readdirSync(join(root, dir), { recursive: true, withFileTypes: true }));
}

const stampOf = (stats) => (stats ? [stats.size, stats.mtimeMs] : null);

function stamp(root, path) {
  return stampOf(statSync(join(root, path), { throwIfNoEntry: false }));
}

/** Writes the manifest of a build from its inputs: `folders` are listed whole, `files` are single files. */
export function recordInputs(root, manifestFile, { folders = [], files = [] }) {
  const listed = Object.fromEntries(folders.map((dir) => [dir, filesUnder(root, dir)]));
  const all = [...new Set([...Object.values(listed).flat(), ...files])].sort();
  const inputs = Object.fromEntries(all.map((path) => [path, stamp(root, path)]));
  mkdirSync(dirname(manifestFile), { recursive: true });
  writeFileSync(manifestFile, JSON.stringify({ folders: listed, inputs }));
}

/** The recorded inputs of a build, or undefined when it has none (never built). */
export function readInputs(manifestFile) {
  try {
    return JSON.parse(readFileSync(manifestFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Why a build is out of date (a file changed, added or removed), or undefined when it is up to date: `files(dir)`
 * lists a source folder now (throws when it is gone), `stampNow(path)` gives a file's size and time now.
 */
function judge(manifest, files, stampNow) {
  if (!manifest) return 'it was never built';
  for (const [dir, recorded] of Object.entries(manifest.folders)) {
    let now;
    try {
      now = files(dir);
    } catch {
      return `${dir} is missing`;
    }
    if (now.length !== recorded.length || now.some((path, i) => path !== recorded[i]))
      return `files were added to or removed from ${dir}`;
  }
  for (const [path, recorded] of Object.entries(manifest.inputs)) {
    const current = stampNow(path);
    if (current?.[0] !== recorded?.[0] || current?.[1] !== recorded?.[1]) return `${path} changed`;
  }
  return undefined;
}

/** Why a build is out of date, or undefined when it is up to date. */
export function staleness(root, manifestFile) {
  return judge(
    readInputs(manifestFile),
    (dir) => filesUnder(root, dir),
    (path) => stamp(root, path),
  );
}

/**
 * The same, with the folders listed and the files' times read on libuv's threads, all at once: the command line's
 * launcher compiles the bundle meanwhile, so the check costs its start-up almost nothing.
 */
export async function stalenessInBackground(root, manifestFile) {
  const manifest = readInputs(manifestFile);
  if (!manifest) return judge(manifest);
  const settled = (promise) =>
    promise.then(
      (value) => ({ value }),
      (error) => ({ error }),
    );
  const [listings, stamps] = await Promise.all([
    Promise.all(
      Object.keys(manifest.folders).map((dir) =>
        settled(readdir(join(root, dir), { recursive: true, withFileTypes: true })),
      ),
    ),
    Promise.all(Object.keys(manifest.inputs).map((path) => stat(join(root, path)).then(stampOf, () => null))),
  ]);
  const listed = new Map(Object.keys(manifest.folders).map((dir, i) => [dir, listings[i]]));
  const stamped = new Map(Object.keys(manifest.inputs).map((path, i) => [path, stamps[i]]));
  return judge(
    manifest,
    (dir) => {
      const { value, error } = listed.get(dir);
      if (error) throw error;
      return filePaths(root, value);
    },
    (path) => stamped.get(path),
  );
}

/**
 * Runs `build` while holding `<lockDir>` (made with mkdir, which only one process can do); a process that finds it
 * held waits for it to go, then runs `build`, which checks again whether there is still anything to do. A lock
 * older than `staleMs` was left by a build that died, and is taken over.
 */
export async function withBuildLock(lockDir, build, staleMs = 10 * 60_000) {
  mkdirSync(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const since = statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > staleMs) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await build();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
