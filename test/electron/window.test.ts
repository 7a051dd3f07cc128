import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { badgeWindowOptions, kioskWindowOptions, secureWebPreferences } from '../../main/window.ts';

const secure = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
};

describe('window options', () => {
  test('every window is isolated, sandboxed, without Node, webviews or insecure content', () => {
    const windows = [
      kioskWindowOptions({ preload: '/app/preload/index.cjs', kiosk: true, devTools: false }),
      kioskWindowOptions({ preload: '/app/preload/index.cjs', kiosk: false, devTools: true }),
      badgeWindowOptions('/app/preload/index.cjs'),
    ];
    for (const options of windows) {
      assert.deepEqual({ ...options.webPreferences, ...secure }, options.webPreferences);
      assert.equal(options.webPreferences?.preload, '/app/preload/index.cjs');
      assert.equal(options.webPreferences?.enableBlinkFeatures, undefined);
      assert.equal(options.show, false, 'shown only when painted (kiosk) or never (badge)');
    }
    assert.equal(secureWebPreferences().preload, undefined);
  });

  test('the kiosk is full screen, without menu bar and without developer tools even when asked', () => {
    const options = kioskWindowOptions({ preload: '/p.cjs', kiosk: true, devTools: true });
    assert.equal(options.kiosk, true);
    assert.equal(options.fullscreen, true);
    assert.equal(options.autoHideMenuBar, true);
    assert.equal(options.webPreferences?.devTools, false);
  });

  test('a windowed run (development, after the PIN exit) may have developer tools', () => {
    const options = kioskWindowOptions({ preload: '/p.cjs', kiosk: false, devTools: true });
    assert.equal(options.kiosk, false);
    assert.equal(options.fullscreen, false);
    assert.equal(options.webPreferences?.devTools, true);
    assert.equal(
      kioskWindowOptions({ preload: '/p.cjs', kiosk: false, devTools: false }).webPreferences?.devTools,
      false,
    );
  });

  test('the badge printer window has no developer tools', () => {
    assert.equal(badgeWindowOptions('/p.cjs').webPreferences?.devTools, false);
  });
});
