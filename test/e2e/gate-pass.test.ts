import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import type { Browser, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { axeProblems, launchChromium, openKiosk, overflowing, screenshot } from '../helpers/browser.ts';
import { type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { badgePages, type KioskFixture, kioskFixture, openFrontDesk } from '../helpers/kiosk.ts';
import { passLinkTo } from '../helpers/pass.ts';
import { readQrPng } from '../helpers/qr.ts';
import { allowLoopback } from '../helpers/service.ts';
import { smtpSettingsOf, startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/*
 * The gate code reaches the visitor: with a public address, the walk-in's e-mail links to a page the phone shows
 * the live code on; without one, the kiosk says the code is not sent and prints it on the badge. Each code is read
 * from the pixels on the screen (or the badge) and judged by the reference gate.
 */

const aesKey = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const publicUrl = 'https://visitors.acme.test';

let smtp: TestSmtp;
let gate: GateProcess;
let totpGate: GateProcess;
/** A kiosk with a public address (`--public-url`), and one without. */
let reachable: KioskFixture;
let lobbyOnly: KioskFixture;
let browser: Browser;

/** The quickest walk-in: name and e-mail, the host; no picture, no agreement. */
const quickKiosk = {
  visitorFields: { email: 'optional', phone: 'off', company: 'off' },
  pictureMode: 'off',
  badgePrinting: true,
};

before(async () => {
  [smtp, gate, totpGate, reachable, lobbyOnly, browser] = await Promise.all([
    startSmtp(),
    startGateProcess({ aesKey }),
    startGateProcess({ aesKey, totp: true }),
    kioskFixture({ args: [...allowLoopback, '--public-url', publicUrl] }),
    kioskFixture(),
    launchChromium(),
  ]);
  for (const kiosk of [reachable, lobbyOnly]) {
    assert.equal((await kiosk.api('PATCH', '/v1/kiosk/settings', quickKiosk)).status, 200);
    assert.equal((await kiosk.api('POST', '/v1/integration/notifications', smtpSettingsOf(smtp))).status, 200);
  }
});
after(async () => {
  await browser?.close();
  await Promise.all([
    reachable?.service.stop(),
    lobbyOnly?.service.stop(),
    smtp?.close(),
    gate?.stop(),
    totpGate?.stop(),
  ]);
});

async function walkIn(page: Page, name: string, email: string | undefined) {
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill(name);
  if (email !== undefined) await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill('carlos');
  await page.getByRole('option', { name: /Carlos Mendes/ }).click();
  await page.getByRole('heading', { name: `You are checked in, ${name}!` }).waitFor();
}

/** The visit of that name, as the admin reads it. */
async function visitNamed(kiosk: KioskFixture, name: string) {
  const { body } = await kiosk.api('GET', `/v1/visits?queryKey=name&queryOp===&queryValue=${encodeURIComponent(name)}`);
  return body.visits[0] as { id: string; cardNumber: string };
}

/** What a gate's camera reads off an image on the page. */
async function qrOn(page: Page, selector: string): Promise<string> {
  const text = readQrPng(await page.locator(selector).screenshot());
  assert.ok(text, `a readable QR code in ${selector}`);
  return text;
}

test("with a public address, the walk-in's e-mail opens a pass on the phone that the gate accepts and that renews itself", async () => {
  await reachable.api('POST', '/v1/integration/access', {
    enabled: true,
    aesKey,
    totpEnabled: true,
    qrcodeDuration: 5,
  });
  const { page: kioskPage, problems } = await openKiosk(browser, reachable.service.url);
  await walkIn(kioskPage, 'Rita Moura', 'rita@visitor.test');
  await kioskPage.getByRole('img', { name: 'Your code for the gate' }).waitFor();
  assert.equal(await kioskPage.getByText('not sent to your phone').count(), 0, 'the code is sent to the phone');
  assert.equal(await kioskPage.locator('.badge-gate').count(), 0, 'so the badge does not carry it');
  const visit = await visitNamed(reachable, 'Rita Moura');

  const { link, mail } = await passLinkTo(smtp, 'rita@visitor.test', publicUrl);
  assert.equal(mail.subject, 'Your gate pass at Acme');
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, locale: 'en-US' });
  // The public address leads to the service, as the proxy in front of it would.
  await phone.route(`${publicUrl}/**`, async (route) => {
    const { pathname, search } = new URL(route.request().url());
    await route.fulfill({ response: await route.fetch({ url: reachable.service.url + pathname + search }) });
  });
  const pageProblems: string[] = [];
  phone.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) pageProblems.push(message.text());
  });
  // The visitor opens the e-mail on the phone and taps its button, which opens the pass in a new tab.
  const inbox = await phone.newPage();
  await inbox.setContent(String(mail.html));
  const [page] = await Promise.all([
    phone.waitForEvent('page'),
    inbox.getByRole('link', { name: 'Open your gate pass' }).click(),
  ]);
  await page.getByRole('heading', { name: 'Your gate pass' }).waitFor();
  assert.equal(page.url(), link);
  assert.deepEqual(await axeProblems(page), []);
  assert.deepEqual(await overflowing(page, 'main *'), [], "nothing leaves a phone's screen");
  await screenshot(page, 'gate-pass-phone');

  // Nobody touches the phone: as each code expires the page shows the next one in place (no reload). Each code is
  // read just after it appeared, so that the gate judges it well inside its 5 s.
  let reloads = 0;
  page.on('framenavigated', () => reloads++);
  const nextCode = async () => {
    const shown = await page.locator('img.qr').getAttribute('src');
    await page.waitForFunction((old) => document.querySelector('img.qr')?.getAttribute('src') !== old, shown, {
      timeout: 8000,
    });
    const code = await qrOn(page, 'img.qr');
    const verdict = await totpGate.verify(code);
    assert.deepEqual([verdict.valid, verdict.cardNumber, verdict.mode], [true, Number(visit.cardNumber), 'totp']);
    assert.equal(await page.locator('.code').textContent(), code, 'the text is the code the picture shows');
    return code;
  };
  const first = await nextCode();
  assert.notEqual(await nextCode(), first);

  // Checked out at the desk: at its next renewal the page says the pass has ended.
  assert.equal((await reachable.api('PATCH', `/v1/visit/checkout/${visit.id}`, {})).status, 200);
  await page.getByText('This pass has ended.').waitFor({ timeout: 8000 });
  assert.equal(await page.locator('img.qr').count(), 0);
  await screenshot(page, 'gate-pass-ended');
  assert.equal(reloads, 0, 'the page was updated in place');
  assert.deepEqual([...problems, ...pageProblems], []);
  await phone.close();
  await kioskPage.close();
});

test('without a public address, the kiosk says the code is not sent, and the printed badge carries it', async () => {
  await lobbyOnly.api('POST', '/v1/integration/access', { enabled: true, aesKey, staticVisitorQRCode: true });
  const { page, problems } = await openKiosk(browser, lobbyOnly.service.url);
  const badges = badgePages(page);
  await walkIn(page, 'Hugo Neves', 'hugo@visitor.test');
  await page
    .getByText('Your code for the gate is not sent to your phone: keep your badge, it carries the code.')
    .waitFor();
  const badge = page.getByRole('article', { name: 'Visitor badge' });
  await badge.getByRole('img', { name: 'QR code for the turnstile' }).waitFor();
  await badge.getByText('Gate code').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'confirmed-gate-code-on-badge');
  const visit = await visitNamed(lobbyOnly, 'Hugo Neves');

  // The badge the Electron shell prints: its gate code is read off the label and let through.
  await page.goto(`${lobbyOnly.service.url}${badges.get(visit.id)}`);
  await page.waitForFunction(() => document.body.dataset.badgeReady === 'true');
  const printed = await qrOn(page, '.badge-gate img');
  const verdict = await gate.verify(printed);
  assert.deepEqual([verdict.valid, verdict.cardNumber, verdict.mode], [true, Number(visit.cardNumber), 'static']);
  assert.notEqual(await qrOn(page, '.badge-checkout img'), printed, 'the check-out code is another code');
  const pdf = await PDFDocument.load(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
  assert.equal(pdf.getPageCount(), 1, 'one label');
  const overflow = await page.evaluate(() => {
    const label = document.querySelector('.badge')?.getBoundingClientRect();
    const codes = document.querySelector('.badge-codes')?.getBoundingClientRect();
    return label && codes ? codes.bottom - label.bottom : Number.NaN;
  });
  assert.ok(overflow <= 0, `the codes stay on the label (${overflow} px past its edge)`);
  await screenshot(page, 'badge-with-gate-code');

  // No message is sent: there is no page to link to.
  assert.equal(
    smtp.mails.some((mail) => mail.to.includes('hugo@visitor.test')),
    false,
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('with a public address, a walk-in who gave no e-mail or phone gets the gate code on the badge', async () => {
  await reachable.api('POST', '/v1/integration/access', { enabled: true, aesKey, staticVisitorQRCode: true });
  const { page, problems } = await openKiosk(browser, reachable.service.url);
  await walkIn(page, 'Davi Sem Contato', undefined);
  await page
    .getByText('Your code for the gate is not sent to your phone: keep your badge, it carries the code.')
    .waitFor();
  const badge = page.getByRole('article', { name: 'Visitor badge' });
  await badge.getByRole('img', { name: 'QR code for the turnstile' }).waitFor();
  const visit = await visitNamed(reachable, 'Davi Sem Contato');
  const verdict = await gate.verify(await qrOn(page, '.badge-gate img'));
  assert.deepEqual([verdict.valid, verdict.cardNumber], [true, Number(visit.cardNumber)]);
  assert.deepEqual(problems, []);
  await page.close();
});

test("without a public address, the front desk's walk-in gets the gate code on the badge it prints", async () => {
  const { page, problems } = await openKiosk(browser, lobbyOnly.service.url);
  await openFrontDesk(page, lobbyOnly.pin);
  await page.getByRole('tab', { name: /^Check someone in( \d+)?$/ }).click();
  await page.getByLabel('Full name').fill('Dina Balcao');
  await page.getByLabel('Host', { exact: true }).selectOption({ label: 'Carlos Mendes (Finance)' });
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
  await page.getByText('Dina Balcao was checked in.').waitFor();
  await page.evaluate(() => {
    window.print = () => {
      document.body.dataset.printedGate = document.querySelector('.reprint .badge-gate img')?.getAttribute('src') ?? '';
    };
  });
  await page.getByRole('button', { name: 'Print the badge of Dina Balcao' }).click();
  await page.waitForFunction(() => document.body.dataset.printedGate !== undefined);
  const printed = await page.evaluate(() => document.body.dataset.printedGate ?? '');
  // The picture printed is the QR code of the visit's gate code (static: the same every time it is asked for).
  const visit = await visitNamed(lobbyOnly, 'Dina Balcao');
  const { body } = await lobbyOnly.api('GET', `/v1/visit/${visit.id}/qrcode`);
  assert.equal((await gate.verify(body.payload)).valid, true);
  const svg = await QRCode.toString(body.payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  assert.equal(decodeURIComponent(printed.replace(/^data:image\/svg\+xml;charset=utf-8,/, '')), svg);
  assert.deepEqual(problems, []);
  await page.close();
});
