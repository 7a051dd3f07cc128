import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { invite, type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;

before(async () => {
  kiosk = await kioskFixture();
  // The quickest kiosk: no picture, no agreement, only the name.
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'off',
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

async function home(page: Page) {
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
}

async function walkIn(page: Page, name: string) {
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill('carlos');
  await page.getByRole('option', { name: /Carlos Mendes/ }).click();
}

test('an invited guest finds the invitation by name, confirms, and is checked in', async () => {
  const invitee = await invite(kiosk, 'Daniela Rocha');
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  // A part of the name finds nobody: the screen never lists who is expected.
  await page.getByLabel('Your name or invitation code').fill('Dan');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('We could not find your invitation.', { exact: false }).waitFor();
  await page.getByLabel('Your name or invitation code').fill('Daniela Rocha');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Is this you?' }).waitFor();
  await page.getByText('Daniela R.', { exact: true }).waitFor();
  assert.equal(await page.getByText('Rocha').count(), 0, 'a first name and an initial only');
  await page.getByText('Visiting Carlos Mendes').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'invited-confirm');
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Daniela Rocha!' }).waitFor();
  const stored = await kiosk.api('GET', `/v1/invitee/${invitee.id}`);
  assert.equal(stored.body.status, 'arrived');
  const visits = await kiosk.api('GET', `/v1/visits?queryKey=name&queryOp===&queryValue=Daniela%20Rocha`);
  assert.equal(visits.body.visits.length, 1);
  assert.equal(visits.body.visits[0].checkinType, 'IPAD');
  await page.getByRole('button', { name: 'Done' }).click();
  await home(page);
  assert.deepEqual(problems, []);
  await page.close();
});

test('an invitation code typed finds the invitation; a canceled one is explained', async () => {
  const invitee = await invite(kiosk, 'Eduardo Pires');
  const canceled = await invite(kiosk, 'Fabiana Dias');
  await kiosk.api('PATCH', `/v1/invitee/${canceled.id}`, { status: 'canceled' });
  const { page } = await openKiosk(browser, kiosk.service.url);
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  const field = page.getByLabel('Your name or invitation code');
  await field.fill(String(canceled.cardNumber));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('This invitation was canceled. Please ask at the reception.').waitFor();
  const tomorrow = await invite(kiosk, 'Fausto Lima', {
    expectedAt: new Date(Date.now() + 36 * 3600_000).toISOString(),
  });
  await field.fill(String(tomorrow.cardNumber));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('This invitation is for another day', { exact: false }).waitFor();
  await field.fill('999999999');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('We could not find your invitation.', { exact: false }).waitFor();
  await field.fill(String(invitee.cardNumber));
  await field.press('Enter');
  await page.getByRole('heading', { name: 'Is this you?' }).waitFor();
  await page.getByText('Eduardo P.', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Eduardo Pires!' }).waitFor();
  await page.close();
});

test('a visit the host must allow waits, and follows the decision live', async () => {
  await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
  const { page } = await openKiosk(browser, kiosk.service.url);
  await walkIn(page, 'Gustavo Neves');
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  // No notification channel is set up: the host was not asked, the reception confirms.
  await page.getByText('The reception will confirm your visit.').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'waiting-for-host');
  const waiting = await kiosk.api('GET', '/v1/visits?queryKey=authorizationStatus&queryOp===&queryValue=waiting');
  const visit = waiting.body.visits.find((v: { name: string }) => v.name === 'Gustavo Neves');
  await kiosk.api('PATCH', `/v1/visit/allow/${visit.id}`, {});
  await page.getByRole('heading', { name: 'You are checked in, Gustavo Neves!' }).waitFor({ timeout: 5000 });
  await page.getByRole('button', { name: 'Done' }).click();

  await walkIn(page, 'Helena Prado');
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  const again = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Helena%20Prado');
  await kiosk.api('PATCH', `/v1/visit/deny/${again.body.visits[0].id}`, {});
  await page.getByRole('heading', { name: 'Thank you, Helena Prado', exact: true }).waitFor({
    timeout: 5000,
  });
  await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: false });
  await page.close();
});

test('a blocklisted visitor is stopped right after saying who they are, before picture and signature', async () => {
  await kiosk.api('POST', '/v1/blockedlist', { name: 'Igor Blocked', cpf: '529.982.247-25', reason: 'test' });
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { cpf: 'optional' },
    pictureMode: 'required',
    ndaText: 'Keep it secret.',
  });
  const { page } = await openKiosk(browser, kiosk.service.url);
  const paths: string[] = [];
  page.on('request', (request) => paths.push(`${request.method()} ${new URL(request.url()).pathname}`));
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill('Igor Blocked');
  await page.getByLabel('CPF').fill('529.982.247-25');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Thank you', exact: true }).waitFor();
  await page.getByText('someone from the reception will be with you shortly', { exact: false }).waitFor();
  const text = (await page.textContent('body')) ?? '';
  assert.doesNotMatch(text, /block|denied|refused/i);
  assert.ok(!paths.includes('POST /v1/kiosk/walkin'), 'stopped before the check-in, the picture and the signature');
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'blocked');
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Igor%20Blocked');
  assert.deepEqual(
    [body.size, body.visits[0].visitorStatus, body.visits[0].isInsideCompany],
    [1, 'BLOCKED', false],
    'the attempt is recorded for the front desk',
  );
  // Anyone else goes on to the next step.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill('Iris Free');
  await page.getByLabel('CPF').fill('111.444.777-35');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Who are you visiting?' }).waitFor();
  await kiosk.api('PATCH', '/v1/kiosk/settings', { visitorFields: { cpf: 'off' }, pictureMode: 'off', ndaText: '' });
  await page.close();
});

test("with the access integration on, the confirmation shows the visitor's gate code", async () => {
  await kiosk.api('POST', '/v1/integration/access', {
    enabled: true,
    aesKey: 'a passphrase for the gate',
    staticVisitorQRCode: true,
  });
  const { page } = await openKiosk(browser, kiosk.service.url);
  await walkIn(page, 'Lara Gomes');
  const gate = page.getByRole('region', { name: 'Your code for the gate' });
  await gate.getByRole('img', { name: 'Your code for the gate' }).waitFor();
  await screenshot(page, 'confirmed-with-gate-code');
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Lara%20Gomes');
  const code = await kiosk.api('GET', `/v1/visit/${body.visits[0].id}/qrcode`);
  // The picture shown is the QR code of the service's payload (a static code: the same every time).
  const svg = await QRCode.toString(code.body.payload, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const src = await gate.getByRole('img').getAttribute('src');
  assert.equal(decodeURIComponent(src?.replace(/^data:image\/svg\+xml;charset=utf-8,/, '') ?? ''), svg);
  await kiosk.api('DELETE', '/v1/integration/access');
  await page.close();
});

test('check-out by name ends the visit', async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await walkIn(page, 'Joana Serra');
  await page.getByRole('heading', { name: 'You are checked in, Joana Serra!' }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: /I'm leaving/ }).click();
  await page.getByLabel('Your name').fill('Joana Sera');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Check out Joana S.?' }).waitFor();
  await page.getByRole('button', { name: 'Yes, check me out' }).click();
  await page.getByRole('heading', { name: 'Goodbye, Joana!' }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'goodbye');
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Joana%20Serra');
  assert.equal(body.visits[0].isInsideCompany, false);
  assert.equal(body.visits[0].checkoutType, 'IPAD');
  await page.getByRole('button', { name: 'Done' }).click();
  await home(page);
  assert.deepEqual(problems, []);
  await page.close();
});

test('an idle kiosk warns, then returns to the start and forgets what was typed', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.clock.install();
  await page.goto(`${kiosk.service.url}/`);
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await page.getByRole('button', { name: /Ich bin zu Besuch/ }).click();
  await page.getByLabel('Vollständiger Name').fill('Someone Private');
  await page.clock.runFor(52_000);
  await page.getByRole('alertdialog', { name: 'Sind Sie noch da?' }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'idle-warning');
  await page.clock.runFor(9_000);
  await page.getByRole('heading', { name: 'Welcome' }).waitFor();
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  assert.equal(await page.getByLabel('Full name').inputValue(), '', 'the next visitor starts afresh, in English');
  await context.close();
});

test('a kiosk cut off from its hub says it works offline, with what waits to be sent', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // The sync service's answer (issue 5) for a kiosk whose hub cannot be reached.
  await page.route('**/v1/sync/status', (route) =>
    route.fulfill({
      json: {
        role: 'kiosk',
        state: 'offline',
        upstream: 'https://hub.example',
        pending: 3,
        lastSuccessAt: null,
        lastError: 'ECONNREFUSED',
      },
    }),
  );
  await page.goto(`${kiosk.service.url}/`);
  await page.getByRole('status').filter({ hasText: 'Working offline' }).waitFor();
  await page.getByText('3 waiting to be sent.').waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'hub-offline');
  await context.close();
});

test('when the service stops, the kiosk says so in words', async () => {
  const { page } = await openKiosk(browser, kiosk.service.url);
  await home(page);
  await kiosk.service.stop();
  await page.getByRole('button', { name: /I'm leaving/ }).click();
  await page.getByLabel('Your name').fill('Joana Serra');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').filter({ hasText: 'This kiosk cannot reach its service.' }).waitFor();
  await page.getByText('The kiosk cannot reach its service right now.', { exact: false }).waitFor();
  await screenshot(page, 'service-down');
  await page.getByRole('button', { name: 'Back to start' }).click();
  await home(page);
  await page.close();
});
