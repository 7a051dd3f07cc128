import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, screenshot } from '../helpers/browser.ts';
import { answerAboutYou, type KioskFixture, kioskFixture, sign } from '../helpers/kiosk.ts';

/*
 * Every visitor screen at the four screen sizes a kiosk comes in: tall 1080×1920 and wide 1920×1080 (the large
 * kiosk screens the layout must fill), 768×1024 and 1280×800 (tablets and small screens it must still fit). At
 * each: a screenshot into docs/screenshots/ (`npm run screenshots`), axe at zero violations, nothing wider than
 * the screen, the main action large and within reach, and the checks of the screen itself.
 */

const sizes = [
  { width: 1080, height: 1920 },
  { width: 1920, height: 1080 },
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
] as const;
type Size = (typeof sizes)[number];

/** A name with no place to break: the badge, the headings and the lists must all cope. */
const longName = `Maximiliana${'Wolkenkratzerbewohnerin'.repeat(8)}`.slice(0, 200);

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'optional', phone: 'off', company: 'optional', cpf: 'optional' },
    pictureMode: 'optional',
    ndaText: Array.from({ length: 30 }, (_, i) => `${i + 1}. The visitor keeps confidential what is seen inside.`).join(
      '\n',
    ),
  });
  await kiosk.api('POST', '/v1/customfields', { name: 'Vehicle plate', type: 'Text', sort: 0 });
  await kiosk.api('POST', '/v1/customfields', {
    name: 'I have read the safety rules',
    type: 'Checkbox',
    required: true,
    location: 'QUESTIONNAIRE',
  });
  await kiosk.api('POST', '/v1/visitortypes', { kind: 'guest', sort: 0 });
  await kiosk.api('POST', '/v1/visitortypes', {
    kind: 'interview',
    sort: 1,
    requireAuthorization: true,
    pictureMode: 'off',
    ndaText: '',
    customFieldIds: [],
  });
  await kiosk.api('POST', '/v1/visitortypes', { kind: 'delivery', sort: 2 });
  await kiosk.api('POST', '/v1/integration/access', { enabled: true, aesKey: 'gate key', staticVisitorQRCode: true });
  await kiosk.api('POST', '/v1/blockedlist', { name: 'Blocked', cpf: '529.982.247-25', reason: 'test' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const box = async (page: Page, selector: string): Promise<Box> => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
};

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** The checks every screen passes, and its screenshot. */
async function shown(page: Page, size: Size, name: string): Promise<void> {
  const where = `${name} at ${size.width}×${size.height}`;
  await page.evaluate(() => document.fonts.ready);
  await screenshot(page, `${name}-${size.width}x${size.height}`);
  assert.deepEqual(await axeProblems(page), [], where);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${where}: ${overflow} px wider than the screen`);
  const main = page.locator('.btn-main:visible');
  if ((await main.count()) > 0) {
    const action = await main.first().boundingBox();
    assert.ok(action, where);
    const viewport = { x: 0, y: 0, ...size };
    assert.ok(inside(action, viewport), `${where}: the main action is on the screen`);
    assert.ok(action.height >= 56, `${where}: the main action is large (${action.height} px)`);
    const centre = action.x + action.width / 2;
    assert.ok(
      centre > size.width * 0.2 && centre < size.width * 0.8,
      `${where}: the main action is within reach, not in a corner (centre at ${centre} px)`,
    );
  }
}

async function tour(size: Size): Promise<void> {
  const context = await browser.newContext({ viewport: size, hasTouch: true, locale: 'en-US' });
  await context.grantPermissions(['camera'], { origin: kiosk.service.url });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  const tag = `${size.width}x${size.height}`;
  await page.goto(`${kiosk.service.url}/`);

  await page.getByRole('heading', { name: 'What brings you here?' }).waitFor();
  const rootPx = await page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));
  const large = Math.min(size.width, size.height) >= 1080;
  assert.ok(large ? rootPx >= 26 : rootPx >= 18 && rootPx <= 22, `type scale at ${tag}: ${rootPx} px`);
  if (size.height > size.width) {
    const actions = await box(page, '.welcome-actions');
    assert.ok(actions.height >= size.height * 0.4, `the welcome fills the tall screen (${actions.height} px)`);
  }
  await shown(page, size, 'welcome');

  // A walk-in with every step, by the longest of names.
  await page.getByRole('button', { name: 'Guest', exact: true }).click();
  await page.getByRole('heading', { name: 'About you' }).waitFor();
  assert.equal(
    await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.id),
    await page.getByLabel('Full name').getAttribute('id'),
    'the name field is focused',
  );
  // Portrait: one question per screen, large; a wide screen: the whole form.
  const portrait = size.height > size.width;
  assert.equal(await page.getByLabel('E-mail').count(), portrait ? 0 : 1, `About you at ${tag}`);
  if (portrait) await page.getByText('Question 1 of 4').waitFor();
  await shown(page, size, 'walk-in-details');
  await answerAboutYou(page, { 'Full name': longName });
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).waitFor();
  await shown(page, size, 'walk-in-host');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByRole('heading', { name: 'A few more details' }).waitFor();
  await shown(page, size, 'walk-in-custom-fields');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'A few questions' }).waitFor();
  await page.getByLabel('I have read the safety rules').check();
  await shown(page, size, 'walk-in-questionnaire');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Take picture' }).waitFor();
  await shown(page, size, 'walk-in-picture');
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
  await page.getByRole('heading', { name: 'Agreement' }).waitFor();
  // The signature box is whole on the screen, above the footer, without scrolling; the long text scrolls.
  const pad = await box(page, 'canvas.signature-pad');
  const footer = await box(page, '.screen-actions');
  assert.ok(pad.y + pad.height <= footer.y, `the signature box is above the footer at ${tag}`);
  assert.ok(pad.y >= 0 && pad.height >= 140, `the signature box is on the screen at ${tag}`);
  await sign(page);
  await shown(page, size, 'walk-in-nda');
  await page.getByRole('button', { name: 'I agree and sign' }).click();

  await page.getByRole('article', { name: 'Visitor badge' }).waitFor();
  await page.getByRole('img', { name: 'Your code for the gate' }).waitFor();
  const badge = await box(page, '.badge');
  for (const part of ['.badge-facts', '.badge-qr', '.badge-name', '.badge-kind']) {
    assert.ok(inside(await box(page, `.badge ${part}`), badge), `${part} stays on the badge at ${tag}`);
  }
  assert.match((await page.locator('.badge-facts').textContent()) ?? '', /Beatriz Lima/, 'the host is on the badge');
  const gate = await box(page, '.gate-qr');
  assert.ok(gate.width >= (large ? 400 : 280), `the gate's code is large at ${tag} (${gate.width} px)`);
  const scrolls = await page.evaluate(() => {
    const body = document.querySelector('.screen-body');
    return body ? body.scrollHeight - body.clientHeight : 0;
  });
  assert.ok(scrolls <= 1, `the confirmation fits the screen at ${tag} without scrolling (${scrolls} px more)`);
  // The arrival at a glance, on the one screen, none of it behind the footer: the mark, what happens next (the
  // host, the badge, the gate), the gate's code and the badge's preview.
  const footerTop = (await box(page, '.screen-actions')).y;
  for (const part of ['.outcome-mark', '.next-steps', '.gate-code', '.badge']) {
    const at = await box(page, part);
    assert.ok(at.y >= 0 && at.y + at.height <= footerTop + 0.5, `${part} is above the footer at ${tag}`);
  }
  const title = await box(page, '.screen-title h1');
  assert.ok(title.x >= 0 && title.x + title.width <= size.width, 'the heading with the long name stays on screen');
  await shown(page, size, 'confirmed');
  // Printed on its 62 × 100 mm label, too, the long name leaves the host, the date and the check-out code in place.
  await page.emulateMedia({ media: 'print' });
  const label = await box(page, '.badge');
  assert.ok(Math.abs(label.height - (100 / 25.4) * 96) < 2, `the label is 100 mm high (${label.height} px)`);
  for (const part of ['.badge-facts', '.badge-qr', '.badge-checkout figcaption']) {
    assert.ok(inside(await box(page, `.badge ${part}`), label), `${part} stays on the printed label`);
  }
  await page.emulateMedia({ media: 'screen' });
  await page.getByRole('button', { name: 'Done' }).click();

  // A visit the host must allow: the wait, then the denial.
  await page.getByRole('button', { name: 'Job interview', exact: true }).click();
  await answerAboutYou(page, { 'Full name': `Ivo Interview ${tag}`, 'E-mail': 'ivo@example.com' });
  await page.getByRole('combobox').fill('carlos');
  await page.getByRole('option', { name: /Carlos Mendes/ }).click();
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  await shown(page, size, 'waiting-for-host');
  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=name&queryOp===&queryValue=Ivo%20Interview%20${tag}`);
  await kiosk.api('PATCH', `/v1/visit/deny/${body.visits[0].id}`, {});
  await page.getByText('Your visit could not be confirmed.').waitFor({ timeout: 6000 });
  // The heading thanks; the instruction is text of its own, never cut with the heading.
  await page.getByRole('heading', { name: `Thank you, Ivo Interview ${tag}`, exact: true }).waitFor();
  await page.getByText('Please speak to the reception.').waitFor();
  await shown(page, size, 'denied');
  await page.getByRole('button', { name: 'Done' }).click();

  // A visitor on the blocklist, stopped after their data.
  await page.getByRole('button', { name: 'Guest', exact: true }).click();
  await answerAboutYou(page, { 'Full name': `Bruno Blocked ${tag}`, CPF: '529.982.247-25' });
  await page.getByRole('heading', { name: 'Thank you', exact: true }).waitFor();
  await shown(page, size, 'blocked');
  await page.getByRole('button', { name: 'Done' }).click();

  // An invited guest.
  await kiosk.api('POST', '/v1/invitees', {
    name: `Irene Invited ${tag}`,
    email: `irene.${tag}@guest.test`,
    expectedAt: new Date().toISOString(),
    hostId: kiosk.hosts.carlos.id,
  });
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page
    .getByText('Looking for a QR code', { exact: false })
    .or(page.getByText('camera is not available'))
    .waitFor();
  await page.getByLabel('Your name or invitation code').fill(`Irene Invited ${tag}`);
  await shown(page, size, 'invited-find');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Is this you?' }).waitFor();
  await shown(page, size, 'invited-confirm');
  await page.getByRole('button', { name: 'Back to start' }).click();

  // Check-out, of the long name.
  await page.getByRole('button', { name: /I'm leaving/ }).click();
  await page.getByLabel('Your name').fill(longName);
  await shown(page, size, 'checkout-find');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me out' }).waitFor();
  await shown(page, size, 'checkout-confirm');
  await page.getByRole('button', { name: 'Yes, check me out' }).click();
  await page.getByText('Thank you for your visit.', { exact: false }).waitFor();
  await shown(page, size, 'goodbye');
  await page.getByRole('button', { name: 'Done' }).click();

  // The front desk's door and its first tab.
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  await shown(page, size, 'front-desk-pin');
  for (const digit of kiosk.pin) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('tablist', { name: 'Front-desk sections' }).waitFor();
  await shown(page, size, 'front-desk-roster');

  assert.deepEqual(problems, []);
  await context.close();
}

for (const size of sizes) {
  test(`every visitor screen at ${size.width}×${size.height}`, () => tour(size));
}
