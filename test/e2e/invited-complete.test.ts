import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { invite, type KioskFixture, kioskFixture, sign } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;
let plate: string;
let purpose: string;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'required',
    ndaText: 'Guests keep confidential what they see.',
  });
  const define = async (field: Record<string, unknown>) => {
    const { status, body } = await kiosk.api('POST', '/v1/customfields', field);
    assert.equal(status, 200, JSON.stringify(body));
    return body.id as string;
  };
  plate = await define({ name: 'Vehicle plate', type: 'Text', required: true, sort: 0 });
  purpose = await define({
    name: 'Purpose',
    type: 'Dropdown',
    options: ['Meeting', 'Interview'],
    required: true,
    sort: 1,
  });
  await define({ name: 'Safety rules read', type: 'Checkbox', required: true, location: 'QUESTIONNAIRE' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

test('an invited guest answers what the invitation lacks, signs the agreement, has a picture taken, and is in', async () => {
  // The invitation answered the purpose already: only the plate and the questionnaire are left.
  const invitee = await invite(kiosk, 'Mariana Costa', { customFields: [{ id: purpose, value: 'Interview' }] });
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill('Mariana Costa');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();

  await page.getByRole('heading', { name: 'A few more details' }).waitFor();
  assert.equal(await page.getByLabel('Vehicle plate').count(), 1);
  assert.equal(
    await page.getByRole('group', { name: /Purpose/ }).count(),
    0,
    'what the invitation answered is not asked',
  );
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Please fill this in.').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'invited-complete-fields');
  await page.getByLabel('Vehicle plate').fill('ABC1D23');
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('heading', { name: 'A few questions' }).waitFor();
  await page.getByLabel('Safety rules read').check();
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByRole('heading', { name: 'Your picture' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Continue without a picture' }).count(), 0, 'required');
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();

  await page.getByRole('heading', { name: 'Agreement' }).waitFor();
  await page.getByText('Guests keep confidential what they see.').waitFor();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Mariana Costa!' }).waitFor();

  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=inviteeId&queryOp===&queryValue=${invitee.id}`);
  const visit = body.visits[0];
  assert.deepEqual(
    visit.customFields.map((f: { id: string; value: string }) => [f.id, f.value]),
    [
      [plate, 'ABC1D23'],
      [purpose, 'Interview'],
    ],
  );
  assert.equal(visit.questionnaireFields[0].value, 'true');
  assert.ok(visit.pictureUrl, 'the picture is kept');
  assert.ok(visit.ndaUrl, 'the signed agreement is kept');
  const pdf = await fetch(kiosk.service.url + visit.ndaUrl, { headers: { authorization: `Bearer ${kiosk.apiKey}` } });
  assert.equal(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
    '%PDF-',
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('an invitation that brought its answers and picture is asked only the questionnaire, which every visit answers', async () => {
  const pixel = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ).toString('base64');
  await kiosk.api('PATCH', '/v1/kiosk/settings', { ndaText: '' });
  const invitee = await invite(kiosk, 'Nuno Alves', {
    customFields: [
      { id: plate, value: 'XYZ9A87' },
      { id: purpose, value: 'Meeting' },
    ],
    pictureUrl: pixel,
  });
  // A required questionnaire is asked at every visit: this company's is answered once more.
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill('Nuno Alves');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'A few questions' }).waitFor();
  await page.getByLabel('Safety rules read').check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Nuno Alves!' }).waitFor();
  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=inviteeId&queryOp===&queryValue=${invitee.id}`);
  assert.equal(body.visits[0].isInsideCompany, true);
  await kiosk.api('PATCH', '/v1/kiosk/settings', { ndaText: 'Guests keep confidential what they see.' });
  await page.close();
});

test('a blocklisted invitee is stopped before the questions, the picture and the signature', async () => {
  await kiosk.api('POST', '/v1/blockedlist', { name: 'Olga', email: 'olga@guest.test', reason: 'test' });
  const invitee = await invite(kiosk, 'Olga Barros');
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill('Olga Barros');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'Thank you', exact: true }).waitFor();
  assert.equal(await page.getByRole('heading', { name: 'A few more details' }).count(), 0);
  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=inviteeId&queryOp===&queryValue=${invitee.id}`);
  assert.deepEqual([body.visits[0].visitorStatus, body.visits[0].isInsideCompany], ['BLOCKED', false]);
  await page.close();
});
