import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, screenSizes, screenshot } from '../helpers/browser.ts';
import { answerAboutYou, type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

/* The picture step: an oval for the face, a 3-2-1, the picture shown as the preview was, and a retake. */

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', { pictureMode: 'required', ndaText: '' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

for (const size of screenSizes) {
  const tag = `${size.width}x${size.height}`;
  test(`the camera frames the face, counts 3-2-1 and shows the picture as the preview at ${size.width}×${size.height}`, async () => {
    const context = await browser.newContext({ viewport: size, hasTouch: true, locale: 'en-US' });
    await context.grantPermissions(['camera'], { origin: kiosk.service.url });
    const page = await context.newPage();
    await page.goto(`${kiosk.service.url}/`);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await answerAboutYou(page, { 'Full name': `Camila Câmera ${tag}` });
    await page.getByRole('button', { name: "I don't know whom I'm visiting" }).click();
    await page.getByRole('button', { name: 'Take picture' }).waitFor();

    // The oval sits on the preview, inside it.
    const video = await page.locator('video.camera-video').boundingBox();
    const oval = await page.locator('.face-frame').boundingBox();
    assert.ok(video && oval, 'the preview and its oval are shown');
    assert.ok(oval.x > video.x && oval.x + oval.width < video.x + video.width, 'the oval is inside the preview');
    assert.ok(oval.height > oval.width, 'an upright oval, for a face');
    assert.equal(await page.getByText('Put your face inside the oval.', { exact: false }).count(), 1);
    assert.deepEqual(await axeProblems(page), [], `the preview at ${tag}`);

    const turned = (selector: string) =>
      page.locator(selector).evaluate((element) => getComputedStyle(element).transform);
    const preview = await turned('video.camera-video');
    assert.equal(preview, 'matrix(-1, 0, 0, 1, 0, 0)', 'the preview is a mirror');
    await page.getByRole('button', { name: 'Take picture' }).click();
    for (const second of ['3', '2', '1']) await page.locator('.camera-countdown', { hasText: second }).waitFor();
    await screenshot(page, `picture-countdown-${tag}`);
    const picture = page.getByRole('img', { name: 'Your picture' });
    await picture.waitFor();
    assert.equal(await turned('img.camera-picture'), preview, 'the picture is shown the same way round');
    assert.deepEqual(await axeProblems(page), [], `the picture at ${tag}`);

    await page.getByRole('button', { name: 'Retake' }).click();
    await page.locator('.face-frame').waitFor();
    assert.equal(await picture.count(), 0, 'a retake shows the preview again');
    await page.getByRole('button', { name: 'Take picture' }).click();
    await page.getByRole('button', { name: 'Use this picture' }).click();
    await page.getByRole('heading', { name: `You are checked in, Camila Câmera ${tag}!` }).waitFor();
    await context.close();
  });
}
