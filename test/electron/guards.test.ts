import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  allowNavigation,
  allowPermissionCheck,
  allowPermissionRequest,
  isAppUrl,
  isTrustedSender,
  windowOpenResponse,
} from '../../main/guards.ts';

const app = 'http://127.0.0.1:4780';

describe('isAppUrl and navigation', () => {
  test('accepts the app origin, any path, query or fragment', () => {
    for (const url of [`${app}/`, `${app}/visits?x=1`, `${app}/#/checkin`, 'http://127.0.0.1:4780']) {
      assert.equal(isAppUrl(url, app), true, url);
      assert.equal(allowNavigation(url, app), true, url);
    }
  });

  test('refuses look-alikes, other ports and schemes, and what is not a URL', () => {
    for (const url of [
      'http://127.0.0.1:4780.evil.test/',
      'http://127.0.0.1:4780@evil.test/',
      'http://127.0.0.1:4781/',
      'https://127.0.0.1:4780/',
      'http://localhost:4780/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'about:blank',
      '/relative/path',
      '',
    ]) {
      assert.equal(isAppUrl(url, app), false, url);
      assert.equal(allowNavigation(url, app), false, url);
    }
  });

  test('refuses every new window, the app’s own pages included', () => {
    assert.deepEqual(windowOpenResponse(), { action: 'deny' });
  });
});

describe('permission requests', () => {
  const camera = { requestingUrl: `${app}/checkin`, isMainFrame: true, mediaTypes: ['video'] };

  test('grant the camera (video only) to the app’s top frame', () => {
    assert.equal(allowPermissionRequest(app, 'media', camera), true);
  });

  test('refuse the microphone, camera with microphone, and a media request naming no type', () => {
    assert.equal(allowPermissionRequest(app, 'media', { ...camera, mediaTypes: ['audio'] }), false);
    assert.equal(allowPermissionRequest(app, 'media', { ...camera, mediaTypes: ['video', 'audio'] }), false);
    assert.equal(allowPermissionRequest(app, 'media', { ...camera, mediaTypes: [] }), false);
    assert.equal(
      allowPermissionRequest(app, 'media', { requestingUrl: camera.requestingUrl, isMainFrame: true }),
      false,
    );
  });

  test('refuse the camera to another origin and to a sub-frame', () => {
    assert.equal(allowPermissionRequest(app, 'media', { ...camera, requestingUrl: 'https://evil.test/' }), false);
    assert.equal(allowPermissionRequest(app, 'media', { ...camera, isMainFrame: false }), false);
  });

  test('refuse every other permission, even to the app', () => {
    for (const permission of [
      'notifications',
      'geolocation',
      'display-capture',
      'clipboard-read',
      'openExternal',
      'fileSystem',
      'midiSysex',
      'pointerLock',
      'fullscreen',
    ]) {
      assert.equal(allowPermissionRequest(app, permission, camera), false, permission);
    }
  });
});

describe('permission checks', () => {
  test('answer yes for the app’s camera, with or without a trailing slash on the origin', () => {
    for (const origin of [app, `${app}/`]) {
      assert.equal(allowPermissionCheck(app, 'media', origin, { isMainFrame: true, mediaType: 'video' }), true);
    }
  });

  test('answer no for the microphone, unknown media, other origins, sub-frames and other permissions', () => {
    const top = { isMainFrame: true, mediaType: 'video' };
    assert.equal(allowPermissionCheck(app, 'media', app, { ...top, mediaType: 'audio' }), false);
    assert.equal(allowPermissionCheck(app, 'media', app, { ...top, mediaType: 'unknown' }), false);
    assert.equal(allowPermissionCheck(app, 'media', 'https://evil.test', top), false);
    assert.equal(allowPermissionCheck(app, 'media', app, { ...top, isMainFrame: false }), false);
    assert.equal(allowPermissionCheck(app, 'media', app, { ...top, embeddingOrigin: 'https://evil.test' }), false);
    assert.equal(allowPermissionCheck(app, 'notifications', app, top), false);
  });
});

describe('IPC senders', () => {
  test('only the app’s top frame is trusted', () => {
    assert.equal(isTrustedSender({ url: `${app}/`, parent: null }, app), true);
    assert.equal(isTrustedSender({ url: `${app}/`, parent: { url: `${app}/` } }, app), false);
    assert.equal(isTrustedSender({ url: 'https://evil.test/', parent: null }, app), false);
    assert.equal(isTrustedSender(null, app), false);
    assert.equal(isTrustedSender(undefined, app), false);
  });
});
