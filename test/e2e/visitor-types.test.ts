import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture, sign } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;
/** The PIN set when the kiosk was enrolled. */
let pin: string;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'optional', phone: 'off', company: 'off' },
    pictureMode: 'optional',
    ndaText: 'Everything seen inside stays inside.',
  });
  pin = kiosk.pin;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

async function typePin(page: Page, digits: string) {
  for (const digit of digits) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: 'Open' }).click();
}

async function typeOf(kind: string) {
  const { body } = await kiosk.api('GET', `/v1/visitortypes?queryKey=kind&queryOp===&queryValue=${kind}`);
  return body.visitorTypes[0] as { id: string; name: string };
}

test('the front desk adds the known types with a tap and edits their rules', async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: 'Front desk' }).click();
  await typePin(page, pin);
  await page.getByRole('tab', { name: 'Visitor types' }).click();
  await page.getByText('with one or none, every walk-in is asked the same', { exact: false }).waitFor();
  for (const kind of ['Guest', 'Delivery', 'Contractor']) {
    await page.getByRole('button', { name: kind, exact: true }).click();
    await page.getByText(`${kind} was added.`).waitFor();
  }
  // The last one added opens in the editor: the contractor needs the host's approval.
  await page.getByRole('heading', { name: 'Visitor type: Contractor' }).waitFor();
  await page.getByLabel('The host must allow the visit').selectOption('yes');
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-visitor-types');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Visitor type: Contractor' }).waitFor({ state: 'detached' });
  const contractor = (await kiosk.api('GET', `/v1/visitortype/${(await typeOf('contractor')).id}`)).body;
  assert.equal(contractor.requireAuthorization, true);
  assert.equal(contractor.pictureMode, 'required', "the known kind's rule, kept");

  // A type of the company's own, by name.
  await page.getByLabel('Your own type: its name').fill('Auditor');
  await page.getByRole('button', { name: 'Add this type' }).click();
  await page.getByText('Auditor was added.').waitFor();
  await page.getByRole('heading', { name: 'Visitor type: Auditor' }).waitFor();
  await page.getByLabel('Offered on the kiosk').uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Visitor type: Auditor' }).waitFor({ state: 'detached' });
  assert.equal((await typeOf('custom')).name, 'Auditor');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the visitor picks a type on the welcome screen; each type asks what it needs and prints its label', async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('heading', { name: 'What brings you here?' }).waitFor();
  const choices = page.getByRole('region', { name: 'What brings you here?' }).getByRole('button');
  assert.deepEqual(
    await choices.allTextContents(),
    ['Guest', 'Delivery', 'Contractor'],
    'the inactive one is not offered',
  );
  assert.equal(await page.getByRole('button', { name: /I'm visiting/ }).count(), 0);
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'welcome-visitor-types');

  // A delivery: the company is asked (required), the e-mail is not; no picture, no agreement.
  await page.getByRole('button', { name: 'Delivery', exact: true }).click();
  await page.getByRole('heading', { name: 'About you' }).waitFor();
  assert.equal(await page.getByLabel('E-mail').count(), 0);
  assert.equal(
    await page.evaluate(() => document.activeElement?.id),
    await page.getByLabel('Full name').getAttribute('id'),
    'the name field is focused: the visitor types at once',
  );
  await page.getByLabel('Full name').fill('Dora Courier');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Please fill this in.').waitFor();
  await page.getByLabel('Company').fill('FastPost');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByRole('heading', { name: 'You are checked in, Dora Courier!' }).waitFor();
  const badge = page.getByRole('article', { name: 'Visitor badge' });
  await badge.getByText('Delivery', { exact: true }).waitFor();
  const delivery = await typeOf('delivery');
  const stored = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Dora%20Courier');
  assert.equal(stored.body.visits[0].visitorTypeId, delivery.id);
  assert.equal(stored.body.visits[0].pictureUrl, null);
  assert.equal(stored.body.visits[0].ndaUrl, null);
  await page.getByRole('button', { name: 'Done' }).click();

  // A contractor: a document is required, the picture cannot be skipped, and the host must allow the visit.
  await page.getByRole('button', { name: 'Contractor', exact: true }).click();
  await page.getByLabel('Full name').fill('Carl Builder');
  await page.getByLabel('Company').fill('BuildCo');
  await page.getByLabel('Document number').fill('X-1234567');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill('carlos');
  await page.getByRole('option', { name: /Carlos Mendes/ }).click();
  await page.getByRole('heading', { name: 'Your picture' }).waitFor();
  await page.getByRole('button', { name: 'Take picture' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Continue without a picture' }).count(), 0);
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
  await page.getByText('Everything seen inside stays inside.').waitFor();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  const waiting = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Carl%20Builder');
  assert.equal(waiting.body.visits[0].authorizationStatus, 'waiting');
  assert.equal(waiting.body.visits[0].document, 'X-1234567');
  assert.ok(waiting.body.visits[0].pictureUrl);
  assert.deepEqual(problems, []);
  await page.close();
});

test('an invitee carries its type: the guest is asked what the type requires', async () => {
  const contractor = await typeOf('contractor');
  await kiosk.api('PATCH', `/v1/visitortype/${contractor.id}`, { requireAuthorization: false });
  const invited = await kiosk.api('POST', '/v1/invitees', {
    name: 'Ines Contractor',
    email: 'ines@buildco.test',
    expectedAt: new Date().toISOString(),
    hostId: kiosk.hosts.carlos.id,
    visitorTypeId: contractor.id,
  });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill('ines con');
  await page.getByRole('button', { name: /Ines Contractor/ }).click();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'Your picture' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Continue without a picture' }).count(), 0);
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Ines Contractor!' }).waitFor();
  await page.getByRole('article', { name: 'Visitor badge' }).getByText('Contractor', { exact: true }).waitFor();
  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=inviteeId&queryOp===&queryValue=${invited.body.id}`);
  assert.equal(body.visits[0].visitorTypeId, contractor.id);
  assert.ok(body.visits[0].pictureUrl && body.visits[0].ndaUrl, 'the picture and the signed agreement are kept');
  await page.close();
});

test('with one type offered, the welcome screen asks nothing and the type applies', async () => {
  for (const kind of ['delivery', 'contractor']) {
    await kiosk.api('PATCH', `/v1/visitortype/${(await typeOf(kind)).id}`, { isActive: false });
  }
  const guest = await typeOf('guest');
  await kiosk.api('PATCH', `/v1/visitortype/${guest.id}`, {
    badgeLabel: 'Welcome guest',
    localizedBadgeLabel: {},
    pictureMode: 'off',
  });
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill('Gil Single');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Gil Single!' }).waitFor();
  await page.getByRole('article', { name: 'Visitor badge' }).getByText('Welcome guest', { exact: true }).waitFor();
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Gil%20Single');
  assert.equal(body.visits[0].visitorTypeId, guest.id);
  await page.close();
});
