#!/usr/bin/env node
// `portaria`: runs the command line compiled into the app's tree (dist/electron/main/cli/main.js). When the tree is
// older than its sources (a fresh clone whose `npm install` did not build, or sources edited since), it is built
// first, which needs the development dependencies (tsx, esbuild, Vite); the build's messages go to stderr.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { staleness } from '../build/fresh.mjs';

const root = join(import.meta.dirname, '..', '..');
const tree = join(root, 'dist', 'electron');
const why = staleness(root, join(tree, '.inputs.json'));
if (why) {
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'main', 'build', 'build.ts')], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    process.stderr.write(`portaria: building the app failed (${why}): run npm run build to see why, then try again\n`);
    process.exit(1);
  }
}
// The command line runs minified: a stack trace is worth reading only through its source map, which Node reads as
// a module loads.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);
const { main } = await import(pathToFileURL(join(tree, 'main', 'cli', 'main.js')).href);
await main(process.argv.slice(2));
