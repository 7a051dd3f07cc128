import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { inviteeCode, visitCode } from '../../renderer/src/codes.ts';
import { axeProblems, launchChromium, openKiosk, qrVideo, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';
import { tempDir } from '../helpers/service.ts';

let kiosk: KioskFixture;
const videos = tempDir('portaria-video-');

before(async () => {
  kiosk = await kioskFixture();
});
after(() => kiosk?.service.stop());

test("an invited guest's QR code, held up to the camera, checks them in in a few seconds", async () => {
  const { body: invitee } = await kiosk.api('POST', '/v1/invitees', {
    name: 'Karina Teles',
    email: 'karina@guest.test',
    expectedAt: new Date().toISOString(),
    hostId: kiosk.hosts.beatriz.id,
  });
  const browser = await launchChromium({ video: qrVideo(inviteeCode(invitee.id), join(videos, 'invitee.y4m')) });
  try {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    const started = Date.now();
    await page.getByRole('button', { name: /I have an invitation/ }).click();
    await page.getByRole('heading', { name: 'Is this you?' }).waitFor();
    await page.getByRole('button', { name: 'Yes, check me in' }).click();
    await page.getByRole('heading', { name: 'You are checked in, Karina Teles!' }).waitFor();
    console.log(`invited guest by QR code: ${((Date.now() - started) / 1000).toFixed(1)} s from the first tap`);
    assert.equal((await kiosk.api('GET', `/v1/invitee/${invitee.id}`)).body.status, 'arrived');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("the badge's QR code checks the visitor out", async () => {
  const { body: visits } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Karina%20Teles');
  const visit = visits.visits[0];
  const browser = await launchChromium({ video: qrVideo(visitCode(visit.id), join(videos, 'visit.y4m')) });
  try {
    const { page } = await openKiosk(browser, kiosk.service.url);
    await page.getByRole('button', { name: /I'm leaving/ }).click();
    await page.getByRole('heading', { name: 'Check out Karina T.?' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await page.getByRole('button', { name: 'Yes, check me out' }).click();
    await page.getByRole('heading', { name: 'Goodbye, Karina!' }).waitFor();
    const after = await kiosk.api('GET', `/v1/visit/${visit.id}`);
    assert.equal(after.body.isInsideCompany, false);
    // Shown again, the same code finds no one inside, and says so.
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: /I'm leaving/ }).click();
    await page.getByText('This visit was already checked out.').waitFor();
    await screenshot(page, 'checkout-scan');
  } finally {
    await browser.close();
  }
});
