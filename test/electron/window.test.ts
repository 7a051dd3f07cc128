import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebPreferences } from 'electron';
import { badgeWindowOptions, kioskWindowOptions, secureWebPreferences } from '../../main/window.ts';

/** Each preference the security checklist (docs/security.md) relies on, with the point it answers. */
const checklist: [keyof WebPreferences, unknown, string][] = [
  ['nodeIntegration', false, '2: no Node.js in the page'],
  ['nodeIntegrationInWorker', false, '2: no Node.js in workers'],
  ['nodeIntegrationInSubFrames', false, '2: no Node.js in frames'],
  ['contextIsolation', true, '3: context isolation'],
  ['sandbox', true, '4: sandboxed renderer'],
  ['webSecurity', true, '6: same-origin policy on'],
  ['allowRunningInsecureContent', false, '8: no mixed content'],
  ['experimentalFeatures', false, '9: no experimental features'],
  ['enableBlinkFeatures', undefined, '10: no Blink features'],
  ['webviewTag', false, '11, 12: no webviews'],
  ['navigateOnDragDrop', false, '13: a dropped file or link does not navigate'],
];

describe('window options', () => {
  test('every window is isolated, sandboxed, without Node, webviews or insecure content', () => {
    const windows = [
      kioskWindowOptions({ preload: '/app/preload/index.cjs', kiosk: true, devTools: false }),
      kioskWindowOptions({ preload: '/app/preload/index.cjs', kiosk: false, devTools: true }),
      badgeWindowOptions('/app/preload/index.cjs'),
    ];
    for (const options of windows) {
      for (const [key, value, point] of checklist) assert.equal(options.webPreferences?.[key], value, point);
      assert.equal(options.webPreferences?.preload, '/app/preload/index.cjs');
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
