import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  axeProblems,
  launchChromium,
  openKiosk,
  overflowing,
  screenshot,
  screenshotSizes,
  spilling,
} from '../helpers/browser.ts';
import { startSlack, startTeams, startTwilio } from '../helpers/channels.ts';
import { pngBytes } from '../helpers/files.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';
import { client } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/*
 * The front desk in the real world (issue "The kiosk in the real world", the staff's side): a roster people can
 * trust in an emergency, notifications set up and tested from the desk, company content in every language, and
 * the desk's basics. Each runs in Chromium against a real service (and a real SMTP server).
 */

let kiosk: KioskFixture;
let browser: Browser;
let page: Page;
let problems: string[];
let smtp: TestSmtp;
/** The PIN printed when the kiosk was enrolled: nobody at the screen chose it. */
let pin: string;
const longName = `Wolfeschlegelsteinhausenbergerdorff${'x'.repeat(165)}`;

before(async () => {
  smtp = await startSmtp();
  kiosk = await kioskFixture();
  pin = kiosk.pin;
  browser = await launchChromium();
  ({ page, problems } = await openKiosk(browser, kiosk.service.url));
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
  await smtp?.close();
});

async function openDesk() {
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  for (const digit of pin) await page.getByRole('button', { name: digit, exact: true }).click();
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('tablist', { name: 'Front-desk sections' }).waitFor();
}

/** A tab by its name, whatever today's count beside it. */
const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name}( \\d+)?$`) }).click();
const section = (heading: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: heading, exact: true }) });

async function walkIn(visitor: Record<string, unknown>, visit: Record<string, unknown> = {}, picture = false) {
  const reply = await kiosk.api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId: kiosk.hosts.beatriz.id, ...visit },
    visitor,
    ...(picture ? { visitPicture: pngBytes(8).toString('base64') } : {}),
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
}

describe('the front-desk session', () => {
  test('the desk works on its own session: minted by the PIN, used for every call, ended on leaving', async () => {
    const bearers = new Set<string>();
    const watch = (request: { url(): string; headers(): Record<string, string> }) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) bearers.add(request.headers().authorization ?? '');
    };
    await openDesk();
    page.on('request', watch);
    await tab('Visits');
    await page.getByText('No visits on these days.').waitFor();
    page.off('request', watch);
    assert.equal(bearers.size, 1, 'one credential for the desk');
    const token = [...bearers][0]?.replace(/^Bearer /, '') ?? '';
    assert.notEqual(token, kiosk.kioskKey, "not the kiosk's credential");
    assert.notEqual(token, kiosk.apiKey, "not the company's key");
    const desk = client(kiosk.service.url, token);
    assert.equal((await desk('GET', '/v1/roster')).status, 200);
    assert.equal((await desk('GET', '/v1/audit')).status, 403, 'a front-desk session, not an admin');

    await page.getByRole('button', { name: 'Back to start' }).click();
    await page.getByRole('button', { name: 'Front desk' }).waitFor();
    for (let i = 0; i < 50 && (await desk('GET', '/v1/roster')).status !== 401; i++) await page.waitForTimeout(100);
    assert.equal((await desk('GET', '/v1/roster')).status, 401, 'leaving the desk ended the session');
  });

  test('a session the service ended sends staff back to the PIN', async () => {
    await openDesk();
    const sessions = (await kiosk.api('GET', '/v1/credentials')).body;
    const open = (sessions.credentials ?? sessions) as { id: string; role: string; revokedAt?: string | null }[];
    for (const session of open.filter((c) => c.role === 'frontdesk' && !c.revokedAt)) {
      await kiosk.api('DELETE', `/v1/credential/${session.id}`);
    }
    await tab('Visits');
    await page.getByText('The front-desk session ended. Type the PIN to open the desk again.').waitFor();
    await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
    await page.getByRole('button', { name: 'Back to start' }).click();
  });

  test('a kiosk without a PIN offers nothing to type: the first PIN is never chosen at the screen', async () => {
    assert.equal((await kiosk.api('DELETE', '/v1/kiosk/pin')).status, 200);
    await page.getByRole('button', { name: 'Front desk' }).click();
    await page.getByText('No front-desk PIN is set on this kiosk yet.', { exact: false }).waitFor();
    assert.equal(await page.getByRole('button', { name: '1', exact: true }).count(), 0);
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'front-desk-no-pin');
    await page.getByRole('button', { name: 'Back to start' }).click();
    assert.equal((await kiosk.api('POST', '/v1/kiosk/pin', { pin })).status, 200, 'the admin sets it again');
  });
});

describe('a roster people can trust in an emergency', () => {
  test('inside now: let in only, one row per person with a warning, waiting apart, search, photos', async () => {
    await walkIn({ name: 'Lucas Prado', company: 'Initech' }, {}, true);
    for (let i = 0; i < 3; i++) await walkIn({ name: 'Marta Costa', company: 'Umbrella' });
    await walkIn({ name: longName, company: 'Initech' });
    await walkIn({ name: 'Nuno Waiting' }, { authorizationStatus: 'AWAITING' });
    const denied = await walkIn({ name: 'Olga Denied' }, { authorizationStatus: 'AWAITING' });
    await kiosk.api('PATCH', `/v1/visit/deny/${denied.id}`, {});
    const left = await walkIn({ name: 'Paulo Left' });
    await kiosk.api('PATCH', `/v1/visit/checkout/${left.id}`, {});
    await kiosk.api('POST', '/v1/blockedlist', { name: 'Quim Blocked', email: 'quim@blocked.test', reason: 'x' });
    await walkIn({ name: 'Quim Blocked', email: 'quim@blocked.test' });

    await openDesk();
    await page.getByText('People inside: 3').waitFor();
    const rows = page.locator('.roster-table tbody tr');
    assert.equal(await rows.count(), 3);
    for (const absent of ['Nuno Waiting', 'Olga Denied', 'Paulo Left', 'Quim Blocked']) {
      assert.equal(await page.getByRole('cell', { name: absent }).count(), 0, absent);
    }
    const marta = rows.filter({ hasText: 'Marta Costa' });
    await marta.getByText('Checked in 3 times').waitFor();
    await page.getByRole('heading', { name: 'Waiting at the reception for approval: 1' }).waitFor();
    await page.getByText('Nuno Waiting').waitFor();
    const photo = rows.filter({ hasText: 'Lucas Prado' }).locator('img.roster-photo');
    await photo.waitFor();
    assert.ok(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'photo loads');

    // The long name wraps: the host and the time stay on the screen at every size.
    await screenshotSizes(page, 'front-desk-inside-now', async () => {
      assert.deepEqual(await overflowing(page, '.roster-table td, .roster-table th'), []);
      assert.deepEqual(await spilling(page, '.roster-table td, .roster-table th'), []);
    });
    assert.deepEqual(await axeProblems(page), []);

    await page.getByLabel('Search the roster').fill('umbre');
    await page.getByText('1 shown').waitFor();
    assert.equal(await rows.count(), 1);
    await page.getByLabel('Search the roster').fill('');
    assert.equal(await rows.count(), 3);

    // A person leaves once: the earlier check-ins can be closed, and "Check out" closes all of theirs.
    await page.getByRole('button', { name: 'Close the earlier check-ins: Marta Costa' }).click();
    await page.getByText('The earlier check-ins of Marta Costa were closed.').waitFor();
    assert.equal(await marta.getByText(/Checked in \d times/).count(), 0);
    const open = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Marta%20Costa');
    assert.equal(open.body.visits.filter((v: { checkoutAt: string | null }) => !v.checkoutAt).length, 1);
    assert.deepEqual(problems, []);
  });

  test('the printed A4 roster: the whole list, long names wrapped, no column off the page', async () => {
    await page.evaluate(() => {
      window.print = () => {
        document.body.dataset.printed = document.body.classList.contains('printing-roster') ? 'roster' : 'other';
      };
    });
    await page.getByLabel('Search the roster').fill('lucas');
    await page.getByRole('button', { name: 'Print roster' }).click();
    await page.waitForFunction(() => document.body.dataset.printed === 'roster');
    await page.getByLabel('Search the roster').fill('');
    await page.evaluate(() => document.body.classList.add('printing-roster'));
    await page.emulateMedia({ media: 'print' });
    // A4 (210 mm) less the page's 12 mm margins, at 96 px per inch.
    const printable = Math.floor(((210 - 24) / 25.4) * 96);
    await page.setViewportSize({ width: printable, height: 1123 });
    assert.ok(await page.getByRole('heading', { name: 'Evacuation roster' }).isVisible());
    assert.equal(await page.getByRole('tablist').isVisible(), false);
    assert.equal(
      await page
        .getByRole('button', { name: /Check out/ })
        .first()
        .isVisible(),
      false,
    );
    assert.ok(await page.getByRole('cell', { name: 'Lucas Prado', exact: true }).isVisible());
    assert.ok(await page.getByText('Nuno Waiting').isVisible(), 'who waits at the door is on the list too');
    assert.deepEqual(await overflowing(page, '.roster-table td, .roster-table th', printable), []);
    assert.deepEqual(await spilling(page, '.roster-table td, .roster-table th'), []);
    const hostCell = page.locator('.roster-table tr', { hasText: 'Wolfeschlegel' }).locator('.col-host');
    assert.ok(await hostCell.isVisible());
    await screenshot(page, 'front-desk-roster-print');
    const pdf = await page.pdf({ format: 'A4', printBackground: true });
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    await page.emulateMedia({ media: 'screen' });
    await page.evaluate(() => document.body.classList.remove('printing-roster'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('notifications from the front desk', () => {
  test('set up SMTP, send a test to a real server, see each delivery and its state', async () => {
    await tab('Settings');
    const notify = section('Notifications to hosts');
    await notify.getByLabel('SMTP server', { exact: false }).fill('127.0.0.1');
    await notify.getByLabel('SMTP port', { exact: false }).fill(String(smtp.port));
    await notify.getByLabel('Encryption').selectOption('none');
    await notify.getByLabel('SMTP password (not set)', { exact: false }).fill('s3cret-pass');
    await notify.getByLabel('Sender address', { exact: false }).fill('reception@acme.test');
    await notify.getByRole('button', { name: 'Save' }).click();
    await notify.getByText('Saved.').waitFor();
    // The password is write-only: the page says it is set and never shows it.
    const password = notify.getByLabel('SMTP password (set; type to replace it)', { exact: false });
    assert.equal(await password.inputValue(), '');
    assert.ok(!(await page.content()).includes('s3cret-pass'));

    const test = section('Send a test');
    await test.getByLabel('Test e-mail to').fill('desk@acme.test');
    await test.getByRole('button', { name: 'Send a test e-mail' }).click();
    await test.getByText('The SMTP server accepted the test e-mail to desk@acme.test.').waitFor();
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail?.to, ['desk@acme.test']);
    assert.equal(mail?.from, 'reception@acme.test');

    await walkIn({ name: 'Rita Notified' });
    await smtp.waitFor(2);
    const deliveries = section('Deliveries');
    for (let i = 0; i < 50; i++) {
      await deliveries.getByRole('button', { name: 'Refresh' }).click();
      if ((await deliveries.getByRole('cell', { name: 'Delivered' }).count()) > 0) break;
      await page.waitForTimeout(200);
    }
    const row = deliveries.locator('tr', { hasText: 'Rita Notified' });
    await row.getByRole('cell', { name: 'Beatriz Lima' }).waitFor();
    await row.getByRole('cell', { name: 'Delivered' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await section('Send a test').scrollIntoViewIfNeeded();
    await screenshotSizes(page, 'front-desk-notifications');

    // A server that does not answer is reported in words, not as "something went wrong".
    await notify.getByLabel('SMTP port', { exact: false }).fill('9');
    await notify.getByRole('button', { name: 'Save' }).click();
    await notify.getByText('Saved.').waitFor();
    await test.getByRole('button', { name: 'Send a test e-mail' }).click();
    await test.getByText(/The test was not delivered: .*SMTP 127\.0\.0\.1:9/).waitFor();
  });

  test('set up Slack, Teams and SMS, the reminder and the escalation; a test through each reaches its service', async () => {
    const [slack, teams, twilio] = await Promise.all([startSlack(), startTeams(), startTwilio()]);
    try {
      const notify = section('Notifications to hosts');
      await notify.getByLabel('Slack webhook address', { exact: false }).fill(`${slack.url}/services/T/B/X`);
      await notify.getByLabel('Teams webhook address', { exact: false }).fill(`${teams.url}/workflows/1`);
      await notify.getByLabel('Account SID', { exact: false }).fill(twilio.accountSid);
      await notify.getByLabel('Auth token (not set)', { exact: false }).fill(twilio.authToken);
      await notify.getByLabel('Sending number or name', { exact: false }).fill('+15005550006');
      await notify.getByLabel('SMS service address', { exact: false }).fill(twilio.url);
      await notify.getByLabel('Minutes before the expected time', { exact: false }).fill('30');
      await notify.getByLabel('Minutes to wait (0: never)', { exact: false }).fill('10');
      await notify.getByLabel('Reception’s e-mail', { exact: false }).fill('reception@acme.test');
      await notify.getByRole('button', { name: 'Save' }).click();
      await notify.getByText('Saved.').waitFor();
      await notify.getByLabel('Auth token (set; type to replace it)', { exact: false }).waitFor();
      assert.ok(!(await page.content()).includes(twilio.authToken), 'the token is write-only');
      const saved = (await kiosk.api('GET', '/v1/integration/notifications')).body;
      assert.deepEqual(
        [saved.reminderMinutesBefore, saved.twilioAuthToken, saved.escalateAfterMinutes, saved.receptionEmail],
        [30, '********', 10, 'reception@acme.test'],
      );

      const test = section('Send a test');
      await test.getByRole('button', { name: 'Send a test to Slack' }).click();
      await test.getByText('Slack accepted the test.').waitFor();
      await test.getByRole('button', { name: 'Send a test to Teams' }).click();
      await test.getByText('Teams accepted the test.').waitFor();
      await test.getByLabel('Test SMS to (+country code)').fill('+55 11 98765-4321');
      await test.getByRole('button', { name: 'Send a test SMS' }).click();
      await test.getByText('The SMS service accepted the test to +55 11 98765-4321.').waitFor();
      const [[posted], [card], [sms]] = await Promise.all([slack.waitFor(1), teams.waitFor(1), twilio.waitFor(1)]);
      assert.match(posted?.raw ?? '', /Portaria: test message/);
      assert.match(card?.raw ?? '', /AdaptiveCard/);
      assert.equal((sms?.body as Record<string, string> | undefined)?.To, '+5511987654321');
      assert.deepEqual(await axeProblems(page), []);
      await notify.getByRole('group', { name: 'SMS' }).scrollIntoViewIfNeeded();
      await screenshotSizes(page, 'front-desk-notification-channels');
    } finally {
      await Promise.all([slack.close(), teams.close(), twilio.close()]);
    }
  });
});

describe('company content in every language', () => {
  test('a dropdown and the agreement edited per language at the desk reach the visitor in Português', async () => {
    const fields = section('Add a custom field');
    await fields.getByLabel('Question', { exact: true }).fill('Purpose of the visit');
    await fields.getByLabel('Type').selectOption('Dropdown');
    await fields.getByLabel('Choices (one per line)').fill('Meeting\nDelivery');
    const languages = fields.getByRole('group', { name: 'The question in each language' });
    await languages.getByLabel('Português').fill('Motivo da visita');
    const choices = fields.getByRole('group', { name: 'The choices in each language' });
    await choices.getByLabel('Português').fill('Reunião\nEntrega');
    await choices.getByLabel('Deutsch').fill('Besprechung');
    await fields.getByRole('button', { name: 'Add field' }).click();
    await fields.getByText('Saved.').waitFor();
    const defined = (await kiosk.api('GET', '/v1/customfields')).body.customFields[0];
    assert.deepEqual(defined.localizedOptions, { 'pt-BR': ['Reunião', 'Entrega'], de: ['Besprechung', ''] });

    const checkIn = section('Check-in');
    await checkIn.getByLabel('Text for').selectOption('');
    await checkIn.getByLabel('Agreement for every language without its own').fill('Keep everything confidential.');
    await checkIn.getByLabel('Text for').selectOption('pt-BR');
    await checkIn.getByLabel('Agreement in Português').fill('Mantenha tudo em sigilo.');
    await checkIn.getByRole('button', { name: 'Save' }).click();
    await checkIn.getByText('Saved.').waitFor();
    assert.deepEqual((await kiosk.api('GET', '/v1/kiosk/settings')).body.localizedNdaText, {
      'pt-BR': 'Mantenha tudo em sigilo.',
    });
    assert.deepEqual(await axeProblems(page), []);
    await checkIn.scrollIntoViewIfNeeded();
    await screenshotSizes(page, 'front-desk-content-languages');

    await page.getByRole('button', { name: 'Back to start' }).click();
    await page.getByRole('button', { name: 'Português' }).click();
    await page.getByRole('button', { name: /Vim fazer uma visita/ }).click();
    await page.getByLabel('Nome completo').fill('Sofia Ramos');
    await page.getByRole('button', { name: 'Avançar' }).click();
    await page.getByRole('combobox').fill('bea');
    await page.getByRole('option', { name: /Beatriz Lima/ }).click();
    await page.getByRole('group', { name: /Motivo da visita/ }).waitFor();
    await page.getByLabel('Reunião').check();
    assert.equal(await page.getByLabel('Meeting').count(), 0);
    await page.getByRole('button', { name: 'Avançar' }).click();
    await page.getByRole('button', { name: 'Continuar sem foto' }).click();
    await page.getByText('Mantenha tudo em sigilo.').waitFor();
    assert.equal(await page.getByText('Keep everything confidential.').count(), 0);
    await page.getByRole('button', { name: 'Voltar ao início' }).click();
    await page.getByRole('button', { name: 'English' }).click();
  });
});

describe('front-desk basics', () => {
  test('a custom field edited in place keeps its id; the time zone picked from the list; a logo uploaded', async () => {
    await openDesk();
    await tab('Settings');
    const { id } = (await kiosk.api('GET', '/v1/customfields')).body.customFields[0];
    await page.getByRole('button', { name: 'Edit: Purpose of the visit' }).click();
    const editor = page.getByRole('form', { name: 'Editing Purpose of the visit' });
    await editor.getByLabel('Question', { exact: true }).fill('Reason for the visit');
    await editor.getByLabel('Required').check();
    await editor.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Reason for the visit').first().waitFor();
    const edited = (await kiosk.api('GET', `/v1/customfield/${id}`)).body;
    assert.equal(edited.name, 'Reason for the visit');
    assert.equal(edited.required, true);
    assert.deepEqual(edited.localizedOptions['pt-BR'], ['Reunião', 'Entrega'], 'the labels stay');

    const company = section('Company');
    const zone = company.getByLabel('Time zone');
    assert.ok((await zone.locator('option').count()) > 300, 'every IANA zone');
    await zone.selectOption('Europe/Berlin');
    await company.getByRole('button', { name: 'Save' }).click();
    await company.getByText('Saved.').waitFor();
    assert.equal((await kiosk.api('GET', '/v1/company')).body.timezone, 'Europe/Berlin');

    const logo = section('Logo');
    await logo.getByLabel('Upload a logo').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: pngBytes(16),
    });
    await logo.getByText('The logo was saved.').waitFor();
    await logo.getByRole('img', { name: 'The logo of Acme' }).waitFor();
    await logo.getByLabel('Upload a logo').setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    });
    await logo.getByText('The logo must be a PNG or JPEG picture.').waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'front-desk-settings');
    await page.getByRole('button', { name: 'Back to start' }).click();
    const shown = page.getByRole('img', { name: 'Acme' });
    await shown.waitFor();
    assert.match(String(await shown.getAttribute('src')), /^\/v1\/logo\/[0-9a-f]{32}\.png$/);
    assert.ok(await shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
  });

  test('staff check a walk-in in themselves, with the questions the company requires, and print the badge', async () => {
    await openDesk();
    await tab('Check someone in');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Type the visitor’s name.').waitFor();
    await page.getByLabel('Full name').fill('Tiago Desk');
    await page.getByLabel('Company', { exact: false }).fill('Hooli');
    await page.getByLabel('Host', { exact: true }).selectOption({ label: 'Carlos Mendes (Finance)' });
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Some answers are missing or not valid.').waitFor();
    await page.getByLabel('Meeting').check();
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'front-desk-walk-in');
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Tiago Desk was checked in.').waitFor();
    const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Tiago%20Desk');
    assert.equal(body.visits[0].checkinType, 'DASHBOARD');
    assert.equal(body.visits[0].host.name, 'Carlos Mendes');
    assert.equal(body.visits[0].customFields[0].value, 'Meeting');

    await page.evaluate(() => {
      window.print = () => {
        const badge = document.querySelector('.reprint .badge');
        document.body.dataset.printed = badge?.textContent?.includes('Tiago Desk') ? 'badge' : 'other';
      };
    });
    await page.getByRole('button', { name: 'Print the badge of Tiago Desk' }).click();
    await page.waitForFunction(() => document.body.dataset.printed === 'badge');
    await page.getByText('The badge of Tiago Desk was sent to the printer.').waitFor();
  });

  test('an expected guest missing a required answer: asked at the desk, or let in with a reason for the audit', async () => {
    const invite = async (name: string) =>
      (
        await kiosk.api('POST', '/v1/invitees', {
          name,
          email: `${randomUUID()}@guest.test`,
          expectedAt: new Date().toISOString(),
          hostId: kiosk.hosts.carlos.id,
        })
      ).body.id as string;
    const answered = await invite('Uma Answered');
    const waived = await invite('Vera Waived');
    await tab('Expected today');
    await page.getByRole('button', { name: 'Check in: Uma Answered' }).click();
    const dialog = section('Check in Uma Answered');
    await dialog.getByLabel('Delivery').check();
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'front-desk-expected-complete');
    await dialog.getByRole('button', { name: 'Check in', exact: true }).click();
    await page.getByText('Uma Answered was checked in.').waitFor();
    assert.equal((await kiosk.api('GET', `/v1/invitee/${answered}`)).body.status, 'arrived');

    await page.getByRole('button', { name: 'Check in: Vera Waived' }).click();
    const skip = section('Check in Vera Waived');
    await skip.getByRole('button', { name: 'Check in without the answers' }).click();
    await skip.getByText('Give a reason (at least 3 characters).').waitFor();
    await skip.getByLabel('Reason for checking in without the answers').fill('Guest speaks no language we offer');
    await skip.getByRole('button', { name: 'Check in without the answers' }).click();
    await page
      .getByText('Vera Waived was checked in without the missing answers; the reason is in the audit log.')
      .waitFor();
    assert.equal((await kiosk.api('GET', `/v1/invitee/${waived}`)).body.status, 'arrived');
    const audit = (await kiosk.api('GET', '/v1/audit?limit=1000')).body.entries as {
      action: string;
      details: unknown;
    }[];
    const entry = audit.find((e) => e.action === 'visit.requirements.waived');
    assert.match(JSON.stringify(entry?.details), /Guest speaks no language we offer/);
  });

  test("today's and past visits: searched, badges printed again, exported as formula-safe CSV", async () => {
    const required = (await kiosk.api('GET', '/v1/customfields')).body.customFields[0].id;
    await walkIn(
      { name: '=HYPERLINK("http://evil.test","x")', company: '+cmd' },
      { customFields: [{ customFieldId: required, value: 'Delivery' }] },
    );
    await tab('Visits');
    await page.getByRole('cell', { name: 'Tiago Desk', exact: true }).waitFor();
    await page.getByLabel('Search name, company, e-mail, document or host').fill('hooli');
    await page.locator('.visit-table tbody tr').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.visit-table tbody tr').length === 1);
    await page.getByRole('cell', { name: 'Tiago Desk', exact: true }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'front-desk-visits', async () => {
      assert.deepEqual(await overflowing(page, '.visit-table td'), []);
      assert.deepEqual(await spilling(page, '.visit-table td'), []);
    });

    await page.evaluate(() => {
      window.print = () => {
        document.body.dataset.printed = document.querySelector('.reprint .badge') ? 'reprint' : 'other';
      };
    });
    await page.getByRole('button', { name: 'Print badge: Tiago Desk' }).click();
    await page.waitForFunction(() => document.body.dataset.printed === 'reprint');

    await page.getByLabel('Search name, company, e-mail, document or host').fill('');
    await page.getByRole('cell', { name: 'Lucas Prado', exact: true }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    assert.match(csv, /^"Check-in","Check-out","Name","Company"/);
    assert.ok(csv.includes(`"'=HYPERLINK(""http://evil.test"",""x"")","'+cmd"`));
    assert.ok(csv.includes('"Tiago Desk","Hooli"'));
    assert.ok(!/(^|,)"[=+@-]/m.test(csv), 'no cell starts a formula');
    await page.getByText('The CSV file was saved.').waitFor();

    await page.getByLabel('From').fill('2020-01-01');
    await page.getByLabel('To').fill('2020-01-02');
    await page.getByText('No visits on these days.').waitFor();
    assert.deepEqual(problems, []);
  });
});

describe('inside the Electron shell', () => {
  test('the desk offers "leave kiosk mode" only where the bridge is, asks the PIN, and prints badges silently', async () => {
    assert.equal(await page.getByRole('button', { name: 'Leave kiosk mode' }).count(), 0, 'not in a browser');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    // The shell's bridge as the preload exposes it (preload/api.ts): its connection is the page's own session,
    // its exit and printing are recorded for the test to read.
    // (A string: the test runner's transform would give a function helpers the page does not have.)
    await context.addInitScript(`
      const calls = [];
      window.shellCalls = calls;
      window.portaria = {
        connection: async () => ({ serviceUrl: location.origin, ...(await (await fetch('/kiosk/session')).json()) }),
        appVersion: async () => 'test',
        printBadge: async (request) => {
          calls.push('print ' + request.path);
          return { printed: true };
        },
        exitKiosk: async (pin) => {
          calls.push('exit ' + pin);
          return pin === ${JSON.stringify(pin)} ? { exited: true } : { exited: false, reason: 'WRONG_PIN' };
        },
      };
    `);
    const shell = await context.newPage();
    await shell.goto(`${kiosk.service.url}/`);
    await shell.getByRole('button', { name: 'Front desk' }).click();
    for (const digit of pin) await shell.getByRole('button', { name: digit, exact: true }).click();
    await shell.getByRole('button', { name: 'Open' }).click();
    await shell.getByRole('tab', { name: 'Settings' }).click();
    const leave = shell.locator('section', { has: shell.getByRole('heading', { name: 'Kiosk mode' }) });
    await leave.getByRole('button', { name: 'Leave kiosk mode' }).click();
    for (const digit of '111111') await leave.getByRole('button', { name: digit, exact: true }).click();
    await leave.getByRole('button', { name: 'Leave', exact: true }).click();
    await leave.getByText('That PIN is not right.').waitFor();
    for (const digit of pin) await leave.getByRole('button', { name: digit, exact: true }).click();
    await leave.getByRole('button', { name: 'Leave', exact: true }).click();
    await leave.getByText('Kiosk mode was left.').waitFor();

    await shell.getByRole('tab', { name: 'Visits' }).click();
    await shell.getByRole('button', { name: 'Print badge: Tiago Desk' }).click();
    await shell.getByText('The badge of Tiago Desk was sent to the printer.').waitFor();
    const calls = (await shell.evaluate(() => (window as unknown as { shellCalls: string[] }).shellCalls)) ?? [];
    assert.deepEqual(calls.slice(0, 2), ['exit 111111', `exit ${pin}`]);
    assert.match(calls[2] ?? '', /^print \/badge\/[0-9a-f-]{36}$/);
    await context.close();
  });
});
