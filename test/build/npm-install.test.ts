import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/service.ts';

/*
 * `npm install` without access to Electron's downloads, with npm 10 (which ignores package.json "allowScripts" and
 * runs Electron's postinstall): the project's .npmrc makes that postinstall skip its download. The whole install
 * under npm 10 is a step of .ci/run; here, the setting itself, as npm hands it to a script's Node process.
 */

/** What npm passes as NODE_OPTIONS to its scripts: the project's `node-options` setting. */
function npmNodeOptions(): string {
  const line = readFileSync(join(repoRoot, '.npmrc'), 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('node-options='));
  assert.ok(line, '.npmrc sets node-options');
  return line.slice('node-options='.length);
}

/** The ELECTRON_SKIP_BINARY_DOWNLOAD a script of the package `name` sees, as npm runs it. */
function skipSeenBy(name: string): string {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: npmNodeOptions(), npm_package_name: name };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(
    process.execPath,
    ['-e', 'process.stdout.write(String(process.env.ELECTRON_SKIP_BINARY_DOWNLOAD))'],
    { env, encoding: 'utf8' },
  );
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

test("Electron's own postinstall skips its download (it would fail an offline npm 10 install)", () => {
  assert.equal(skipSeenBy('electron'), '1');
});

test("the project's postinstall still fetches Electron's binary, and no other package is told to skip", () => {
  assert.equal(skipSeenBy('portaria'), 'undefined');
  assert.equal(skipSeenBy('better-sqlite3'), 'undefined');
});
