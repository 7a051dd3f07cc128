import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { removeDir, repoRoot, tempDir } from '../helpers/service.ts';

/*
 * `npx portaria` runs node_modules/.bin/portaria, which the postinstall links: a project's own package.json "bin"
 * makes npm install the project into its npx cache and read every installed package again, on every call
 * (bench/cli-launch.ts measures the launch).
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

test('package.json declares no "bin" (npm would take its slow way) and the postinstall links the command', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  assert.equal(manifest.bin, undefined);
  assert.match(manifest.scripts.postinstall, /node main\/build\/link-command\.mjs/);
});

test('the link in node_modules/.bin runs the command line of the project it was installed in (twice: no error)', () => {
  const project = tempDir('portaria-link-command-');
  dirs.push(project);
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(join(project, 'main', 'cli'), { recursive: true });
  writeFileSync(join(project, 'main', 'cli', 'portaria.mjs'), '#!/usr/bin/env node\nconsole.log("ran");\n', {
    mode: 0o755,
  });
  for (const run of [1, 2]) {
    const linked = spawnSync(process.execPath, [join(repoRoot, 'main', 'build', 'link-command.mjs')], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.equal(linked.status, 0, `run ${run}: ${linked.stderr}`);
  }
  const command = join(project, 'node_modules', '.bin', process.platform === 'win32' ? 'portaria.cmd' : 'portaria');
  if (process.platform !== 'win32') {
    assert.equal(realpathSync(command), realpathSync(join(project, 'main', 'cli', 'portaria.mjs')));
    assert.equal(spawnSync(command, [], { encoding: 'utf8' }).stdout, 'ran\n');
  }
});
