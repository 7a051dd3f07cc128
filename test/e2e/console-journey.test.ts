/**
 * A host's first day with the console, end to end (docs/console.md): an admin adds the host with
 * `sendInvitationEmail`; the account e-mail reaches a local SMTP server; the host follows its link, chooses a
 * password, signs out and in again, invites a guest (who receives the invitation e-mail), allows a walk-in waiting
 * at the kiosk's screen beside the console, and finds the visit in the visit log and in analytics.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { linkInMail, mailTo, testPassword } from '../helpers/accounts.ts';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';
import { allowLoopback, freePort } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let browser: Browser;
let smtp: TestSmtp;
let kiosk: KioskFixture;

before(async () => {
  smtp = await startSmtp();
  browser = await launchChromium();
  const port = await freePort();
  kiosk = await kioskFixture({
    args: [...allowLoopback, '--port', String(port), '--public-url', `http://127.0.0.1:${port}`],
  });
  const mail = await kiosk.api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'visitors@acme.test',
  });
  assert.equal(mail.status, 200, JSON.stringify(mail.body));
  // The quickest kiosk (the name only), where every walk-in waits for their host's approval.
  const settings = await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'off',
    requireAuthorization: true,
  });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
  await smtp?.close();
});

test('a new host: account e-mail → password → sign in → invite → approve a walk-in → visit log and analytics', async (t) => {
  const email = 'dana.scully@acme.test';
  const created = await kiosk.api('POST', '/v1/hosts', {
    name: 'Dana Scully',
    email,
    // A manager: a host who receives visitors, and reads the company's reports.
    role: 'MANAGER',
    isActive: true,
    sendInvitationEmail: true,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));

  // The account e-mail, at the SMTP server, with its link to the console.
  const welcome = await linkInMail((await mailTo(smtp, email)).raw, 'welcome');
  assert.ok(welcome.url.startsWith(`${kiosk.service.url}/console/welcome/`), welcome.url);

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(welcome.url);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await page.getByLabel('New password').fill(testPassword);
    await page.getByLabel('The same password again').fill(testPassword);
    await page.getByRole('button', { name: 'Save the password and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();

    // Out, and in again with the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);

    // A guest invited: the invitation e-mail reaches the guest.
    await page.getByRole('link', { name: 'Invitations' }).click();
    await page.getByLabel('Full name').fill('Fox Mulder');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('fox@guest.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('status').getByText('Fox Mulder is invited.').waitFor();
    const invitation = await mailTo(smtp, 'fox@guest.test');
    assert.match(invitation.subject, /Acme/);

    // A walk-in for Dana waits at the kiosk; Dana allows from the console's Approvals, and the kiosk welcomes them.
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.getByRole('heading', { name: 'Nobody is waiting for a decision.' }).waitFor();
    const { page: kioskPage } = await openKiosk(browser, kiosk.service.url);
    await kioskPage.getByRole('button', { name: /I'm visiting/ }).click();
    await kioskPage.getByLabel('Full name').fill('Walter Skinner');
    await kioskPage.getByRole('button', { name: 'Next' }).click();
    await kioskPage.getByRole('combobox').fill('dana');
    await kioskPage.getByRole('option', { name: /Dana Scully/ }).click();
    await kioskPage.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
    const allow = page.getByRole('button', { name: 'Allow: Walter Skinner' });
    await allow.waitFor();
    const clicked = Date.now();
    await allow.click();
    await kioskPage.getByRole('heading', { name: 'You are checked in, Walter Skinner!' }).waitFor({ timeout: 10_000 });
    t.diagnostic(`Allow in the console → welcome at the kiosk: ${Date.now() - clicked} ms`);
    await kioskPage.close();
    await screenshot(page, 'console-journey-approved');

    // The visit log has the visit, hers.
    await page.getByRole('link', { name: 'Visit log' }).click();
    await page.getByRole('cell', { name: 'Walter Skinner' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);

    // Analytics counts the visit for Dana.
    await page.getByRole('link', { name: 'Analytics' }).click();
    const hosts = page.locator('section[data-chart="hosts"]');
    await hosts.waitFor();
    await hosts.getByText('The numbers').click();
    assert.deepEqual(await hosts.locator('tbody tr').first().locator('th, td').allTextContents(), ['Dana Scully', '1']);
    assert.deepEqual(await axeProblems(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
