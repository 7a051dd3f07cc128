import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openConsole, type Person, type Session, signedInPerson } from '../helpers/accounts.ts';
import { axeProblems, launchChromium, screenshot } from '../helpers/browser.ts';
import { type CreatedCompany, client, startService, type TestService } from '../helpers/service.ts';

// The console's Settings page (docs/console.md, "Settings"), signed in as an ADMIN person: the front desk's editors
// at work in the console, the API keys and the audit log, at a desk's and a phone's width, in its languages.

let service: TestService;
let company: CreatedCompany;
let admin: Person & { session: Session };
let browser: Browser;

before(async () => {
  service = await startService();
  company = await service.company('Acme');
  admin = await signedInPerson(service.url, company.apiKey, { role: 'ADMIN', name: 'Ada Admin' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await service?.stop();
});

const desk = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The Settings page, signed in as `person`, failing the test on a script error or a CSP refusal. */
async function openSettings(
  viewport: { width: number; height: number },
  query = '',
  person: { session: Session } = admin,
): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await openConsole(browser, service.url, { session: person.session, viewport });
  watchCalls(page);
  await page.goto(`${service.url}/console/settings${query}`);
  return { page, problems };
}

const inFlight = new WeakMap<Page, Set<unknown>>();

/** Keeps count of the page's calls to the API, but for the live channel (a stream that stays open). */
function watchCalls(page: Page): void {
  const calls = new Set<unknown>();
  inFlight.set(page, calls);
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/') && !request.url().includes('/v1/console/events')) {
      calls.add(request);
    }
  });
  page.on('requestfinished', (request) => calls.delete(request));
  page.on('requestfailed', (request) => calls.delete(request));
}

/** Waits until the page has made no call for a moment: what an opened section loads has arrived. */
async function settled(page: Page): Promise<void> {
  const calls = inFlight.get(page) ?? new Set();
  for (let quiet = 0; quiet < 3; ) {
    await page.waitForTimeout(100);
    quiet = calls.size === 0 ? quiet + 1 : 0;
  }
}

/** Opens a section by its name in the list and answers the section (named by it, as a screen reader hears it). */
async function openSection(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.getByRole('button', { name, exact: true, expanded: true }).waitFor();
  // The first of that name: an editor inside may name its own part alike.
  const region = page.getByRole('region', { name, exact: true }).first();
  await region.waitFor();
  return region;
}

test('a new brand colour is saved and the console wears it at once', async () => {
  const { page, problems } = await openSettings(desk);
  const brand = await openSection(page, 'Brand colour and welcome');
  await brand.getByLabel('Brand colour (#rrggbb)').fill('#7b1fa2');
  await brand.getByText('readable (WCAG AA)').waitFor();
  await brand.getByRole('button', { name: 'Save' }).first().click();
  await brand.getByText('Saved.').waitFor();
  await page.waitForFunction(
    () =>
      getComputedStyle(document.querySelector('.console-header') as Element).backgroundColor === 'rgb(123, 31, 162)',
  );
  const saved = await client(service.url, company.apiKey)('GET', '/v1/company');
  assert.equal(saved.body.brandColor, '#7b1fa2');
  // A colour white text cannot be read on is refused before it is sent, in words.
  await brand.getByLabel('Brand colour (#rrggbb)').fill('#ffff00');
  await brand.getByRole('button', { name: 'Save' }).first().click();
  await brand.getByRole('alert').filter({ hasText: 'contrast' }).waitFor();
  assert.equal((await client(service.url, company.apiKey)('GET', '/v1/company')).body.brandColor, '#7b1fa2');
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a visitor type is added from the list of known kinds and by its own name', async () => {
  const { page, problems } = await openSettings(desk);
  const types = await openSection(page, 'Visitor types');
  await types.getByRole('button', { name: 'Contractor', exact: true }).click();
  await types.getByText('Contractor was added.').waitFor();
  await types.getByLabel('Your own type: its name').fill('Auditor');
  await types.getByRole('button', { name: 'Add this type' }).click();
  await types.getByText('Auditor was added.').waitFor();
  const listed = await client(service.url, company.apiKey)('GET', '/v1/visitortypes');
  const names = (listed.body.visitorTypes ?? listed.body).map((type: { name: string }) => type.name);
  assert.ok(names.includes('Contractor') && names.includes('Auditor'), JSON.stringify(names));
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('an API key is made and shown once, works over HTTP, and stops working once revoked', async () => {
  const { page, problems } = await openSettings(desk);
  const keys = await openSection(page, 'API keys');
  await keys.getByLabel('Label').fill('Reporting tool');
  await keys.getByLabel('Role').selectOption({ label: 'Read only' });
  await keys.getByRole('button', { name: 'Make the key' }).click();
  const shown = keys.getByLabel('The new key');
  await shown.waitFor();
  const key = await shown.inputValue();
  assert.match(key, /^prt_/);
  const withKey = client(service.url, key);
  assert.equal((await withKey('GET', '/v1/hosts')).status, 200);
  assert.equal((await withKey('POST', '/v1/hosts', { name: 'Nope' })).status, 403, 'a read-only key');

  const row = keys.getByRole('row').filter({ hasText: 'Reporting tool' });
  await row.getByRole('button', { name: 'Revoke: Reporting tool' }).click();
  await row.getByRole('button', { name: 'Revoke now: Reporting tool' }).click();
  await keys.getByText('“Reporting tool” is revoked.').waitFor();
  assert.equal((await withKey('GET', '/v1/hosts')).status, 401);
  // The list shows the key revoked, never the key itself.
  await row.getByText('Revoked').waitFor();
  assert.equal(await page.getByText(key).count(), 0);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the audit log reads newest first, names who acted, and narrows to an action and to a person', async () => {
  const made = await admin.session.call('POST', '/v1/credentials', { role: 'readonly', label: 'Audit probe' });
  assert.equal(made.status, 200);
  await client(service.url, company.apiKey)('PATCH', '/v1/company', { name: 'Acme' });
  const { page, problems } = await openSettings(desk);
  const log = await openSection(page, 'Audit log');
  const rows = log.getByRole('row');
  // The newest first: the admin key's company update, then the person's key.
  await rows.nth(1).getByText('company.updated').waitFor();
  const personRow = rows.filter({ hasText: made.body.id });
  await personRow.getByText('key.created').waitFor();
  await personRow.getByRole('button', { name: 'Show only what Ada Admin did' }).click();
  await log.getByRole('row').nth(1).getByText('Ada Admin').waitFor();
  const who = await log.getByRole('row').locator('td:last-child').allInnerTexts();
  assert.ok(who.length > 0 && who.every((name) => name === 'Ada Admin'), JSON.stringify(who));

  // Both at once: the keys this person made, the one made over HTTP above among them.
  await log.getByLabel('Action').fill('key.created');
  await log.getByRole('button', { name: 'Show', exact: true }).click();
  await log.getByRole('row').nth(1).getByText(made.body.id).waitFor();
  const narrowed = await log
    .getByRole('row')
    .evaluateAll((found) =>
      found.slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent).join(' | ')),
    );
  assert.ok(
    narrowed.every((row) => /key\.created/.test(row) && row.endsWith('Ada Admin')),
    JSON.stringify(narrowed),
  );
  await log.getByRole('button', { name: 'Show all' }).click();
  await log.getByRole('row').filter({ hasText: 'company.updated' }).first().waitFor();
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('every section opens one at a time, axe-clean at a desk and on a phone, never wider than the phone', async () => {
  const sections = [
    'Company and logo',
    'Brand colour and welcome',
    'Visitor types',
    'Visitor details and agreement',
    'Custom fields',
    'Notifications',
    'Access control',
    'Signing in',
    'Data retention',
    'API keys',
    'Audit log',
  ];
  for (const [name, viewport] of [
    ['desk', desk],
    ['phone', phone],
  ] as const) {
    const { page, problems } = await openSettings(viewport);
    await page.getByRole('button', { name: sections[0], exact: true }).waitFor();
    assert.deepEqual(await axeProblems(page), [], `${name}: the list`);
    let previous: string | undefined;
    for (const section of sections) {
      await openSection(page, section);
      if (previous) {
        const closed = page.getByRole('button', { name: previous, exact: true });
        assert.equal(await closed.getAttribute('aria-expanded'), 'false', `${previous} closed as ${section} opened`);
      }
      // Whatever the section loads is there before it is judged.
      await settled(page);
      assert.deepEqual(await axeProblems(page), [], `${name}: ${section}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `${name}: ${section} is ${width}px wide`);
      previous = section;
    }
    await screenshot(page, `console-settings-${name}`);
    assert.deepEqual(problems, []);
    await page.context().close();
  }
});

test('the page and its editors speak the console language, and only an admin sees it', async () => {
  const { page, problems } = await openSettings(desk, '?lang=de');
  await page.getByRole('heading', { name: 'Einstellungen', level: 1 }).waitFor();
  const keys = await openSection(page, 'API-Schlüssel');
  await keys.getByRole('button', { name: 'Schlüssel erstellen' }).waitFor();
  const brand = await openSection(page, 'Markenfarbe und Begrüßung');
  await brand.getByRole('heading', { name: 'Marke auf dem Startbildschirm' }).waitFor();
  await brand.getByRole('button', { name: 'Speichern' }).first().waitFor();
  assert.deepEqual(problems, []);
  await page.context().close();

  const host = await signedInPerson(service.url, company.apiKey, { role: 'HOST', name: 'Hugo Host' });
  const asHost = await openSettings(desk, '', host);
  await asHost.page.getByText('Your role does not include this page.').waitFor();
  assert.equal(await asHost.page.getByRole('button', { name: 'API keys' }).count(), 0);
  assert.equal((await host.session.call('GET', '/v1/credentials')).status, 403);
  await asHost.page.context().close();
});
