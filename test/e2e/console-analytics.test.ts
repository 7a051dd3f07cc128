import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openConsole, type Session, signedInPerson } from '../helpers/accounts.ts';
import { axeProblems, launchChromium, screenshot } from '../helpers/browser.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

/*
 * The console's analytics page (docs/console.md, "Analytics") in Chromium, signed in as a manager: the charts
 * drawn by uPlot under the pages' CSP, each chart's numbers as a table, a chart's CSV downloaded, the span chosen,
 * axe clean at a desk's and a phone's size, and the page closed to a host.
 */

const dayMs = 86_400_000;
let service: TestService;
let browser: Browser;
let manager: Session;
let host: Session;

before(async () => {
  service = await startService();
  const company = await service.company('Acme', 'America/Sao_Paulo');
  const admin = client(service.url, company.apiKey);
  const helena = await admin('POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' });
  // Three visits in the last days, two by the same visitor (a returning one), and an invitee who never came.
  const now = Date.now();
  for (const [name, daysAgo] of [
    ['Ana', 3],
    ['Ana', 2],
    ['Bruno', 2],
  ] as const) {
    const checkinAt = now - daysAgo * dayMs;
    const visit = await admin('POST', '/v1/visits', {
      visit: {
        id: randomUUID(),
        hostId: helena.body.id,
        checkinAt: new Date(checkinAt).toISOString(),
        checkoutAt: new Date(checkinAt + 3_600_000).toISOString(),
      },
      visitor: { name, email: `${name.toLowerCase()}@guests.test` },
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
  }
  const invited = await admin('POST', '/v1/invitees', {
    name: 'Carla',
    email: 'carla@guests.test',
    hostId: helena.body.id,
    expectedAt: new Date(now - dayMs).toISOString(),
  });
  assert.equal(invited.status, 200, JSON.stringify(invited.body));
  manager = (await signedInPerson(service.url, company.apiKey, { role: 'MANAGER', name: 'Marta Gomes' })).session;
  host = (await signedInPerson(service.url, company.apiKey, { role: 'HOST', name: 'Hugo Lima' })).session;
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await service?.stop();
});

/** A signed-in page at the given size, with every script error and CSP refusal collected. */
async function open(session: Session, width: number, height: number, path = '/console/analytics?lang=en') {
  return await openConsole(browser, service.url, { path, session, viewport: { width, height }, acceptDownloads: true });
}

/** The totals as the page shows them, by their label. */
const totals = (page: Page) =>
  page.$$eval('.analytics-totals div', (items) =>
    Object.fromEntries(
      items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]),
    ),
  );

describe('the analytics page', () => {
  test('draws each chart with uPlot and follows it with its numbers, at a desk', async () => {
    const { page, problems, context } = await open(manager, 1440, 900);
    try {
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('section[data-chart="hosts"]').waitFor();
      await screenshot(page, 'console-analytics');
      const shown = await totals(page);
      assert.equal(shown.Visits, '3');
      assert.equal(shown['First-time'], '2');
      assert.equal(shown.Returning, '1');
      assert.equal(shown['Average stay'], '60 min');
      assert.equal(shown['No-shows'], '1');
      const charts = await page.$$eval('section[data-chart]', (sections) =>
        sections.map((section) => ({
          chart: section.getAttribute('data-chart'),
          canvas: section.querySelector('.analytics-chart canvas') !== null,
          rows: section.querySelectorAll('tbody tr').length,
        })),
      );
      assert.deepEqual(
        charts.map((c) => c.chart),
        ['days', 'weeks', 'visitors', 'stay', 'noShows', 'visitorTypes', 'hosts', 'kiosks', 'peakHours'],
      );
      for (const chart of charts) assert.ok(chart.canvas, `${chart.chart} is drawn`);
      assert.equal(charts.find((c) => c.chart === 'days')?.rows, 30);
      assert.equal(charts.find((c) => c.chart === 'peakHours')?.rows, 7);
      const hosts = page.locator('section[data-chart="hosts"]');
      await hosts.getByText('The numbers').click();
      assert.deepEqual(await hosts.locator('tbody tr').first().locator('th, td').allTextContents(), [
        'Helena Dias',
        '3',
      ]);
      assert.deepEqual(await axeProblems(page), []);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  test("downloads a chart's numbers as CSV", async () => {
    const { page, context } = await open(manager, 1440, 900);
    try {
      const button = page.getByRole('button', { name: 'Download CSV: First-time and returning visitors' });
      await button.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      assert.match(download.suggestedFilename(), /^visitors-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = readFileSync((await download.path()) as string, 'utf8');
      const lines = text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      assert.equal(lines[0], '"Day","First-time","Returning"');
      assert.equal(lines.length, 31);
      const cells = lines.slice(1).map((line) => line.split(',').map((cell) => Number(cell.replaceAll('"', ''))));
      const sum = (column: number) => cells.reduce((total, row) => total + (row[column] ?? 0), 0);
      assert.deepEqual([sum(1), sum(2)], [2, 1]);
    } finally {
      await context.close();
    }
  });

  test('counts the span chosen', async () => {
    const { page, context } = await open(manager, 1440, 900);
    try {
      await page.locator('section[data-chart="days"]').waitFor();
      await page.getByLabel('Days', { exact: true }).selectOption('7');
      await page.waitForFunction(() => document.querySelectorAll('section[data-chart="days"] tbody tr').length === 7);
      await page.getByLabel('Days', { exact: true }).selectOption('custom');
      const today = await page.getByLabel('To', { exact: true }).inputValue();
      await page.getByLabel('From', { exact: true }).fill(today);
      await page.waitForFunction(() => document.querySelectorAll('section[data-chart="days"] tbody tr').length === 1);
      assert.equal((await totals(page)).Visits, '0');
    } finally {
      await context.close();
    }
  });

  test('reads well on a phone, in every language', async () => {
    for (const [lang, title] of [
      ['en', 'Analytics'],
      ['pt-BR', 'Análises'],
      ['de', 'Auswertungen'],
      ['zh-Hans', '统计分析'],
    ]) {
      const { page, problems, context } = await open(manager, 390, 844, `/console/analytics?lang=${lang}`);
      try {
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.locator('section[data-chart="hosts"]').waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${lang}: the page is ${overflow} px wider than the phone`);
        if (lang === 'en') await screenshot(page, 'console-analytics-phone');
        assert.deepEqual(await axeProblems(page), [], lang);
        assert.deepEqual(problems, [], lang);
      } finally {
        await context.close();
      }
    }
  });

  test('is closed to a host, whose session the service refuses too', async () => {
    const { page, context } = await open(host, 1440, 900);
    try {
      await page.getByText('Your role does not include this page.').waitFor();
      assert.equal(await page.locator('.analytics').count(), 0);
    } finally {
      await context.close();
    }
    assert.equal((await host.call('GET', '/v1/analytics')).status, 403);
  });
});
