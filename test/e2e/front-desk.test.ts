import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;
let page: Page;
/** The PIN set when the kiosk was enrolled (printed once by `company create`): nobody at the screen chooses it. */
let pin: string;

before(async () => {
  kiosk = await kioskFixture();
  pin = kiosk.pin;
  browser = await launchChromium();
  ({ page } = await openKiosk(browser, kiosk.service.url));
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

async function typePin(digits: string, submit: string) {
  for (const digit of digits) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: submit }).click();
}

async function openDesk() {
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  await typePin(pin, 'Open');
  await page.getByRole('tablist', { name: 'Front-desk sections' }).waitFor();
}

const tab = (name: string) => page.getByRole('tab', { name }).click();

test('the PIN set at enrolment opens the desk, a wrong one is refused', async () => {
  assert.equal(
    (await kiosk.api('GET', '/v1/kiosk/settings')).body.pinSet,
    true,
    'set before anyone touched the screen',
  );
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await typePin('999999', 'Open');
  await page.getByText('That PIN is not right.').waitFor();
  await page.getByRole('button', { name: 'Erase last digit' }).click();
  await typePin(pin, 'Open');
  await page.getByRole('tablist', { name: 'Front-desk sections' }).waitFor();
});

test('who is inside: the roster, with check-out', async () => {
  for (const [name, company] of [
    ['Lucas Prado', 'Initech'],
    ['Marta Costa', 'Umbrella'],
  ]) {
    await kiosk.api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: kiosk.hosts.beatriz.id },
      visitor: { name, company },
    });
  }
  await tab('Inside now');
  await page.getByText('People inside: 2').waitFor({ timeout: 15_000 });
  await page.getByRole('cell', { name: 'Initech' }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-roster');

  // Its printed form (A4, the whole list, every column on the page): front-desk-desk.test.ts.
  await page.getByRole('button', { name: 'Check out: Lucas Prado' }).click();
  await page.getByText('Lucas Prado was checked out.').waitFor();
  await page.getByText('People inside: 1').waitFor();
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Lucas%20Prado');
  assert.equal(body.visits[0].checkoutType, 'DASHBOARD');
});

test('visits waiting for approval are allowed or denied here', async () => {
  const ids = { allow: randomUUID(), deny: randomUUID() };
  for (const [key, name] of [
    ['allow', 'Nuno Vaz'],
    ['deny', 'Olga Reis'],
  ] as const) {
    await kiosk.api('POST', '/v1/visits', {
      visit: { id: ids[key], hostId: kiosk.hosts.carlos.id, authorizationStatus: 'AWAITING' },
      visitor: { name },
    });
  }
  await tab('Waiting for approval');
  await page.getByRole('button', { name: 'Allow: Nuno Vaz' }).click();
  await page.getByText('Nuno Vaz was allowed in.').waitFor();
  await page.getByRole('button', { name: 'Deny: Olga Reis' }).click();
  await page.getByText('Olga Reis was denied.').waitFor();
  await page.getByText('No visits are waiting for approval.').waitFor();
  assert.equal((await kiosk.api('GET', `/v1/visit/${ids.allow}`)).body.authorizationStatus, 'allowed');
  assert.equal((await kiosk.api('GET', `/v1/visit/${ids.deny}`)).body.authorizationStatus, 'denied');
  assert.deepEqual(await axeProblems(page), []);
});

test('a visit held at the door says why in the approvals, for the desk to decide', async () => {
  const entry = (
    await kiosk.api('POST', '/v1/blockedlist', { name: 'Paula Held', email: 'paula@bad.test', reason: 'Threats' })
  ).body;
  await kiosk.api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId: kiosk.hosts.carlos.id },
    visitor: { name: 'Paula Held' },
  });
  await tab('Waiting for approval');
  await page.getByText('Possible blocklist match (name only): Threats').waitFor();
  await page.getByRole('button', { name: 'Deny: Paula Held' }).click();
  await page.getByText('Paula Held was denied.').waitFor();
  // The blocklist tab's test below starts from an empty list.
  await kiosk.api('DELETE', `/v1/blockedlist/${entry.id}`);
});

test("today's invitees, checked in from the desk", async () => {
  const { body: invitee } = await kiosk.api('POST', '/v1/invitees', {
    name: 'Paula Maia',
    email: 'paula@guest.test',
    expectedAt: new Date().toISOString(),
    hostId: kiosk.hosts.carlos.id,
  });
  await tab('Expected today');
  await page.getByRole('cell', { name: 'Paula Maia', exact: true }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-expected');
  await page.getByRole('button', { name: 'Check in: Paula Maia' }).click();
  await page.getByText('Paula Maia was checked in.').waitFor();
  await page.getByRole('cell', { name: 'Arrived' }).waitFor();
  assert.equal((await kiosk.api('GET', `/v1/invitee/${invitee.id}`)).body.status, 'arrived');
});

test('the blocklist, status and settings tabs', async () => {
  await tab('Blocklist');
  const hasBlocklist = (await kiosk.api('GET', '/v1/blockedlist')).status === 200;
  if (hasBlocklist) {
    await page.getByLabel('Full name').fill('Quintino Bloqueado');
    await page.getByLabel('CPF').fill('529.982.247-25');
    await page.getByLabel('Reason').fill('Trespassing');
    await page.getByRole('button', { name: 'Add to the blocklist' }).click();
    await page.getByText('Quintino Bloqueado was added to the blocklist.').waitFor();
    assert.equal((await kiosk.api('GET', '/v1/blockedlist')).body.blockedlist.length, 1);
    await page.getByRole('button', { name: 'Remove: Quintino Bloqueado' }).click();
    await page.getByText('Quintino Bloqueado was removed from the blocklist.').waitFor();
  } else {
    await page.getByText('This version of the service has no blocklist.').waitFor();
  }

  await tab('Status');
  await page.getByText('Answering.').waitFor();
  await page.getByText('This service is a hub').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-status');

  await tab('Settings');
  await page.getByRole('heading', { name: 'Check-in', exact: true }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-settings');
  const checkIn = page.locator('section', { has: page.getByRole('heading', { name: 'Check-in', exact: true }) });
  await checkIn.getByLabel('CPF').selectOption('required');
  await checkIn.getByLabel('Agreement for every language without its own').fill('Confidential: say nothing.');
  await checkIn.getByRole('button', { name: 'Save' }).click();
  await checkIn.getByText('Saved.').waitFor();
  const settings = (await kiosk.api('GET', '/v1/kiosk/settings')).body;
  assert.equal(settings.visitorFields.cpf, 'required');
  assert.equal(settings.ndaText, 'Confidential: say nothing.');

  const access = page.locator('section', { has: page.getByRole('heading', { name: 'Access control' }) });
  await access.getByLabel('Integration on').check();
  await access.getByLabel('Callback address after check-in', { exact: false }).fill('not a url');
  await access.getByRole('button', { name: 'Save' }).click();
  await access.getByText('Some of the information was not accepted. Please check it.').waitFor();
  await access.getByLabel('Callback address after check-in', { exact: false }).fill('http://127.0.0.1:9/gate');
  await access.getByRole('button', { name: 'Save' }).click();
  await access.getByText('Saved.').waitFor();
  assert.equal((await kiosk.api('GET', '/v1/integration/access')).body.enabled, true);
});

test('the new settings reach the visitors: CPF required, the new agreement shown', async () => {
  await page.getByRole('button', { name: 'Back to start' }).click();
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill('Rui Alves');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('Please fill this in.').waitFor();
  await page.getByRole('button', { name: 'Back to start' }).click();
});

test('changing the PIN needs the current one; wrong PINs lock the desk for a while', async () => {
  await openDesk();
  await tab('Settings');
  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Change the PIN' }) });
  await section.getByLabel('Current PIN').fill('000000');
  await section.getByLabel('New PIN').fill('24682468');
  await section.getByLabel('Repeat the PIN').fill('24682468');
  await section.getByRole('button', { name: 'Set PIN' }).click();
  await section.getByText('That PIN is not right.').waitFor();
  await section.getByLabel('Current PIN').fill(pin);
  await section.getByRole('button', { name: 'Set PIN' }).click();
  await section.getByText('The PIN was changed.').waitFor();
  await page.getByRole('button', { name: 'Back to start' }).click();

  await page.getByRole('button', { name: 'Front desk' }).click();
  for (let i = 0; i < 4; i++) {
    await typePin('111111', 'Open');
    await page.getByText('That PIN is not right.').waitFor();
  }
  await typePin('111111', 'Open');
  // The fifth answer is in (the pad empties) before the right PIN is typed: now locked.
  await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.pin-pad input')?.value === '');
  await typePin('24682468', 'Open');
  await page.getByText(/Too many attempts\. Please wait \d+ seconds and try again\./).waitFor();
  await screenshot(page, 'front-desk-locked');
});
