import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { contentSecurityPolicy } from '../../local-api/kiosk/csp.ts';
import { ensureBuilt } from '../../main/build/build.ts';
import {
  builtForAbi,
  displayAvailable,
  electronAbi,
  electronBinary,
  electronNativeModuleFile,
  packageDir,
} from '../../main/build/launch.ts';
import { buildElectronNative } from '../../main/build/native.ts';
import { outDir } from '../../main/build/paths.ts';
import { removeDir, repoRoot, tempDir } from '../helpers/service.ts';

const electronDir = packageDir(() => createRequire(join(repoRoot, 'package.json')).resolve('electron/package.json'));
const binary = electronBinary(electronDir);
const display = displayAvailable(process.platform, process.env);

/**
 * The shell end to end, through Playwright's Electron support: the built app, its real window, preload and
 * service. It needs Electron's binary, a display (xvfb-run gives one) and better-sqlite3 built for Electron;
 * where one is missing it reports itself skipped, with the reason.
 */
test('the Electron shell end to end', async (t) => {
  if ('reason' in binary) return t.skip(`Electron binary not installed here: ${binary.reason}`);
  if (!display.ok) return t.skip(`no display here: ${display.reason}; run under xvfb-run`);
  if (electronDir && !builtForAbi(electronNativeModuleFile(outDir), electronAbi(electronDir))) {
    if (!(await buildElectronNative())) return t.skip('better-sqlite3 could not be built for Electron here');
  }
  await ensureBuilt();

  const data = tempDir('portaria-e2e-');
  let app: ElectronApplication | undefined;
  try {
    app = await _electron.launch({
      executablePath: binary.path,
      args: [repoRoot],
      env: { ...process.env, PORTARIA_DATA: data, PORTARIA_PORT: '0', PORTARIA_KIOSK: '0' },
    });
    const page: Page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    const origin = new URL(page.url()).origin;
    assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData')), data);

    await t.test('the page gets the bridge and nothing of Node or Electron', async () => {
      const seen = await page.evaluate(() => ({
        bridge: Object.keys(window.portaria ?? {}).sort(),
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }));
      assert.deepEqual(seen, {
        bridge: ['appVersion', 'connection', 'exitKiosk', 'printBadge'],
        require: 'undefined',
        process: 'undefined',
      });
    });

    await t.test('the credential from the bridge opens the API; pages carry the CSP header', async () => {
      const seen = await page.evaluate(async () => {
        const bridge = window.portaria;
        if (!bridge) throw new Error('no bridge');
        const connection = await bridge.connection();
        const hosts = await fetch(`${connection.serviceUrl}/v1/kiosk/company`, {
          headers: { authorization: `Bearer ${connection.apiKey}` },
        });
        const page = await fetch('/');
        return {
          serviceUrl: connection.serviceUrl,
          hosts: hosts.status,
          csp: page.headers.get('content-security-policy'),
          version: await bridge.appVersion(),
        };
      });
      const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
      assert.deepEqual(seen, { serviceUrl: origin, hosts: 200, csp: contentSecurityPolicy, version });
    });

    await t.test('no new windows, no navigation away, no microphone', async () => {
      const opened = await page.evaluate(() => window.open('https://example.com/') === null);
      assert.equal(opened, true);
      assert.equal(app?.windows().length, 1);
      await page.evaluate(() => {
        window.location.href = 'https://example.com/';
      });
      await page.waitForTimeout(500);
      assert.equal(new URL(page.url()).origin, origin);
      const microphone = await page.evaluate(() =>
        navigator.mediaDevices.getUserMedia({ audio: true }).then(
          () => 'granted',
          (error: Error) => error.name,
        ),
      );
      assert.equal(microphone, 'NotAllowedError');
    });

    await t.test('IPC refuses bad arguments; the PIN leaves the kiosk', async () => {
      const pin = readFileSync(join(data, 'kiosk-pin.txt'), 'utf8').split('\n')[0];
      const seen = await page.evaluate(async (rightPin) => {
        const bridge = window.portaria;
        if (!bridge) throw new Error('no bridge');
        const badPath = await bridge.printBadge({ path: 'https://example.com/' }).then(
          () => 'accepted',
          (error: Error) => (error.message.includes('INVALID_ARGUMENTS') ? 'refused' : error.message),
        );
        return { badPath, wrong: await bridge.exitKiosk('000000'), right: await bridge.exitKiosk(rightPin ?? '') };
      }, pin);
      assert.deepEqual(seen, {
        badPath: 'refused',
        wrong: { exited: false, reason: 'WRONG_PIN' },
        right: { exited: true },
      });
    });

    await app.close();
    app = undefined;
    await assert.rejects(fetch(`${origin}/v1/hosts`), 'the service stopped with the app');
  } finally {
    await app?.close();
    removeDir(data);
  }
});
