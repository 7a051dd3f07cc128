#!/usr/bin/env node
// `portaria`: runs the command line compiled into the app's tree (dist/electron/main/cli/main.js). When the tree is
// older than its sources (a fresh clone whose `npm install` did not build, or sources edited since), it is built
// first, which needs the development dependencies (tsx, esbuild, Vite); the build's messages go to stderr.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stalenessInBackground } from '../build/fresh.mjs';

const root = join(import.meta.dirname, '..', '..');
const tree = join(root, 'dist', 'electron');
const commandLine = pathToFileURL(join(tree, 'main', 'cli', 'main.js')).href;
// The command line runs minified: a stack trace is worth reading only through its source map, which Node reads as
// a module loads.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
// The check reads the sources' times on libuv's threads while the compiled command line loads (most of a start-up);
// it runs only once the check found it current. Loading has no effect of its own: main() is what acts.
const checking = stalenessInBackground(root, join(tree, '.inputs.json'));
const loading = import(commandLine).then(
  (module) => ({ module }),
  (error) => ({ error }),
);
const why = await checking;
let loaded;
if (why) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'main', 'build', 'build.ts')], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    process.stderr.write(`portaria: building the app failed (${why}): run npm run build to see why, then try again\n`);
    process.exit(1);
  }
  // Another URL: the module already loaded (or not found) from before the build is not the one built now.
  loaded = await import(`${commandLine}?built=${Date.now()}`).then((module) => ({ module }));
} else {
  loaded = await loading;
}
if (loaded.error) throw loaded.error;
await loaded.module.main(process.argv.slice(2));
