/**
 * The console's Today, Approvals and Invitations pages in Chromium (docs/console.md): Today follows a check-in made
 * through the API without a reload; a host allows their waiting visitor from Approvals and the kiosk page beside it
 * welcomes the visitor (the time from the click to the kiosk's welcome is measured and reported); a guest is
 * invited; a CSV list with a bad row is previewed with the row's problem and creates nothing; every page is
 * axe-clean and fits at 1440×900 and 390×844.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  type OpenedConsole,
  openConsole as openConsoleAt,
  type Person,
  type Session,
  signedInPerson,
} from '../helpers/accounts.ts';
import { axeProblems, launchChromium, openKiosk, overflowing, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;
let admin: Person & { session: Session };
let host: Person & { session: Session };

const desk = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

before(async () => {
  kiosk = await kioskFixture();
  // The quickest kiosk: no picture, no agreement, only the name.
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'off',
  });
  admin = await signedInPerson(kiosk.service.url, kiosk.apiKey, { role: 'ADMIN', name: 'Alice Admin' });
  host = await signedInPerson(kiosk.service.url, kiosk.apiKey, { role: 'HOST', name: 'Henrique Host' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

/** A console page signed in as `person`, failing the test on any script error or CSP violation. */
async function openConsole(
  person: { session: Session },
  path: string,
  viewport: { width: number; height: number } = desk,
): Promise<OpenedConsole> {
  return await openConsoleAt(browser, kiosk.service.url, { path, session: person.session, viewport });
}

test('Today shows a check-in made elsewhere without a reload', async () => {
  const { page, context, problems } = await openConsole(admin, '/console/today');
  try {
    await page.getByRole('heading', { name: /^Inside now/ }).waitFor();
    // A mark a reload would wipe.
    await page.evaluate(() => document.body.setAttribute('data-unreloaded', 'yes'));
    const checkedIn = await kiosk.api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: kiosk.hosts.carlos.id },
      visitor: { name: 'Teresa Live' },
    });
    assert.equal(checkedIn.status, 200, JSON.stringify(checkedIn.body));
    await page.getByRole('cell', { name: 'Teresa Live' }).waitFor();
    assert.equal(await page.evaluate(() => document.body.getAttribute('data-unreloaded')), 'yes');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a host allows their waiting visitor from Approvals and the kiosk beside it welcomes them', async (t) => {
  await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
  const { page: kioskPage } = await openKiosk(browser, kiosk.service.url);
  const { page, context, problems } = await openConsole(host, '/console/approvals');
  try {
    await page.getByRole('heading', { name: 'Nobody is waiting for a decision.' }).waitFor();
    await kioskPage.getByRole('button', { name: /I'm visiting/ }).click();
    await kioskPage.getByLabel('Full name').fill('Gabriela Waits');
    await kioskPage.getByRole('button', { name: 'Next' }).click();
    await kioskPage.getByRole('combobox').fill('henrique');
    await kioskPage.getByRole('option', { name: /Henrique Host/ }).click();
    await kioskPage.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
    // The card arrives live, with who is visited.
    const allow = page.getByRole('button', { name: 'Allow: Gabriela Waits' });
    await allow.waitFor();
    await page.getByText('Henrique Host').first().waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'console-approvals');
    const clicked = Date.now();
    await allow.click();
    await kioskPage.getByRole('heading', { name: 'You are checked in, Gabriela Waits!' }).waitFor({ timeout: 10_000 });
    const reachedMs = Date.now() - clicked;
    t.diagnostic(`approval reached the kiosk in ${reachedMs} ms`);
    // The kiosk asks every second: the decision shows within two of its polls.
    assert.ok(reachedMs < 2000, `the kiosk welcomed the visitor ${reachedMs} ms after Allow`);
    await page.getByRole('status').getByText('Gabriela Waits was let in.').waitFor();
    await page.getByRole('heading', { name: 'Nobody is waiting for a decision.' }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: false });
    await kioskPage.close();
    await context.close();
  }
});

test("a host's Today shows their own guests, and leaves out what the role may not read", async () => {
  await kiosk.api('POST', '/v1/invitees', {
    name: 'Olga Own',
    email: 'olga@guest.test',
    hostId: host.hostId,
    expectedAt: new Date(Date.now() + 3600_000).toISOString(),
    sendInvitationEmail: false,
  });
  await kiosk.api('POST', '/v1/invitees', {
    name: 'Nuno Notmine',
    email: 'nuno@guest.test',
    hostId: kiosk.hosts.beatriz.id,
    expectedAt: new Date(Date.now() + 3600_000).toISOString(),
    sendInvitationEmail: false,
  });
  const { page, context, problems } = await openConsole(host, '/console/today');
  try {
    await page.getByRole('cell', { name: 'Olga Own' }).waitFor();
    assert.equal(await page.getByText('Nuno Notmine').count(), 0);
    // The deliveries to hosts are the desk's to read: no section, and no error about it.
    assert.equal(await page.getByRole('heading', { name: /Messages to hosts that failed/ }).count(), 0);
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a guest is invited, and shows in the list', async () => {
  const { page, context, problems } = await openConsole(admin, '/console/invitations');
  try {
    await page.getByLabel('Full name').fill('Inês Convidada');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('ines@guest.test');
    await page.getByLabel('Host').selectOption({ label: 'Carlos Mendes' });
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('status').getByText('Inês Convidada is invited.').waitFor();
    await page.getByRole('cell', { name: 'Inês Convidada', exact: true }).waitFor();
    const listed = await kiosk.api('GET', '/v1/invitees?queryKey=name&queryOp===&queryValue=In%C3%AAs%20Convidada');
    assert.equal(listed.body.invitees[0]?.host.id, kiosk.hosts.carlos.id);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a CSV list is previewed with each bad row named, creates nothing while one is wrong, then all at once', async () => {
  const { page, context, problems } = await openConsole(admin, '/console/invitations');
  const csv = (rows: string[]) => ({
    name: 'guests.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(['name,email,host,expected', ...rows].join('\n')),
  });
  try {
    await page.getByRole('button', { name: 'Upload a list' }).click();
    const before = (await kiosk.api('GET', '/v1/invitees')).body.invitees.length;
    await page
      .getByLabel('CSV file')
      .setInputFiles(
        csv([
          'Rui Lista,rui@guest.test,carlos@acme.test,2026-12-01 09:30',
          'Sara Lista,not-an-address,beatriz@acme.test,2026-12-01 10:00',
        ]),
      );
    await page.getByText('1 of 2 rows need correcting.').waitFor();
    await page.getByRole('cell', { name: 'The e-mail address is not valid.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Create/ }).count(), 0);
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'console-invitations-preview');
    assert.equal((await kiosk.api('GET', '/v1/invitees')).body.invitees.length, before);
    await page
      .getByLabel('CSV file')
      .setInputFiles(
        csv([
          'Rui Lista,rui@guest.test,carlos@acme.test,2026-12-01 09:30',
          'Sara Lista,sara@guest.test,beatriz@acme.test,2026-12-01 10:00',
        ]),
      );
    await page.getByText('All 2 rows are ready.').waitFor();
    await page.getByRole('button', { name: 'Create 2 invitations' }).click();
    await page.getByRole('status').getByText('2 invitations created.').waitFor();
    assert.equal((await kiosk.api('GET', '/v1/invitees')).body.invitees.length, before + 2);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Today, Approvals and Invitations are axe-clean and fit a desk and a phone', async () => {
  // Something in every section: a visitor waiting, one inside, one expected.
  await kiosk.api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId: host.hostId, authorizationStatus: 'AWAITING' },
    visitor: { name: 'Wanda Waiting', company: 'Acme Supplies' },
  });
  await kiosk.api('POST', '/v1/invitees', {
    name: 'Xavier Expected',
    email: 'xavier@guest.test',
    hostId: kiosk.hosts.beatriz.id,
    expectedAt: new Date(Date.now() + 3600_000).toISOString(),
    sendInvitationEmail: false,
  });
  for (const viewport of [desk, phone]) {
    for (const [path, shown] of [
      ['/console/today', 'Allow: Wanda Waiting'],
      ['/console/approvals', 'Allow: Wanda Waiting'],
      ['/console/invitations', 'Invite'],
    ] as const) {
      const { page, context, problems } = await openConsole(admin, path, viewport);
      try {
        await page.getByRole('button', { name: shown, exact: true }).waitFor();
        assert.deepEqual(await axeProblems(page), [], `${path} at ${viewport.width}×${viewport.height}`);
        // A table's header row is kept for screen readers only on a phone, clipped to nothing: not on screen.
        assert.deepEqual(
          await overflowing(page, 'main *:not(thead, thead *)'),
          [],
          `${path} at ${viewport.width}: nothing off screen`,
        );
        if (viewport === phone) {
          // Buttons a thumb can hit: at least 44 px high.
          const small = await page.evaluate(() =>
            Array.from(document.querySelectorAll('main button'))
              .filter((button) => button.getBoundingClientRect().height > 0)
              .filter((button) => button.getBoundingClientRect().height < 44)
              .map((button) => button.textContent),
          );
          assert.deepEqual(small, [], `${path}: small buttons on a phone`);
        }
        await screenshot(
          page,
          `console${path.replace('/console', '').replace('/', '-')}-${viewport.width}x${viewport.height}`,
        );
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
