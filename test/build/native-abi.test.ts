import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import afterPack from '../../main/build/after-pack.mjs';
import { appNativeDependencies, nativePackages, withoutNodedir } from '../../main/build/native.ts';
import { electronAbi, modulesNotBuiltFor, registeredAbi } from '../../main/build/native-abi.mjs';
import { removeDir, repoRoot, tempDir } from '../helpers/service.ts';

/*
 * Installers carry native modules built for Electron's ABI, never Node's: the packaged app is checked (the
 * afterPack hook of electron-builder.yml) on a real module, the project's better-sqlite3, built for this Node.
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

const require = createRequire(join(repoRoot, 'package.json'));
const projectModule = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
const electronDir = join(repoRoot, 'node_modules', 'electron');

/** A packaged app's folder, as electron-builder leaves it before making installers, with the project's module. */
function packedApp(): string {
  const appOutDir = tempDir('portaria-packed-');
  dirs.push(appOutDir);
  const packaged = join(
    appOutDir,
    'resources',
    'app.asar.unpacked',
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
  );
  mkdirSync(packaged, { recursive: true });
  copyFileSync(projectModule, join(packaged, 'better_sqlite3.node'));
  return appOutDir;
}

test("the project's better-sqlite3 registers this Node's ABI; Electron's is another, read from its package", () => {
  assert.equal(registeredAbi(projectModule), process.versions.modules);
  assert.match(electronAbi(electronDir), /^\d+$/);
  assert.notEqual(electronAbi(electronDir), process.versions.modules);
});

test("a packaged module built for Node is listed with its ABI; for Electron's ABI it would pass", () => {
  const appOutDir = packedApp();
  const [wrong, ...more] = modulesNotBuiltFor(appOutDir, electronAbi(electronDir));
  assert.deepEqual(more, []);
  assert.equal(wrong?.abi, process.versions.modules);
  assert.match(
    wrong?.file ?? '',
    /app\.asar\.unpacked\/node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node$/,
  );
  assert.deepEqual(modulesNotBuiltFor(appOutDir, process.versions.modules), []);
});

test('electron-builder refuses the app (its afterPack hook throws) when a packaged module is not built for Electron', async () => {
  const appOutDir = packedApp();
  await assert.rejects(
    afterPack({ appOutDir, packager: { projectDir: repoRoot } }),
    new RegExp(
      `not built for Electron's ABI ${electronAbi(electronDir)}: .*better_sqlite3\\.node \\(ABI ${process.versions.modules}\\)`,
    ),
  );
  // A Node-API module (no node_register_module_v… symbol) suits every ABI.
  const napiOnly = tempDir('portaria-packed-napi-');
  dirs.push(napiOnly);
  writeFileSync(join(napiOnly, 'addon.node'), 'napi_register_module_v1');
  await afterPack({ appOutDir: napiOnly, packager: { projectDir: repoRoot } });
});

test('electron-builder rebuilds nothing in the project (npmRebuild: false) and runs the check after packing', () => {
  const config = readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8');
  assert.match(config, /^npmRebuild: false$/m);
  assert.match(config, /^afterPack: \.\/main\/build\/after-pack\.mjs$/m);
});

test("electron-builder called directly leaves the project's module alone, packs it as it is, and refuses it", () => {
  // A stand-in for Electron's binary (it cannot be downloaded here): packing a folder needs nothing else of it.
  const electronDist = tempDir('portaria-fake-electron-');
  const output = tempDir('portaria-installers-');
  dirs.push(electronDist, output);
  writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\n');
  chmodSync(join(electronDist, 'electron'), 0o755);
  const builder = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'electron-builder', 'cli.js'),
      '--config',
      'electron-builder.yml',
      '--linux',
      'dir',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${output}`,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 180_000 },
  );
  const said = `${builder.stdout}${builder.stderr}`;
  assert.notEqual(builder.status, 0, said);
  assert.match(said, /skipped dependencies rebuild/);
  assert.match(
    said,
    new RegExp(
      `not built for Electron's ABI ${electronAbi(electronDir)}: \\S*better_sqlite3\\.node \\(ABI ${process.versions.modules}\\)`,
    ),
  );
  assert.equal(registeredAbi(projectModule), process.versions.modules, "the project's build is still Node's");
});

test("the Electron build's environment has no nodedir (it made node-gyp use Node's headers)", () => {
  const env = withoutNodedir({ npm_config_nodedir: '/usr', NPM_CONFIG_NODEDIR: '/usr', PATH: '/bin' });
  assert.deepEqual(env, { PATH: '/bin' });
});

test("dist rebuilds the app's native dependencies, found from package.json, not a list of names; scoped ones too", () => {
  const root = tempDir('portaria-native-packages-');
  dirs.push(root);
  for (const [name, file] of [
    ['a-native', 'binding.gyp'],
    ['@scope/b-native', 'binding.gyp'],
    ['c-plain', 'index.js'],
  ] as const) {
    mkdirSync(join(root, 'node_modules', name), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, file), '{}');
  }
  assert.deepEqual(nativePackages(root), ['@scope/b-native', 'a-native']);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { 'a-native': '1', 'c-plain': '1' } }));
  assert.deepEqual(appNativeDependencies(root), ['a-native']);
  // The project's: better-sqlite3 (PostgreSQL's driver, pg, is plain JavaScript).
  assert.deepEqual(appNativeDependencies(), ['better-sqlite3']);
});
