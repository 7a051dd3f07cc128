import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { contentSecurityPolicy } from '../../local-api/kiosk/csp.ts';
import { withContentSecurityPolicy } from '../../main/csp.ts';
import { isAppUrl } from '../../main/guards.ts';

const app = 'http://127.0.0.1:4780';
const isApp = (url: string) => isAppUrl(url, app);

describe('the Content-Security-Policy header', () => {
  test('is strict: nothing by default, scripts only from the app, no inline script or eval', () => {
    const directives = new Map(
      contentSecurityPolicy.split('; ').map((directive) => {
        const [name = '', ...values] = directive.split(' ');
        return [name, values];
      }),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
    assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
    assert.doesNotMatch(contentSecurityPolicy, /unsafe-inline|unsafe-eval|\*|https?:/);
  });

  test('replaces any policy the app’s responses carry, under any letter case, and keeps their other headers', () => {
    const headers = withContentSecurityPolicy(
      `${app}/index.html`,
      {
        'content-type': ['text/html'],
        'content-security-policy': ["default-src *; script-src 'unsafe-inline'"],
        'Content-Security-Policy-Report-Only': ['x'],
      },
      isApp,
    );
    assert.deepEqual(headers, {
      'content-type': ['text/html'],
      'Content-Security-Policy-Report-Only': ['x'],
      'Content-Security-Policy': [contentSecurityPolicy],
    });
    assert.deepEqual(withContentSecurityPolicy(`${app}/`, undefined, isApp), {
      'Content-Security-Policy': [contentSecurityPolicy],
    });
  });

  test('leaves responses of other origins as they came', () => {
    assert.equal(withContentSecurityPolicy('https://evil.test/', { 'x-a': ['1'] }, isApp), undefined);
    assert.equal(withContentSecurityPolicy('http://127.0.0.1:4781/', {}, isApp), undefined);
  });
});

const chromiumPath = '/usr/bin/chromium';

/** A page served as the shell serves it (headers passed through withContentSecurityPolicy), run in Chromium. */
describe('the policy in a browser', {
  skip: existsSync(chromiumPath) ? false : `no Chromium at ${chromiumPath}`,
}, () => {
  let server: Server;
  let other: Server;
  let origin: string;
  let otherOrigin: string;
  const page = `<!doctype html><html><head><script src="/app.js"></script></head><body>
    <script>window.inlineRan = true</script>
    <img id="photo" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==">
  </body></html>`;
  const script = `window.appScriptRan = true;
    try { eval('1'); window.evalRan = true } catch { window.evalRan = false }
    window.sameOrigin = fetch('/data').then((r) => r.ok, () => false);
    window.crossOrigin = fetch(window.otherOrigin + '/data').then(() => true, () => false);`;

  const listen = (s: Server) =>
    new Promise<string>((resolve) =>
      s.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)),
    );

  before(async () => {
    other = createServer((_req, res) => res.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}'));
    otherOrigin = await listen(other);
    server = createServer((req, res) => {
      const [type, body] =
        req.url === '/app.js'
          ? ['text/javascript', `window.otherOrigin = ${JSON.stringify(otherOrigin)};\n${script}`]
          : req.url === '/data'
            ? ['application/json', '{}']
            : ['text/html', page];
      const headers = withContentSecurityPolicy(`${origin}${req.url}`, { 'content-type': [type] }, (url) =>
        isAppUrl(url, origin),
      );
      res.writeHead(200, headers).end(body);
    });
    origin = await listen(server);
  });
  after(() => {
    server?.close();
    other?.close();
  });

  test('runs the app’s own script and data: images; blocks inline script, eval and other origins', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath });
    try {
      const tab = await browser.newPage();
      await tab.goto(`${origin}/`);
      const seen = await tab.evaluate(async () => {
        const w = window as unknown as Record<string, unknown>;
        const photo = document.getElementById('photo') as HTMLImageElement;
        return {
          appScript: w.appScriptRan === true,
          inline: w.inlineRan === true,
          evalRan: w.evalRan,
          sameOrigin: await w.sameOrigin,
          crossOrigin: await w.crossOrigin,
          photo: photo.complete && photo.naturalWidth > 0,
        };
      });
      assert.deepEqual(seen, {
        appScript: true,
        inline: false,
        evalRan: false,
        sameOrigin: true,
        crossOrigin: false,
        photo: true,
      });
    } finally {
      await browser.close();
    }
  });
});
