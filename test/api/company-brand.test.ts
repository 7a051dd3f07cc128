import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { brandContrast, contrastRatio } from '../../local-api/rules/contrast.ts';
import { pngBytes } from '../helpers/files.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme', 'UTC')).apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
});
after(() => service.stop());

describe("the company's brand on the kiosk", () => {
  test('contrast is WCAG 2 contrast: black on white 21, white on white 1, the kiosk blue 6.72', () => {
    assert.equal(contrastRatio('#000000', '#ffffff'), 21);
    assert.equal(contrastRatio('#ffffff', '#ffffff'), 1);
    assert.equal(brandContrast('#0a56c2'), 6.72);
    assert.ok(brandContrast('#767676') >= 4.5 && brandContrast('#777777') < 4.5, 'the AA line for grey');
  });

  test('a brand colour white text keeps AA contrast on is kept; one that fails AA is refused with its contrast', async () => {
    const kept = await api('PATCH', '/v1/company', { brandColor: '#7A1F5C' });
    assert.equal(kept.status, 200, JSON.stringify(kept.body));
    assert.equal(kept.body.brandColor, '#7a1f5c');
    assert.equal((await kiosk('GET', '/v1/kiosk/company')).body.brandColor, '#7a1f5c', 'the kiosk reads it');

    const pale = await api('PATCH', '/v1/company', { brandColor: '#ffcc00' });
    assert.equal(pale.status, 400);
    assert.deepEqual(pale.body, { type: 'BRAND_COLOR_CONTRAST', field: 'brandColor', contrast: 1.51, minimum: 4.5 });
    const notColour = await api('PATCH', '/v1/company', { brandColor: 'red' });
    assert.deepEqual(
      [notColour.status, notColour.body.type, notColour.body.field],
      [400, 'INVALID_PARAMETER', 'brandColor'],
    );
    assert.equal((await api('GET', '/v1/company')).body.brandColor, '#7a1f5c', 'a refusal changes nothing');

    assert.equal((await api('PATCH', '/v1/company', { brandColor: null })).body.brandColor, null);
  });

  test('the welcome message is kept per language, merged language by language', async () => {
    await api('PATCH', '/v1/company', { localizedWelcomeMessage: { en: 'Hello!', 'pt-BR': 'Olá!' } });
    const merged = await api('PATCH', '/v1/company', { localizedWelcomeMessage: { de: 'Hallo!', 'pt-BR': '' } });
    assert.deepEqual(merged.body.localizedWelcomeMessage, { en: 'Hello!', de: 'Hallo!' });
    assert.deepEqual((await kiosk('GET', '/v1/kiosk/company')).body.localizedWelcomeMessage, {
      en: 'Hello!',
      de: 'Hallo!',
    });
  });

  test('the welcome picture is uploaded and served like the logo, and removed with its file', async () => {
    const picture = pngBytes(8);
    const saved = await api('PUT', '/v1/company/welcome', { picture: picture.toString('base64') });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.match(saved.body.welcomeImageUrl, /^\/v1\/logo\/[0-9a-f]{32}\.png$/);
    assert.equal(saved.body.pictureUrl, null, 'the logo is another picture');
    const served = await fetch(service.url + saved.body.welcomeImageUrl);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), picture);
    assert.equal((await kiosk('GET', '/v1/kiosk/company')).body.welcomeImageUrl, saved.body.welcomeImageUrl);

    const removed = await api('DELETE', '/v1/company/welcome');
    assert.equal(removed.body.welcomeImageUrl, null);
    assert.equal((await fetch(service.url + saved.body.welcomeImageUrl)).status, 404);
  });
});
