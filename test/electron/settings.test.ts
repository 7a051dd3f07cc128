import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { desktopEntry, loginItemPlan, quoteExecArgument } from '../../main/autostart.ts';
import { badgePrintOptions } from '../../main/printing.ts';
import { defaultKioskSettings, loadKioskSettings } from '../../main/settings.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dir = tempDir('portaria-settings-');
after(() => removeDir(dir));

describe('kiosk settings', () => {
  test('a first start writes the defaults for the installer to edit', () => {
    const file = join(dir, 'first.json');
    assert.deepEqual(loadKioskSettings(file), { settings: defaultKioskSettings });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), defaultKioskSettings);
    assert.equal(defaultKioskSettings.kiosk, true);
    assert.equal(defaultKioskSettings.autoStart, false);
  });

  test('a partial file is completed with the defaults', () => {
    const file = join(dir, 'partial.json');
    writeFileSync(file, JSON.stringify({ autoStart: true, printer: { deviceName: 'Brother_QL_820NWB' } }));
    const { settings, problem } = loadKioskSettings(file);
    assert.equal(problem, undefined);
    assert.equal(settings.autoStart, true);
    assert.equal(settings.kiosk, true);
    assert.deepEqual(settings.printer, { ...defaultKioskSettings.printer, deviceName: 'Brother_QL_820NWB' });
  });

  test('a file that is not JSON or breaks the schema gives the defaults and says why, and is left as it was', () => {
    for (const [name, text, why] of [
      ['broken.json', '{ "kiosk": ', /JSON/],
      ['wrong.json', '{ "kiosk": "yes" }', /^kiosk: /],
      ['label.json', '{ "printer": { "widthMm": 2 } }', /^printer\.widthMm: /],
    ] as const) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const { settings, problem } = loadKioskSettings(file);
      assert.deepEqual(settings, defaultKioskSettings, name);
      assert.match(problem ?? '', why, name);
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  });
});

describe('badge printing', () => {
  test('is silent, on the label’s page size in microns, with no margins, to the configured printer', () => {
    const printer = { ...defaultKioskSettings.printer, deviceName: 'Brother_QL_820NWB' };
    assert.deepEqual(badgePrintOptions(printer, 2), {
      silent: true,
      printBackground: true,
      deviceName: 'Brother_QL_820NWB',
      color: false,
      landscape: false,
      margins: { marginType: 'none' },
      pageSize: { width: 62_000, height: 100_000 },
      copies: 2,
    });
  });

  test('without a printer name it prints to the system’s default printer, one copy', () => {
    const options = badgePrintOptions(defaultKioskSettings.printer);
    assert.equal('deviceName' in options, false);
    assert.equal(options.copies, 1);
  });
});

describe('auto-start at login', () => {
  const environment = { env: {}, homeDir: '/home/kiosk', execPath: '/opt/Portaria/portaria' };

  test('Windows and macOS use the login item', () => {
    assert.deepEqual(loginItemPlan(true, { ...environment, platform: 'win32' }), {
      kind: 'login-item',
      openAtLogin: true,
    });
    assert.deepEqual(loginItemPlan(false, { ...environment, platform: 'darwin' }), {
      kind: 'login-item',
      openAtLogin: false,
    });
  });

  test('Linux writes (or removes) an XDG autostart entry naming the AppImage, not its temporary mount', () => {
    const on = loginItemPlan(true, {
      ...environment,
      platform: 'linux',
      env: { APPIMAGE: '/home/kiosk/Apps/Portaria 1.0.AppImage', XDG_CONFIG_HOME: '/cfg' },
    });
    assert.equal(on.kind, 'xdg-autostart');
    assert.equal(on.kind === 'xdg-autostart' && on.file, '/cfg/autostart/portaria.desktop');
    assert.match(
      on.kind === 'xdg-autostart' ? (on.contents ?? '') : '',
      /^Exec="\/home\/kiosk\/Apps\/Portaria 1\.0\.AppImage"$/m,
    );
    const off = loginItemPlan(false, { ...environment, platform: 'linux' });
    assert.deepEqual(off, {
      kind: 'xdg-autostart',
      file: '/home/kiosk/.config/autostart/portaria.desktop',
      contents: undefined,
    });
  });

  test('the Exec key is quoted as the Desktop Entry Specification says', () => {
    assert.equal(quoteExecArgument('/opt/Portaria/portaria'), '/opt/Portaria/portaria');
    assert.equal(quoteExecArgument('/opt/a b/$x"`\\'), '"/opt/a b/\\$x\\"\\`\\\\"');
    assert.match(desktopEntry('/opt/p'), /^\[Desktop Entry\]\nType=Application\n/);
  });
});
