import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { after, test } from 'node:test';
import { buildRenderer } from '../../main/build/build.ts';
import { removeDir, repoRoot, tempDir } from '../helpers/service.ts';

/*
 * The page's build writes nothing under node_modules: a write there makes npm's hidden lock file stale, and every
 * `npx portaria` after it re-read all the installed packages (bench/cli-launch.ts measures the launch).
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

test('building the page leaves node_modules as it was (no config bundle in node_modules/.vite-temp)', async () => {
  const root = tempDir('portaria-renderer-build-');
  dirs.push(root);
  mkdirSync(join(root, 'node_modules'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(root, 'renderer', 'index.html'),
    '<!doctype html><script type="module" src="./main.ts"></script>\n',
  );
  writeFileSync(join(root, 'renderer', 'main.ts'), "document.title = 'built';\n");
  writeFileSync(
    join(root, 'renderer', 'vite.config.ts'),
    "export default { root: import.meta.dirname, cacheDir: '../dist/vite', build: { outDir: 'dist' } };\n",
  );
  await buildRenderer(root, join(root, 'dist', 'renderer-inputs.json'));
  assert.ok(existsSync(join(root, 'renderer', 'dist', 'index.html')), 'the page was built');
  assert.deepEqual(readdirSync(join(root, 'node_modules')), []);
});

test("the page's Vite config keeps Vite's cache out of node_modules", async () => {
  const { resolveConfig } = await import('vite');
  const config = await resolveConfig(
    { configFile: join(repoRoot, 'renderer', 'vite.config.ts'), configLoader: 'runner', logLevel: 'silent' },
    'build',
  );
  const cache = relative(repoRoot, config.cacheDir);
  assert.ok(!cache.startsWith('..'), `inside the repository: ${cache}`);
  assert.ok(!cache.split(sep).includes('node_modules'), `not under node_modules: ${cache}`);
});
