import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { after, describe, test } from 'node:test';
import { ensureBuilt } from '../../main/build/build.ts';
import { builtForAbi, displayAvailable, electronBinary } from '../../main/build/launch.ts';
import { cliPath, removeDir, repoRoot, tempDir } from '../helpers/service.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});
const fresh = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};

describe('what npm start checks before launching Electron', () => {
  test('Electron’s binary: package, path.txt, then the file it names', () => {
    assert.match((electronBinary(undefined) as { reason: string }).reason, /electron package is not installed/);
    const dir = fresh('portaria-electron-pkg-');
    assert.match((electronBinary(dir) as { reason: string }).reason, /binary is not installed here.*network/);
    writeFileSync(join(dir, 'path.txt'), 'electron');
    assert.match((electronBinary(dir) as { reason: string }).reason, /binary is missing at/);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'electron'), '');
    assert.deepEqual(electronBinary(dir), { path: join(dir, 'dist', 'electron') });
  });

  test('a display: X11 or Wayland on Linux, always on Windows and macOS', () => {
    assert.deepEqual(displayAvailable('linux', { DISPLAY: ':0' }), { ok: true });
    assert.deepEqual(displayAvailable('linux', { WAYLAND_DISPLAY: 'wayland-0' }), { ok: true });
    assert.match((displayAvailable('linux', {}) as { reason: string }).reason, /no display.*DISPLAY.*WAYLAND_DISPLAY/);
    assert.deepEqual(displayAvailable('win32', {}), { ok: true });
    assert.deepEqual(displayAvailable('darwin', {}), { ok: true });
  });

  test('the native module’s ABI: the project’s copy is Node’s, which Electron refuses', () => {
    const projectCopy = join(repoRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    assert.equal(builtForAbi(projectCopy, process.versions.modules), true);
    const electronAbi = readFileSync(join(repoRoot, 'node_modules/electron/abi_version'), 'utf8').trim();
    assert.notEqual(electronAbi, process.versions.modules);
    assert.equal(builtForAbi(projectCopy, electronAbi), false);
    assert.equal(builtForAbi(join(repoRoot, 'no-such.node'), electronAbi), false);
  });
});

describe('npm run build:electron', () => {
  // Inside the repository, so the built files resolve npm packages from its node_modules as the app does.
  const out = join(repoRoot, 'dist', `build-test-${process.pid}`);
  after(() => removeDir(out));

  test('builds the main process, the service, the page and a self-contained CommonJS preload; under plain Node the built service answers the page and the API', async () => {
    await ensureBuilt(repoRoot, out);
    for (const file of [
      'main/index.js',
      'local-api/server.js',
      'local-api/store/migrations/0001_core.sql',
      'main/cli/main.js',
      'renderer/dist/index.html',
    ]) {
      assert.ok(existsSync(join(out, file)), file);
    }
    // The command line is one bundle (main/cli/main.js and its chunks), the build tools run from their sources.
    for (const file of [
      'main/index.ts',
      'main/cli/portaria.mjs',
      'main/cli/serve.js',
      'main/build',
      'preload/index.js',
    ]) {
      assert.equal(existsSync(join(out, file)), false, `${file} is not part of the tree`);
    }
    const preload = readFileSync(join(out, 'preload/index.cjs'), 'utf8');
    assert.deepEqual(
      [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]),
      ['electron'],
    );
    assert.doesNotMatch(preload, /^\s*(import|export)\s/m);

    // What the asar gets from node_modules is package.json's dependencies: exactly the packages the app's tree
    // imports (Electron itself excepted, which the app runs in), nothing for the page, which Vite bundled. The
    // command line's bundle (main/cli/) stays out of the package (electron-builder.yml).
    const imported = new Set<string>();
    for (const dir of ['main', 'local-api', 'preload']) {
      for (const file of readdirSync(join(out, dir), { recursive: true }) as string[]) {
        if (!/\.c?js$/.test(file) || (dir === 'main' && file.split(sep)[0] === 'cli')) continue;
        const code = readFileSync(join(out, dir, file), 'utf8');
        for (const [, name = ''] of code.matchAll(/(?:from |import\(|require\()"([^".][^"]*)"/g)) {
          if (!name.startsWith('node:') && name !== 'electron')
            imported.add(
              name
                .split('/')
                .slice(0, name.startsWith('@') ? 2 : 1)
                .join('/'),
            );
        }
      }
    }
    // react-dom is no import of ours: React Email's renderer (HTML e-mail) loads it, as a peer the app must ship.
    const peers = ['react-dom'];
    const { dependencies } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    assert.deepEqual([...imported, ...peers].sort(), Object.keys(dependencies).sort());

    const built = readFileSync(join(out, 'main/index.js'), 'utf8');
    for (const [, path = ''] of built.matchAll(/from "(\.[^"]+)"/g)) {
      assert.ok(existsSync(join(out, 'main', path)), `main/index.js imports ${path}, which was built`);
    }
    // The built supervisor and service process, forked by plain Node (the app forks the same file as a utility
    // process): no tsx in these processes.
    const { ServiceSupervisor } = await import(join(out, 'main/service.js'));
    const { nodeServiceProcess } = await import(join(out, 'main/service-process.js'));
    const quiet = { info() {}, warn() {}, error() {} };
    const supervisor = new ServiceSupervisor({
      dataDir: fresh('portaria-built-'),
      port: 0,
      deviceKey: randomBytes(32),
      companyName: 'Acme',
      fork: nodeServiceProcess(join(out, 'main/service-child.js')),
      log: quiet,
      logLevel: 'warn',
    });
    const service = await supervisor.start();
    try {
      const page = await fetch(`${service.url}/`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      const html = await page.text();
      assert.equal(html, readFileSync(join(out, 'renderer/dist/index.html'), 'utf8'));
      const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
      assert.ok(script, 'the page loads its script');
      assert.equal((await fetch(`${service.url}${script}`)).status, 200);
      assert.equal((await fetch(`${service.url}/v1/hosts`)).status, 401);
      const hosts = await fetch(`${service.url}/v1/hosts`, {
        headers: { authorization: `Bearer ${service.firstStart?.apiKey}` },
      });
      assert.equal(hosts.status, 200);
    } finally {
      await supervisor.stop();
    }
  });
});

describe('npm start where Electron cannot run', () => {
  test('says why and starts browser mode, printing the kiosk’s URL', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORTARIA_LOG_LEVEL: 'warn' };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const data = fresh('portaria-start-');
    const child = spawn(process.execPath, [cliPath, 'start', '--port', '0', '--data', data], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no kiosk URL in: ${out}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /^Kiosk: (http:\/\/127\.0\.0\.1:\d+)\/$/m.exec(out);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      assert.match(
        out,
        /^Not starting the Electron kiosk: (Electron's binary is|there is no display).*browser mode\.$/m,
      );
      assert.match(out, new RegExp(`^Data folder: ${data}$`, 'm'));
      assert.equal((await fetch(`${url}/v1/hosts`)).status, 401);
      assert.match(out, /^ {2}API key \(admin, shown once\): prt_\S+$/m, 'the first run made a company, enrolled');
      assert.match(out, /^ {2}Front-desk PIN \(shown once\): \d{8}$/m);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
