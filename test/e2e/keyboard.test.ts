import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, screenSizes, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

/*
 * A visitor without a pointer: the walk-in with an agreement by keyboard alone, signed by typing the name, with the
 * focus moving to each new step and each step announced to screen readers.
 */

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'optional',
    ndaText: 'The visitor keeps confidential everything seen inside.',
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

/** Presses Tab (30 times at most) until the focused element is the button named `name`. */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      return active?.tagName === 'BUTTON' ? (active.textContent ?? '') : '';
    });
    if (name.test(focused)) return;
  }
  throw new Error(`no focusable element named ${name} within 30 tabs`);
}

/**
 * Asserts that `read` comes to answer `expected` within 5 s: the page moves the focus and fills the live region in an
 * effect after the new step has rendered, so a read made as the heading appears may come a moment too early.
 */
async function settlesOn(read: () => Promise<string | null>, expected: string, message?: string): Promise<void> {
  const until = Date.now() + 5_000;
  let value = await read();
  while (value !== expected && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  assert.equal(value, expected, message);
}

const focusedHeading = (page: Page) => () =>
  page.evaluate(() => (document.activeElement?.tagName === 'H1' ? document.activeElement.textContent : null));
const announced = (page: Page) => () => page.locator('[aria-live="polite"].sr-only').textContent();

for (const size of screenSizes) {
  const tag = `${size.width}x${size.height}`;
  test(`a keyboard-only walk-in with an agreement, signed by typing the name, at ${size.width}×${size.height}`, async () => {
    const context = await browser.newContext({ viewport: size, locale: 'en-US' });
    await context.grantPermissions(['camera'], { origin: kiosk.service.url });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    let sent: { visit: { id: string; ndaSignature?: string }; visitNda?: string } | undefined;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/kiosk/walkin') {
        sent = request.postDataJSON();
      }
    });
    await page.goto(`${kiosk.service.url}/`);
    await page.getByRole('heading', { name: 'Welcome to Acme' }).waitFor();
    const name = `Kai Keyboard ${tag}`;

    await tabTo(page, /I'm visiting/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Who are you visiting?' }).waitFor();
    await settlesOn(announced(page), 'Who are you visiting? – Step 2 of 4');
    await page.keyboard.type('bea');
    await page.getByRole('option', { name: /Beatriz Lima/ }).waitFor();
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Your picture' }).waitFor();
    await settlesOn(focusedHeading(page), 'Your picture', 'the focus moved to the new step');
    await settlesOn(announced(page), 'Your picture – Step 3 of 4');
    await page.getByRole('button', { name: 'Continue without a picture' }).waitFor();
    await tabTo(page, /Continue without a picture/);
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: 'Agreement' }).waitFor();
    await settlesOn(focusedHeading(page), 'Agreement');
    await settlesOn(announced(page), 'Agreement – Step 4 of 4');
    await tabTo(page, /Sign by typing your name instead/);
    await page.keyboard.press('Enter');
    const typed = page.getByLabel('Type your full name to sign');
    await typed.waitFor();
    assert.equal(await typed.evaluate((input) => input === document.activeElement), true, 'the field takes the focus');
    await page.keyboard.type('Kai');
    await page.keyboard.press('Enter');
    const mismatch = page.getByText(`Please type your full name as you gave it: ${name}`);
    await mismatch.waitFor();
    assert.equal(await typed.getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await axeProblems(page), [], `the typed signature at ${tag}`);
    await screenshot(page, `nda-typed-${tag}`);
    // The error goes as soon as the name is right, before any other key or tap.
    await page.keyboard.type(` keyboard ${tag}`);
    await mismatch.waitFor({ state: 'detached' });
    assert.equal(await typed.getAttribute('aria-invalid'), 'false');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: `You are checked in, ${name}!` }).waitFor();
    await settlesOn(focusedHeading(page), `You are checked in, ${name}!`);
    assert.equal(sent?.visit.ndaSignature, 'TYPED');
    const pdf = await PDFDocument.load(Buffer.from(sent?.visitNda ?? '', 'base64'));
    assert.equal(pdf.getKeywords(), 'signature:typed');
    assert.equal(pdf.getAuthor(), name);
    const stored = await kiosk.api('GET', `/v1/visit/${sent?.visit.id}`);
    assert.equal(stored.body.ndaSignature, 'TYPED', 'the service records how it was signed');
    assert.deepEqual(problems, []);
    await context.close();
  });
}
