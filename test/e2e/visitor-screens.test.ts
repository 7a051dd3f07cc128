import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { repoRoot, startService, type TestService } from '../helpers/service.ts';

/*
 * The visitor's screens around the flows: the kiosk before it is set up, the page's icon.
 */

let browser: Browser;
let service: TestService;

before(async () => {
  service = await startService();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await service?.stop();
});

test('between `serve` and `company create` the kiosk says it is not set up and how, then goes on by itself', async () => {
  const { page, problems } = await openKiosk(browser, service.url);
  await page.getByRole('heading', { name: 'This kiosk is not set up yet' }).waitFor();
  await page.getByText('npx portaria company create').waitFor();
  assert.equal(await page.getByText('Something went wrong', { exact: false }).count(), 0);
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'not-set-up');
  await service.company('Acme');
  // The page retries every 3 s: the company's welcome follows without a reload.
  await page.getByRole('heading', { name: 'Welcome to Acme' }).waitFor({ timeout: 10_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test('/favicon.ico is the app icon', async () => {
  const answer = await fetch(`${service.url}/favicon.ico`);
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /icon/);
  assert.deepEqual(Buffer.from(await answer.arrayBuffer()), readFileSync(join(repoRoot, 'assets/icon.ico')));
});
