import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { type Kiosk, settled, startKiosk } from '../helpers/sync-service.ts';

describe('the public address', () => {
  const running: TestService[] = [];
  after(async () => {
    for (const service of running) await service.stop();
  });

  it("a hub's --public-url reaches its kiosks, whose links then point to the hub", async () => {
    const hub = await startService({
      args: ['--public-url', 'https://visitors.example.test/', ...allowLoopback],
    });
    running.push(hub);
    const company = await hub.company('Acme');
    const hubStatus = await client(hub.url, company.apiKey)('GET', '/v1/sync/status');
    assert.equal(hubStatus.body.publicUrl, 'https://visitors.example.test');
    const kiosk: Kiosk = await startKiosk(hub.url, company.apiKey);
    running.push(kiosk);
    const status = await settled(kiosk);
    assert.equal(status.publicUrl, 'https://visitors.example.test');
  });

  it('a service without one sends no links; a bad one is refused at start', async () => {
    const alone = await startService();
    running.push(alone);
    const company = await alone.company('Solo');
    assert.equal((await client(alone.url, company.apiKey)('GET', '/v1/sync/status')).body.publicUrl, null);
    for (const bad of ['ftp://example.test', 'https://example.test/visitors']) {
      await assert.rejects(startService({ args: ['--public-url', bad] }), /--public-url/);
    }
  });

  it('a link that does not hold shows a page in the browser language, or JSON to a client that asks', async () => {
    const service = running[0] as TestService;
    const page = await fetch(`${service.url}/p/decide/not-a-token`, { headers: { 'accept-language': 'de' } });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await page.text(), /Dieser Link kann nicht verwendet werden/);
    const anyLanguage = await fetch(`${service.url}/p/decide/x.y`, { headers: { 'accept-language': '*' } });
    assert.match(await anyLanguage.text(), /This link cannot be used/);
    for (const purpose of ['pass', 'decide', 'register', 'unknown']) {
      const json = await fetch(`${service.url}/p/${purpose}/x.y`, { headers: { accept: 'application/json' } });
      assert.equal(json.status, 404, purpose);
      assert.deepEqual(await json.json(), { type: 'LINK_INVALID' }, purpose);
    }
    const css = await fetch(`${service.url}/p/assets/public.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
  });
});
