import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import { kioskPages } from '../../local-api/kiosk/pages.ts';
import { pinLimits } from '../../local-api/kiosk/routes.ts';
import { hostName, isLoopbackAddress } from '../../local-api/kiosk/session.ts';
import { testContext } from '../helpers/context.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { withServiceDb } from '../helpers/store.ts';
import { startKiosk } from '../helpers/sync-service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

before(async () => {
  service = await startService();
  // The first company made on the data folder enrols the kiosk (and gets its first PIN): the companies tested
  // below start with the defaults.
  await service.company('Lobby');
  api = client(service.url, (await service.company('Acme')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
});
after(() => service.stop());

/** A GET with headers fetch would not let us set (Host), as a browser or a rebinding page would send them. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET/PATCH /v1/kiosk/settings', () => {
  test('answers the defaults before anything is saved', async () => {
    const { status, body } = await api('GET', '/v1/kiosk/settings');
    assert.equal(status, 200);
    assert.deepEqual(body.visitorFields, {
      email: 'optional',
      phone: 'optional',
      cpf: 'off',
      rg: 'off',
      document: 'off',
      company: 'optional',
      position: 'off',
      sector: 'off',
      address: 'off',
    });
    assert.equal(body.pictureMode, 'optional');
    assert.equal(body.ndaText, '');
    assert.equal(body.requireAuthorization, false);
    assert.equal(body.idleSeconds, 60);
    assert.equal(body.badgePrinting, true);
    assert.equal(body.pinSet, false);
    assert.equal(body.updatedAt, null);
  });

  test('saves a partial change, merging visitor fields one by one, for the caller only', async () => {
    const saved = await api('PATCH', '/v1/kiosk/settings', {
      visitorFields: { cpf: 'required' },
      ndaText: 'Keep our secrets.',
      requireAuthorization: 'true',
      idleSeconds: 90,
    });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.visitorFields.cpf, 'required');
    assert.equal(saved.body.visitorFields.email, 'optional', 'untouched fields keep their mode');
    assert.equal(saved.body.ndaText, 'Keep our secrets.');
    assert.equal(saved.body.requireAuthorization, true);
    assert.equal(saved.body.idleSeconds, 90);
    assert.match(saved.body.updatedAt, /^\d{4}-\d{2}-\d{2}T/);
    const again = await api('PATCH', '/v1/kiosk/settings', { pictureMode: 'off' });
    assert.equal(again.body.ndaText, 'Keep our secrets.');
    assert.equal(again.body.pictureMode, 'off');
    assert.equal((await other('GET', '/v1/kiosk/settings')).body.ndaText, '', 'another company sees its own');
  });

  test('refuses values out of range', async () => {
    for (const body of [
      { idleSeconds: 5 },
      { pictureMode: 'sometimes' },
      { visitorFields: { shoeSize: 'required' } },
    ]) {
      const { status, body: answer } = await api('PATCH', '/v1/kiosk/settings', body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(answer.type, 'INVALID_PARAMETER');
    }
  });

  test('needs the API key', async () => {
    assert.equal((await client(service.url)('GET', '/v1/kiosk/settings')).status, 401);
  });
});

describe('the front-desk PIN', () => {
  test('is set on first use, verified, and changed only with the current PIN', async () => {
    const pin = client(service.url, (await service.company('Pins')).apiKey);
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin/verify', { pin: '123456' })).body, { type: 'PIN_NOT_SET' });
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin', { pin: '1234' })).body, { type: 'INVALID_PIN' });
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin', { pin: '12345a' })).body, { type: 'INVALID_PIN' });
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin', { pin: '246810' })).body, { success: true });
    assert.equal((await pin('GET', '/v1/kiosk/settings')).body.pinSet, true);
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin/verify', { pin: '246810' })).body, { valid: true });
    const wrong = await pin('POST', '/v1/kiosk/pin/verify', { pin: '246811' });
    assert.deepEqual([wrong.status, wrong.body], [403, { type: 'WRONG_PIN' }]);
    const noCurrent = await pin('POST', '/v1/kiosk/pin', { pin: '13579135' });
    assert.deepEqual([noCurrent.status, noCurrent.body], [403, { type: 'WRONG_PIN' }]);
    assert.deepEqual((await pin('POST', '/v1/kiosk/pin', { pin: '13579135', currentPin: '246810' })).body, {
      success: true,
    });
    assert.equal((await pin('POST', '/v1/kiosk/pin/verify', { pin: '246810' })).status, 403, 'the old PIN is gone');
    assert.equal((await pin('POST', '/v1/kiosk/pin/verify', { pin: '13579135' })).status, 200);
  });

  test('locks after too many wrong PINs, even when they are sent all at once', async () => {
    const pin = client(service.url, (await service.company('Guessers')).apiKey);
    await pin('POST', '/v1/kiosk/pin', { pin: '908172' });
    const guesses = await Promise.all(
      Array.from({ length: pinLimits.maxFailures + 5 }, (_, i) =>
        pin('POST', '/v1/kiosk/pin/verify', { pin: String(100000 + i) }),
      ),
    );
    const types = guesses.map((g) => g.body.type);
    assert.equal(types.filter((t) => t === 'WRONG_PIN').length, pinLimits.maxFailures);
    assert.equal(types.filter((t) => t === 'TOO_MANY_REQUESTS').length, 5);
    const locked = await pin('POST', '/v1/kiosk/pin/verify', { pin: '908172' });
    assert.equal(locked.status, 429, 'the right PIN waits too while locked');
    // Sent at once, the guesses lock the PIN until the first of them leaves the window.
    assert.ok(locked.body.retryAfter > pinLimits.lockMs / 1000 && locked.body.retryAfter <= pinLimits.windowMs / 1000);
    const elsewhere = client(service.url, (await service.company('Neighbours')).apiKey);
    assert.deepEqual((await elsewhere('POST', '/v1/kiosk/pin/verify', { pin: '1' })).body, { type: 'PIN_NOT_SET' });
  });

  test('is stored as a sealed scrypt hash, never as the PIN', async () => {
    const rows = await withServiceDb(
      service.dataDir,
      async (db) =>
        (await db.prepare('SELECT pinHash FROM kiosk_settings WHERE pinHash IS NOT NULL').all()) as {
          pinHash: string;
        }[],
    );
    assert.ok(rows.length >= 2);
    for (const row of rows) {
      assert.match(row.pinHash, /^sealed:v1:/);
      assert.doesNotMatch(row.pinHash, /246810|13579135|908172/);
    }
  });
});

describe('GET /kiosk/session', () => {
  test('answers the kiosk credential of the company the device is enrolled for, to this machine', async () => {
    const first = await fetch(`${service.url}/kiosk/session`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const session = (await first.json()) as { companyId: string; apiKey: string };
    assert.match(session.apiKey, /^prt_/);
    const again = (await (await fetch(`${service.url}/kiosk/session`)).json()) as typeof session;
    assert.deepEqual(again, session, 'one device, one credential');
    const kiosk = client(service.url, session.apiKey);
    assert.equal((await kiosk('GET', '/v1/kiosk/settings')).status, 200);
    assert.equal((await kiosk('GET', '/v1/kiosk/company')).body.name, 'Lobby', 'the first company created enrolled it');
    assert.deepEqual((await kiosk('GET', '/v1/credentials')).body, { type: 'FORBIDDEN' }, 'a kiosk credential');
  });

  test('refuses a page of another name (DNS rebinding) and requests from other sites', async () => {
    const port = new URL(service.url).port;
    const rebound = await rawGet('/kiosk/session', { host: `evil.example:${port}` });
    assert.deepEqual([rebound.status, JSON.parse(rebound.body)], [403, { type: 'FORBIDDEN' }]);
    const crossSite = await rawGet('/kiosk/session', { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.status, 403);
    const otherOrigin = await rawGet('/kiosk/session', { host: `127.0.0.1:${port}`, origin: 'http://evil.example' });
    assert.equal(otherOrigin.status, 403);
    const ownPage = await rawGet('/kiosk/session', {
      host: `localhost:${port}`,
      origin: `http://localhost:${port}`,
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(ownPage.status, 200);
  });

  test("of a kiosk that follows a hub, answers a kiosk credential of its own for the hub's company", async () => {
    const hub = await startService();
    try {
      const company = await hub.company('Hub Company');
      const kiosk = await startKiosk(hub.url, company.apiKey);
      try {
        const session = (await (await fetch(`${kiosk.url}/kiosk/session`)).json()) as {
          companyId: string;
          apiKey: string;
        };
        assert.equal(session.companyId, company.id);
        assert.notEqual(session.apiKey, company.apiKey, 'not the hub key: the page never holds it');
        const face = await client(kiosk.url, session.apiKey)('GET', '/v1/kiosk/company');
        assert.deepEqual([face.body.id, face.body.name], [company.id, 'Hub Company']);
        assert.equal(
          (await client(hub.url, session.apiKey)('GET', '/v1/kiosk/company')).status,
          401,
          'nor opens the hub',
        );
      } finally {
        await kiosk.stop();
      }
    } finally {
      await hub.stop();
    }
  });

  test('knows loopback addresses and host names', () => {
    for (const address of ['127.0.0.1', '127.8.0.3', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackAddress(address));
    for (const address of ['10.0.0.2', '::ffff:10.0.0.2', '192.168.1.127', undefined]) {
      assert.equal(isLoopbackAddress(address), false, String(address));
    }
    assert.equal(hostName('127.0.0.1:4780'), '127.0.0.1');
    assert.equal(hostName('[::1]:4780'), '[::1]');
    assert.equal(hostName('LocalHost'), 'localhost');
    assert.equal(hostName('a:b:c'), undefined);
  });
});

describe('the kiosk page at /', () => {
  test('is served with a strict CSP, and /v1 stays the API', async () => {
    const page = await fetch(`${service.url}/`);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    if (page.status === 200) {
      const html = await page.text();
      assert.match(html, /<div id="root">/);
      assert.doesNotMatch(html, /<script>(?!<\/script>)|<style>|style="/, 'nothing inline');
      const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert.ok(asset);
      const js = await fetch(service.url + asset);
      assert.equal(js.status, 200);
      assert.match(js.headers.get('cache-control') ?? '', /immutable/);
    } else {
      assert.equal(page.status, 503, 'not built: says so');
    }
    assert.equal((await fetch(`${service.url}/badge/4b2c7ad2-0c37-4b5e-9d54-2a5f0c1e9b11`)).status, page.status);
    assert.deepEqual((await api('GET', '/v1/nothing-here')).body, { type: 'NOT_FOUND' });
    assert.equal((await fetch(`${service.url}/assets/missing.js`)).status, 404);
  });

  test('says plainly when the page is not built', async () => {
    const ctx = await testContext();
    const app = express();
    app.use(kioskPages(ctx, join(ctx.dataDir, 'no-such-build')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    const { port } = server.address() as { port: number };
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    server.close();
    await ctx.db.close();
    assert.equal(answer.status, 503);
    assert.match(await answer.text(), /npm run build:renderer/);
  });
});
