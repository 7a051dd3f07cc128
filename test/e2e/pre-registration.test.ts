import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Browser } from 'playwright-core';
import { inviteeCode } from '../../renderer/src/codes.ts';
import { axeProblems, launchChromium, openKiosk, qrVideo, screenshot } from '../helpers/browser.ts';
import { invite, type KioskFixture, kioskFixture, sign, startVisitorMeter } from '../helpers/kiosk.ts';
import { allowLoopback, tempDir } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/*
 * Pre-registration end to end (docs/kiosk.md, "Pre-registration"): the guest opens the register link of the
 * invitation e-mail (received by a local SMTP server) in a browser, answers, takes a picture and signs; at the kiosk the invitation's QR code checks them in with one
 * scan and no more questions.
 */

let kiosk: KioskFixture;
let browser: Browser;
const fields: Record<string, string> = {};

/** Where the invitation's links point: the test reaches the same service at its local address. */
const publicUrl = 'https://visitors.acme.test';
let smtp: TestSmtp;

before(async () => {
  smtp = await startSmtp();
  kiosk = await kioskFixture({ args: [...allowLoopback, '--public-url', publicUrl] });
  const mail = await kiosk.api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'reception@acme.test',
  });
  assert.equal(mail.status, 200, JSON.stringify(mail.body));
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'required',
    ndaText: 'Guests keep confidential what they see.',
  });
  const define = async (key: string, field: Record<string, unknown>) => {
    const { status, body } = await kiosk.api('POST', '/v1/customfields', field);
    assert.equal(status, 200, JSON.stringify(body));
    fields[key] = body.id as string;
  };
  await define('plate', { name: 'Vehicle plate', type: 'Text', required: true, sort: 0 });
  await define('safety', { name: 'Safety rules read', type: 'Checkbox', required: true, location: 'QUESTIONNAIRE' });
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
  await smtp?.close();
});

test('a guest registers from the link, and the invitation’s QR code checks them in with one scan', async () => {
  // The invitation e-mail carries the register link, at the public address.
  const invitee = await invite(kiosk, 'Renata Vogel');
  const [received] = await smtp.waitFor(1, 20_000);
  const text = (await simpleParser(received?.raw ?? '')).text ?? '';
  const [sent] = text.match(new RegExp(`${publicUrl}/p/register/[\\w.-]+`)) ?? [];
  assert.ok(sent, `a register link in: ${text}`);
  const link = sent.replace(publicUrl, kiosk.service.url);
  browser = await launchChromium({
    video: qrVideo(inviteeCode(invitee.id), join(tempDir('portaria-video-'), 'invitation.y4m')),
  });

  // On the guest's phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, locale: 'en-US' });
  await phone.grantPermissions(['camera'], { origin: kiosk.service.url });
  const guest = await phone.newPage();
  const problems: string[] = [];
  guest.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  guest.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  await guest.goto(link);
  await guest.getByRole('heading', { name: 'Register for your visit' }).waitFor();
  await guest.getByText('Hello Renata! Carlos Mendes expects you').waitFor();
  assert.deepEqual(await axeProblems(guest), []);
  await screenshot(guest, 'pre-registration-start');
  await guest.getByRole('button', { name: 'Start' }).click();

  await guest.getByRole('heading', { name: 'A few details' }).waitFor();
  await guest.getByRole('button', { name: 'Next' }).click();
  await guest.getByText('Please fill this in.').waitFor();
  assert.deepEqual(await axeProblems(guest), []);
  await guest.getByLabel('Vehicle plate').fill('RNT4V56');
  await guest.getByRole('button', { name: 'Next' }).click();

  await guest.getByRole('heading', { name: 'Questionnaire' }).waitFor();
  await guest.getByLabel('Safety rules read').check();
  await guest.getByRole('button', { name: 'Next' }).click();

  await guest.getByRole('heading', { name: 'Your picture' }).waitFor();
  assert.equal(await guest.getByText('Or choose a picture from this device').count(), 1, 'a phone may send a file');
  assert.deepEqual(await axeProblems(guest), []);
  await guest.getByRole('button', { name: 'Take picture' }).click();
  await guest.getByRole('button', { name: 'Use this picture' }).click();

  await guest.getByRole('heading', { name: 'Agreement' }).waitFor();
  await guest.getByText('Guests keep confidential what they see.').waitFor();
  assert.deepEqual(await axeProblems(guest), []);
  await sign(guest);
  await guest.getByRole('button', { name: 'I agree and sign' }).click();

  await guest.getByRole('heading', { name: 'You are registered' }).waitFor();
  assert.deepEqual(await axeProblems(guest), []);
  await screenshot(guest, 'pre-registration-done');
  assert.deepEqual(problems, []);
  const registered = (await kiosk.api('GET', `/v1/invitee/${invitee.id}`)).body;
  assert.ok(registered.registeredAt, 'the invitee holds the registration');

  // At the kiosk: the QR code, "is this you?", and in: no question, no picture, no signature.
  const { page, problems: kioskProblems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  const meter = await startVisitorMeter(page);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByRole('heading', { name: 'Is this you?' }).waitFor();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Renata Vogel!' }).waitFor();
  const done = await meter();
  // Welcome → the scanner → "Is this you?" → checked in: two taps, and the scan.
  assert.deepEqual(done, { taps: 2, screens: 4 });
  assert.deepEqual(kioskProblems, []);

  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=inviteeId&queryOp===&queryValue=${invitee.id}`);
  const visit = body.visits[0];
  assert.deepEqual(
    visit.customFields.map((f: { id: string; value: string }) => [f.id, f.value]),
    [[fields.plate, 'RNT4V56']],
  );
  assert.deepEqual(
    visit.questionnaireFields.map((f: { customFieldId: string; value: string }) => [f.customFieldId, f.value]),
    [[fields.safety, 'true']],
  );
  assert.equal(visit.ndaSignature, 'DRAWN');
  const picture = await kiosk.api('GET', visit.pictureUrl);
  assert.equal(picture.status, 200);
  const nda = await fetch(`${kiosk.service.url}${visit.ndaSignedUrl}`);
  assert.equal(nda.status, 200);
  assert.match(Buffer.from(await nda.arrayBuffer()).toString('latin1'), /^%PDF-/);
});
