import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, overflowing, screenshotSizes } from '../helpers/browser.ts';
import { invite, type KioskFixture, kioskFixture, openFrontDesk } from '../helpers/kiosk.ts';

/*
 * A front desk that points at what needs attention: today's overview and the tabs' counts, the banner (and its
 * chime) for what needs someone now, a denser desk whose tables never cut a word, no badge for a visitor turned
 * away, and the marshals' roll call on the roster. In Chromium, against a real service, at the four sizes.
 */

let kiosk: KioskFixture;
let browser: Browser;
let page: Page;
let problems: string[];

before(async () => {
  kiosk = await kioskFixture();
  browser = await launchChromium();
  ({ page, problems } = await openKiosk(browser, kiosk.service.url));
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}( \\d+)?$`) }).click();

async function walkIn(visitor: Record<string, unknown>, visit: Record<string, unknown> = {}) {
  const reply = await kiosk.api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId: kiosk.hosts.beatriz.id, ...visit },
    visitor,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
}

/** The overview's counts as the screen shows them, by their label. */
const shownCounts = () =>
  page.$$eval('.today-count', (buttons) =>
    Object.fromEntries(
      buttons.map((button) => [
        button.querySelector('.today-label')?.textContent ?? '',
        Number(button.querySelector('.today-number')?.textContent),
      ]),
    ),
  );

/**
 * The desk's own words in tables and tabs that are cut inside a word or spill out: each word of a heading, a
 * state or a button is measured in its own font against the width its box gives it, and the box must not let
 * the browser break words anywhere.
 */
const brokenWords = () =>
  page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    const selector = '.front-desk .table th, .front-desk .table td .btn, .front-desk .tab, .front-desk .table td';
    return Array.from(document.querySelectorAll<HTMLElement>(selector)).flatMap((element) => {
      if (element.offsetWidth === 0 || element.querySelector('.wrap, .btn, img')) return [];
      // What is read aloud only takes no room on the screen.
      const shown = element.cloneNode(true) as HTMLElement;
      for (const hidden of Array.from(shown.querySelectorAll('.sr-only'))) hidden.remove();
      const style = getComputedStyle(element);
      const found: string[] = [];
      if (style.overflowWrap === 'anywhere' || ['break-all', 'break-word'].includes(style.wordBreak)) {
        found.push(`${element.textContent}: may break inside a word (${style.overflowWrap}/${style.wordBreak})`);
      }
      canvas.font = style.font;
      const room = element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      for (const word of (shown.textContent ?? '').split(/\s+/).filter(Boolean)) {
        if (canvas.measureText(word).width > room + 1) found.push(`"${word}" is wider than its box (${room}px)`);
      }
      return found;
    });
  });

/** Roster rows wholly on the screen without scrolling. */
const rosterRowsInView = () =>
  page.$$eval(
    '.roster-table tbody tr',
    (rows) => rows.filter((row) => row.getBoundingClientRect().bottom <= window.innerHeight).length,
  );

describe("today's overview", () => {
  test('counts a seeded day, live, with counts on the tabs; the banner names what needs someone', async () => {
    for (const name of ['Ana Phone', 'Bruno Alves', 'Clara Dias', 'Davi Rocha', 'Elsa Nunes', 'Fabio Reis']) {
      await walkIn({ name, company: 'Initech', phone: name === 'Ana Phone' ? '+55 11 91234-5678' : undefined });
    }
    await walkIn({ name: 'Gil Nohost' }, { hostId: null });
    await walkIn({ name: 'Hugo Waits' }, { authorizationStatus: 'AWAITING' });
    const denied = await walkIn({ name: 'Iris Denied' }, { authorizationStatus: 'AWAITING' });
    await kiosk.api('PATCH', `/v1/visit/deny/${denied.id}`, {});
    await invite(kiosk, 'Joana Expected');
    await invite(kiosk, 'Kleber Expected');

    await openFrontDesk(page, kiosk.pin);
    await page.locator('.today-count .today-number', { hasText: '7' }).first().waitFor();
    assert.deepEqual(await shownCounts(), {
      Inside: 7,
      Expected: 2,
      Waiting: 1,
      Blocked: 0,
      Denied: 1,
      'Messages failing': 0,
    });
    for (const name of ['Inside now 7', 'Waiting for approval 1', 'Expected today 2']) {
      await page.getByRole('tab', { name, exact: true }).waitFor();
    }
    const banner = page.locator('.attention-banner');
    await banner.getByText('Needs someone now').waitFor();
    await banner.getByRole('button', { name: 'Waiting for approval: 1' }).waitFor();
    await banner.getByRole('button', { name: 'Inside without a host: 1' }).waitFor();

    // A count opens the tab that lists it.
    await page.locator('.today-count', { hasText: 'Waiting' }).click();
    await page.getByText('Hugo Waits').waitFor();
    // What the desk does shows in the counts at once, not at the next read 10 s later.
    await page.getByRole('button', { name: 'Deny: Hugo Waits' }).click();
    const waiting = page.locator('.today-count', { hasText: 'Waiting' }).locator('.today-number');
    await page.waitForFunction((element) => element?.textContent === '0', await waiting.elementHandle(), {
      timeout: 3000,
    });
    assert.equal((await shownCounts()).Denied, 2);
    await tab('Inside now');
    await page.getByText('People inside: 7').waitFor();

    await screenshotSizes(page, 'front-desk-today', async () => {
      assert.deepEqual(await axeProblems(page), []);
      assert.deepEqual(await overflowing(page, '.today *, .tabs *, .roster-table td, .roster-table th'), []);
      assert.deepEqual(await brokenWords(), []);
    });
    assert.deepEqual(problems, []);
  });

  test('a denser desk: smaller type than the visitor screens, more than 3 roster rows at 1280×800', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const rootType = () => page.evaluate(() => Number.parseFloat(getComputedStyle(document.documentElement).fontSize));
    await page.getByRole('button', { name: 'Back to start' }).click();
    await page.getByRole('button', { name: 'Front desk' }).waitFor();
    const visitorType = await rootType();
    await openFrontDesk(page, kiosk.pin);
    assert.ok((await rootType()) < visitorType, `${await rootType()} px at the desk, ${visitorType} px for visitors`);
    await page.getByText('People inside: 7').waitFor();
    assert.ok((await rosterRowsInView()) > 3, `${await rosterRowsInView()} rows in view`);
    await tab('Visits');
    await page.getByRole('cell', { name: 'Iris Denied' }).waitFor();
    await screenshotSizes(page, 'front-desk-visits', async () => {
      assert.deepEqual(await brokenWords(), []);
      assert.deepEqual(await axeProblems(page), []);
    });
  });

  test('a blocked visitor produces the banner, live, with the chime once staff turned it on', async () => {
    // A stand-in for WebAudio that counts the tones started (a script, not a function: nothing of the test's
    // compiled code goes into the page).
    await page.evaluate(`(() => {
      const started = { count: 0 };
      const node = (extra) => ({ connect: (next) => next, ...extra });
      window.tonesStarted = started;
      window.AudioContext = function FakeAudio() {
        return {
          currentTime: 0,
          destination: {},
          resume: () => Promise.resolve(),
          createGain: () => node({ gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } }),
          createOscillator: () => node({ frequency: { value: 0 }, start: () => { started.count += 1; }, stop() {} }),
        };
      };
    })()`);
    const tones = () =>
      page.evaluate(() => (window as unknown as { tonesStarted: { count: number } }).tonesStarted.count);
    const chime = page.getByRole('checkbox', { name: 'Chime when something needs attention' });
    assert.equal(await chime.isChecked(), false, 'off until staff turn it on');
    await chime.check();
    const afterPreview = await tones();
    assert.ok(afterPreview > 0, 'turning it on plays the tone once, so staff know it');

    await kiosk.api('POST', '/v1/blockedlist', { name: 'Lara', email: 'lara@blocked.test', reason: 'test' });
    await walkIn({ name: 'Lara Blocked', email: 'lara@blocked.test' });
    const banner = page.locator('.attention-banner');
    await banner.getByRole('button', { name: 'Blocked at the door today: 1' }).waitFor({ timeout: 15_000 });
    assert.ok((await tones()) > afterPreview, 'the chime sounded');
    assert.equal((await shownCounts()).Blocked, 1);
    await screenshotSizes(page, 'front-desk-attention', async () => {
      assert.deepEqual(await axeProblems(page), []);
    });

    // Seen: the banner quiets what staff saw, until something new comes.
    await banner.getByRole('button', { name: 'Seen' }).click();
    assert.equal(await page.locator('.attention-banner').count(), 0);
    await page.reload();
    await openFrontDesk(page, kiosk.pin);
    assert.equal(await chime.isChecked(), true, 'the setting stays with the device');
  });

  test('no badge print for a visit turned away; an invitee blocked or denied is not "Arrived"', async () => {
    const blocked = await invite(kiosk, 'Mara Blockedinvitee', { email: 'lara@blocked.test' });
    await kiosk.api('POST', `/v1/visit/inviteeCheckin/${blocked.id}`, {});
    const refused = await invite(kiosk, 'Nico Deniedinvitee', { requiresAuthorization: true });
    const visit = (await kiosk.api('POST', `/v1/visit/inviteeCheckin/${refused.id}`, {})).body as { id: string };
    await kiosk.api('PATCH', `/v1/visit/deny/${visit.id}`, {});
    const welcome = await invite(kiosk, 'Olivia Arrived');
    await kiosk.api('POST', `/v1/visit/inviteeCheckin/${welcome.id}`, {});

    await tab('Expected today');
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await row('Olivia Arrived').getByRole('cell', { name: 'Arrived', exact: true }).waitFor();
    await row('Mara Blockedinvitee').getByRole('cell', { name: 'Blocked', exact: true }).waitFor();
    await row('Nico Deniedinvitee').getByRole('cell', { name: 'Denied', exact: true }).waitFor();

    await tab('Visits');
    await page.getByRole('cell', { name: 'Mara Blockedinvitee' }).waitFor();
    const badgeButtons = (name: string) =>
      row(name)
        .getByRole('button', { name: /Print badge/ })
        .count();
    for (const name of ['Lara Blocked', 'Mara Blockedinvitee', 'Iris Denied', 'Nico Deniedinvitee']) {
      assert.equal(await badgeButtons(name), 0, name);
    }
    for (const name of ['Olivia Arrived', 'Ana Phone']) assert.equal(await badgeButtons(name), 1, name);
    assert.deepEqual(await axeProblems(page), []);
  });
});

describe("the marshals' roll call", () => {
  test('a tick per person, kept by the service across a reload, with the phone, on screen and in print', async () => {
    // Eight inside: the seven walk-ins let in, and the invitee who arrived.
    await tab('Inside now');
    const tick = page.getByRole('button', { name: 'Accounted for: Ana Phone' });
    assert.equal(await tick.getAttribute('aria-pressed'), 'false');
    await tick.click();
    await page.getByText('Accounted for: 1 of 8').waitFor();
    assert.equal(await tick.getAttribute('aria-pressed'), 'true');
    const ana = page.getByRole('row').filter({ hasText: 'Ana Phone' });
    await ana.getByRole('link', { name: '+55 11 91234-5678' }).waitFor();

    await page.reload();
    await openFrontDesk(page, kiosk.pin);
    await page.getByText('Accounted for: 1 of 8').waitFor();
    assert.equal(await tick.getAttribute('aria-pressed'), 'true', 'the tick is the service’s, not the page’s');

    // Printed (as "Print roster" prints: the roster alone, on A4): the ticks and the phone numbers are on it.
    await page.evaluate(() => document.body.classList.add('printing-roster'));
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.getByRole('tablist').isVisible(), false, 'the printed page');
    assert.ok(await ana.locator('.tick', { hasText: '✓' }).isVisible(), 'the tick is printed');
    assert.ok(await ana.getByText('+55 11 91234-5678').isVisible(), 'the phone is printed');
    const unticked = page.locator('.roster-table tbody tr:not(.accounted) .tick');
    assert.equal(await unticked.count(), 7);
    assert.ok(await unticked.first().isVisible(), 'an empty box to tick by hand');
    await screenshotSizes(page, 'front-desk-roll-call-print');
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => document.body.classList.remove('printing-roster'));
  });

  test("works on a marshal's phone; a new roll call clears every tick", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const tick = page.getByRole('button', { name: 'Accounted for: Bruno Alves' });
    await tick.click();
    await page.getByText('Accounted for: 2 of 8').waitFor();
    assert.deepEqual(await overflowing(page, '.front-desk *'), []);
    const box = await tick.boundingBox();
    assert.ok(box && box.width >= 44 && box.height >= 44, `a thumb's target: ${JSON.stringify(box)}`);
    await page.getByRole('link', { name: '+55 11 91234-5678' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);

    await page.getByRole('button', { name: 'New roll call' }).click();
    await page.getByRole('button', { name: 'Clear every tick' }).click();
    await page.getByText('A new roll call began: no one is ticked.').waitFor();
    await page.getByText('Accounted for: 0 of 8').waitFor();
    assert.equal((await kiosk.api('GET', '/v1/roster/check')).body.accounted.length, 0);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(problems, []);
  });
});
