/**
 * A fresh kiosk's console (docs/console.md, "Signing in and accounts"): on the device itself, while the company has
 * no account, the sign-in page offers to create the administrator account; the administrator is made, signed in and
 * sees every page; afterwards the offer is gone.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { openConsole, testPassword } from '../helpers/accounts.ts';
import { axeProblems, launchChromium } from '../helpers/browser.ts';
import { startService, type TestService } from '../helpers/service.ts';

let browser: Browser;
let service: TestService;

before(async () => {
  browser = await launchChromium();
  service = await startService();
  await service.company('Acme', 'America/Sao_Paulo');
});
after(async () => {
  await browser?.close();
  await service?.stop();
});

test('the first administrator is created from the device itself, then the offer is gone', async () => {
  const { page, context, problems } = await openConsole(browser, service.url, {
    path: '/console',
    viewport: { width: 390, height: 844 },
  });
  try {
    await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
    await page.getByText('No one can sign in here yet.').waitFor();
    await page.getByRole('link', { name: 'Create the administrator account' }).click();
    await page.getByRole('heading', { name: 'Create the administrator account' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await page.getByLabel('Your name').fill('Ada Admin');
    await page.getByLabel('E-mail').fill('ada@acme.test');
    await page.getByLabel('New password').fill(testPassword);
    await page.getByLabel('The same password again').fill(testPassword);
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = (await page.getByRole('navigation').getByRole('link').allTextContents()).join(', ');
    assert.equal(menu, 'Today, Invitations, Approvals, Visit log, Hosts, Kiosks, Analytics, Settings, Account');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    assert.equal(await page.getByText('No one can sign in here yet.').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
