import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenSizes, screenshot } from '../helpers/browser.ts';
import { pngBytes } from '../helpers/files.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

/*
 * The company's brand, set in the front desk's settings and worn by the welcome screen: a colour (a failing one
 * refused), a welcome picture and a message per language; without them, the kiosk's own look.
 */

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

const kioskBlue = 'rgb(10, 86, 194)';

test('the brand is set at the front desk, a colour that fails AA refused, and the welcome screen wears it', async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  const walkIn = page.getByRole('button', { name: /I'm visiting/ });
  const background = () => walkIn.evaluate((button) => getComputedStyle(button).backgroundColor);
  await walkIn.waitFor();
  assert.equal(await background(), kioskBlue, 'without a brand, the kiosk blue');
  assert.equal(await page.locator('.welcome-image, .welcome-message').count(), 0, "and the kiosk's clean default");

  await page.getByRole('button', { name: 'Front desk' }).click();
  for (const digit of kiosk.pin) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('tab', { name: 'Settings' }).click();
  const brand = page.locator('section', { has: page.getByRole('heading', { name: 'Brand on the welcome screen' }) });
  const colour = brand.getByLabel('Brand colour (#rrggbb)');
  await colour.fill('#ffcc00');
  const refusal = 'White text on this colour has a contrast of 1.51:1; it needs 4.5:1 (WCAG AA).';
  await brand.getByText(refusal, { exact: false }).first().waitFor();
  await brand.getByRole('button', { name: 'Save' }).click();
  await brand.getByRole('alert').getByText(refusal, { exact: false }).waitFor();
  assert.equal((await kiosk.api('GET', '/v1/company')).body.brandColor, null, 'refused: nothing saved');

  await colour.fill('#7a1f5c');
  await brand.getByText('contrast 9.64:1, readable', { exact: false }).waitFor();
  await brand.getByLabel('Welcome message (English)').fill('Make yourself at home.');
  await brand.getByLabel('Welcome message (Português)').fill('Fique à vontade.');
  await brand.getByRole('button', { name: 'Save' }).click();
  await brand.getByText('Saved.').waitFor();
  await page.getByLabel('Upload a welcome picture').setInputFiles({
    name: 'lobby.png',
    mimeType: 'image/png',
    buffer: pngBytes(64),
  });
  await page.getByText('The welcome picture was saved.').waitFor();
  assert.deepEqual(await axeProblems(page), [], 'the brand settings');
  await screenshot(page, 'front-desk-brand');
  const stored = (await kiosk.api('GET', '/v1/company')).body;
  assert.equal(stored.brandColor, '#7a1f5c');
  assert.deepEqual(stored.localizedWelcomeMessage, { en: 'Make yourself at home.', 'pt-BR': 'Fique à vontade.' });
  assert.match(stored.welcomeImageUrl, /^\/v1\/logo\//);

  await page.getByRole('button', { name: 'Back to start' }).click();
  await page.getByText('Make yourself at home.').waitFor();
  assert.equal(await background(), 'rgb(122, 31, 92)', 'the brand colour on the welcome');
  await page.locator('img.welcome-image').waitFor();
  for (const size of screenSizes) {
    await page.setViewportSize(size);
    assert.deepEqual(await axeProblems(page), [], `the branded welcome at ${size.width}×${size.height}`);
    const actions = await page.locator('.welcome-footer').boundingBox();
    assert.ok(actions && actions.y + actions.height <= size.height + 0.5, 'the languages stay on the screen');
    await screenshot(page, `welcome-brand-${size.width}x${size.height}`);
  }
  await page.getByRole('button', { name: 'Português' }).click();
  await page.getByText('Fique à vontade.').waitFor();
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await page.getByRole('heading', { name: 'Willkommen bei Acme' }).waitFor();
  assert.equal(await page.locator('.welcome-message').count(), 0, 'a language without a message shows none');

  // Removed, the kiosk goes back to its own look.
  await kiosk.api('PATCH', '/v1/company', { brandColor: null });
  await page.getByRole('button', { name: /Ich bin zu Besuch/ }).click();
  await page.getByRole('button', { name: 'Zum Anfang' }).click();
  await page.getByRole('button', { name: /I'm visiting/ }).waitFor();
  await page.waitForFunction((blue) => {
    const button = document.querySelector('.welcome-actions .btn-primary');
    return button && getComputedStyle(button).backgroundColor === blue;
  }, kioskBlue);
  assert.deepEqual(problems, []);
  await page.close();
});
