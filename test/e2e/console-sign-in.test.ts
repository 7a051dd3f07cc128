/**
 * The console's signed-out pages in Chromium (docs/console.md, "Signing in and accounts"): a new person opens the
 * welcome link of their account e-mail (a real local SMTP server), chooses a password and is signed in; signs out
 * and in again with the sign-in page; a wrong password says so. Each page is axe-clean, at a desk's and a phone's
 * width, under the page's CSP.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { linkInMail, mailTo, openConsole, signIn, signInBrowser, testPassword } from '../helpers/accounts.ts';
import { axeProblems, launchChromium } from '../helpers/browser.ts';
import { allowLoopback, client, freePort, startService, type TestService } from '../helpers/service.ts';
import { smtpSettings, startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let browser: Browser;
let smtp: TestSmtp;
let service: TestService;
let admin: ReturnType<typeof client>;
let adminKey: string;

before(async () => {
  smtp = await startSmtp();
  browser = await launchChromium();
  const port = await freePort();
  service = await startService({
    args: [...allowLoopback, '--port', String(port), '--public-url', `http://127.0.0.1:${port}`],
  });
  adminKey = (await service.company('Acme', 'America/Sao_Paulo')).apiKey;
  admin = client(service.url, adminKey);
  const saved = await admin('POST', '/v1/integration/notifications', smtpSettings(smtp));
  assert.equal(saved.status, 200);
});
after(async () => {
  await browser?.close();
  await service?.stop();
  await smtp?.close();
});

/** A page at a width, failing the test on a script error or a CSP violation. */
async function openPage(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
  return await openConsole(browser, service.url, { viewport: { width, height } });
}

async function newPerson(name: string) {
  const email = `${name.toLowerCase()}-${randomUUID()}@acme.test`;
  const before = smtp.mails.length;
  const made = await admin('POST', '/v1/hosts', {
    name,
    email,
    role: 'HOST',
    isActive: true,
    sendInvitationEmail: true,
  });
  assert.equal(made.status, 200);
  const link = await linkInMail((await mailTo(smtp, email, before)).raw, 'welcome');
  return { email, link: link.url };
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`the welcome link sets a password and signs in; sign-in and out (${width}×${height})`, async () => {
    const { page, problems } = await openPage(width, height);
    const person = await newPerson('Ana');
    // The e-mail's link, as the person opens it.
    await page.goto(person.link);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await page.getByLabel('New password', { exact: true }).fill(testPassword);
    await page.getByLabel('The same password again').fill('not the same one');
    await page.getByRole('button', { name: 'Save the password and sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'not the same' }).waitFor();
    await page.getByLabel('The same password again').fill(testPassword);
    await page.getByRole('button', { name: 'Save the password and sign in' }).click();
    // In the account menu, folded on a phone.
    await page.getByText('Signed in as Ana').waitFor({ state: 'attached' });
    assert.doesNotMatch(page.url(), /welcome/);

    if (width < 900) await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
    assert.match(page.url(), /\/console\/sign-in/);
    assert.deepEqual(await axeProblems(page), []);

    await page.getByLabel('E-mail').fill(person.email);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The e-mail or the password is not right.' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await page.getByLabel('Password').fill(testPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as Ana').waitFor({ state: 'attached' });

    // The link was spent: opened again, it says so.
    await page.goto(person.link);
    await page.getByLabel('New password', { exact: true }).fill(testPassword);
    await page.getByLabel('The same password again').fill(testPassword);
    await page.getByRole('button', { name: 'Save the password and sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'This link was used already' }).waitFor();
    assert.deepEqual(problems, []);
    await page.context().close();
  });
}

test('the reset request and the Account page are axe-clean; a helper-signed page opens the console', async () => {
  const { page, problems } = await openPage(1440, 900);
  await page.goto(`${service.url}/console/reset`);
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await page.getByLabel('E-mail').fill('nobody@acme.test');
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByRole('status').filter({ hasText: 'a link is on its way' }).waitFor();
  assert.deepEqual(await axeProblems(page), []);

  const person = await newPerson('Bruno');
  const token = person.link.split('/').pop();
  const set = await fetch(`${service.url}/v1/account/set-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: testPassword }),
  });
  assert.equal(set.status, 200);
  await signInBrowser(page.context(), service.url, await signIn(service.url, person.email, testPassword));
  await page.goto(`${service.url}/console/account`);
  await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
  await page.getByRole('cell', { name: /This device/ }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  assert.deepEqual(problems, []);
});
