/**
 * Every console page as every role, in every language, at one screen size (docs/console.md; the desk's and the
 * phone's each have their test file, which run side by side): each page
 * the role's menu offers opens with its title in the language, finishes loading, fits the screen's width, logs no
 * error and passes axe (WCAG 2.1 A and AA); the pages outside the role's menu say so instead of showing anything.
 * The company has something on every page (people inside, an expected guest, a visitor waiting for approval).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { consolePages } from '../../renderer/src/console/pages.ts';
import { type PersonRole, personRoles } from '../../renderer/src/console/session.ts';
import { shellWords } from '../../renderer/src/console/shell-words.ts';
import { languages } from '../../renderer/src/i18n/languages.ts';
import { type Session, signedInPerson, signInBrowser } from './accounts.ts';
import { axeProblems, launchChromium, screenshot } from './browser.ts';
import { type KioskFixture, kioskFixture } from './kiosk.ts';

/** The desk's and the phone's screens the console is made for. */
export const consoleSizes = {
  desk: { name: 'desk', width: 1440, height: 900 },
  phone: { name: 'phone', width: 390, height: 844 },
} as const;

let browser: Browser;
let kiosk: KioskFixture;
const sessions = new Map<PersonRole, Session>();

async function setUp() {
  browser = await launchChromium();
  kiosk = await kioskFixture();
  const { api, hosts } = kiosk;
  const people = new Map<PersonRole, string>();
  for (const role of personRoles) {
    const person = await signedInPerson(kiosk.service.url, kiosk.apiKey, { role, name: `${role} Person` });
    sessions.set(role, person.session);
    people.set(role, person.hostId);
  }
  // Something on every page, each person's own pages included: visitors inside, waiting for approval, expected.
  const hostOf = (role: PersonRole) => people.get(role) ?? assert.fail(`no ${role} person`);
  const walkIn = async (name: string, hostId: string, extra: Record<string, unknown> = {}) => {
    const made = await api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId, ...extra }, visitor: { name } });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  };
  const invite = async (name: string, hostId: string) => {
    const expectedAt = new Date(Date.now() + 3 * 3600_000).toISOString();
    const made = await api('POST', '/v1/invitees', { name, email: `${randomUUID()}@guest.test`, hostId, expectedAt });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  };
  await walkIn('Olivia Dunham', hosts.beatriz.id);
  await walkIn('Walter Bishop', hosts.carlos.id, { authorizationStatus: 'AWAITING' });
  await invite('Peter Bishop', hosts.beatriz.id);
  await walkIn('Astrid Farnsworth', hostOf('HOST'));
  await walkIn('Nina Sharp', hostOf('HOST'), { authorizationStatus: 'AWAITING' });
  await invite('William Bell', hostOf('HOST'));
  await walkIn('Phillip Broyles', hostOf('EMPLOYEE'), { authorizationStatus: 'AWAITING' });
}

/** Waits until the page has nothing loading: no `aria-busy` region and no status that says "Loading". */
async function settled(page: Page, loading: string): Promise<void> {
  await page.waitForFunction(
    (text) =>
      document.querySelectorAll('[aria-busy="true"]').length === 0 &&
      ![...document.querySelectorAll('[role="status"]')].some((node) => node.textContent?.includes(text)),
    loading,
  );
}

/** The walk at one size: a service of its own, each role's pages in each language. */
export function walkConsole(size: (typeof consoleSizes)[keyof typeof consoleSizes]): void {
  before(setUp);
  after(async () => {
    await browser?.close();
    await kiosk?.service.stop();
  });
  describe(`the console at ${size.width}×${size.height}`, () => {
    for (const role of personRoles) {
      test(`${role}: every page of the menu, in every language`, async () => {
        const session = sessions.get(role) ?? assert.fail(`no session for ${role}`);
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
        await signInBrowser(context, kiosk.service.url, session);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        // A request the role may not make is a page asking for what it should not: named by its address.
        page.on('response', (response) => {
          if (response.status() >= 400) errors.push(`${response.status()} ${new URL(response.url()).pathname}`);
        });
        page.on('console', (message) => {
          if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
            errors.push(message.text());
          }
        });
        const mine = consolePages.filter((p) => p.title && p.roles.includes(role));
        assert.ok(mine.length > 0, `${role} has pages`);
        try {
          // As a person goes: the first page by its address, then the language from the menu and every page by its
          // link, without reloading (the menu folds behind its button on a phone).
          const first = mine[0] ?? assert.fail('no page');
          await page.goto(`${kiosk.service.url}${first.path}?lang=en`);
          await page.getByRole('heading', { level: 1, name: first.title?.en ?? '', exact: true }).waitFor();
          const fromMenu = async () => {
            const button = page.locator('.console-menu-button');
            if ((await button.isVisible()) && (await button.getAttribute('aria-expanded')) !== 'true') {
              await button.click();
            }
          };
          for (const { code: lang } of languages) {
            await fromMenu();
            await page.locator('.console-language select').selectOption(lang);
            for (const consolePage of mine) {
              const title = consolePage.title?.[lang] ?? '';
              await fromMenu();
              await page.getByRole('navigation').getByRole('link', { name: title, exact: true }).click();
              await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
              await settled(page, shellWords[lang].loading);
              assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
              const where = `${role} ${consolePage.id} ${lang} ${size.name}`;
              assert.deepEqual(await axeProblems(page), [], where);
              const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
              assert.ok(overflow <= 0, `${where}: the page is ${overflow} px wider than the screen`);
              if (lang === 'en' && (role === 'ADMIN' || role === 'HOST')) {
                await screenshot(page, `console-${consolePage.id}-${role.toLowerCase()}-${size.name}`);
              }
            }
          }
          // Pages outside the role's menu: the console says the role does not include them.
          for (const other of consolePages.filter((p) => p.title && !p.roles.includes(role))) {
            await page.goto(`${kiosk.service.url}${other.path}?lang=en`);
            await page.getByText(shellWords.en.forbidden).waitFor();
          }
          assert.deepEqual(errors, [], `${role} at ${size.name}: errors in the page`);
        } finally {
          await context.close();
        }
      });
    }
  });
}
