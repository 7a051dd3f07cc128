import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { inviteeCode, visitCode } from '../../renderer/src/codes.ts';
import {
  axeProblems,
  launchChromium,
  openKiosk,
  overflowing,
  qrVideo,
  screenshot,
  screenshotSizes,
} from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture, sign, startVisitorMeter } from '../helpers/kiosk.ts';
import { allowLoopback, tempDir } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let kiosk: KioskFixture;
let smtp: TestSmtp;
const videos = tempDir('portaria-returning-video-');
const nda = 'The visitor keeps confidential everything seen inside.';

before(async () => {
  smtp = await startSmtp();
  kiosk = await kioskFixture({ args: allowLoopback });
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'optional', company: 'optional', phone: 'off' },
    pictureMode: 'optional',
    ndaText: nda,
  });
  const saved = await kiosk.api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'reception@acme.test',
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
});
after(async () => {
  await kiosk?.service.stop();
  await smtp?.close();
});

/** An earlier kiosk walk-in of a person who answered "remember me" with `remember`. */
async function earlierVisit(name: string, remember: boolean) {
  const session = (await (await fetch(`${kiosk.service.url}/kiosk/session`)).json()) as { apiKey: string };
  const email = `${name.split(' ')[0]?.toLowerCase()}-${randomUUID().slice(0, 8)}@guest.test`;
  const response = await fetch(`${kiosk.service.url}/v1/kiosk/walkin`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      visit: { id: randomUUID(), hostId: kiosk.hosts.carlos.id, rememberVisitor: remember },
      visitor: { name, company: 'Initech', email },
    }),
  });
  const visit = (await response.json()) as { id: string };
  assert.equal(response.status, 200, JSON.stringify(visit));
  await kiosk.api('POST', `/v1/visit/${visit.id}/checkout`, {});
  return { id: visit.id, email };
}

/** The raw text of the first mail to `address`, waiting for it. */
async function mailTo(address: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.mails.find((m) => m.to.includes(address));
    if (mail) return mail.raw;
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await smtp.waitFor(smtp.mails.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

/** The bodies of the page's requests to `path`, read off the wire as they leave. */
function capture(page: Page, path: string) {
  const seen: { sent: Record<string, unknown>[] } = { sent: [] };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === path) {
      seen.sent.push(request.postDataJSON() as Record<string, unknown>);
    }
  });
  return seen;
}

/**
 * From "Welcome back" (filled in, checked by the caller) to the check-in: Next, the picture, the agreement. Answers
 * the taps before the picture (the picture's and the signature's own are not counted).
 */
async function finishReturning(page: Page, meter: () => Promise<{ taps: number }>, name: string) {
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('heading', { name: 'Your picture' }).waitFor();
  const { taps } = await meter();
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
  await page.getByRole('heading', { name: 'Agreement' }).waitFor();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: `You are checked in, ${name}!` }).waitFor();
  return taps;
}

/** "Welcome back", filled in with the visitor's own details and last host. */
async function welcomedBack(page: Page, name: string) {
  await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
  assert.equal(await page.getByLabel('Full name').inputValue(), name);
  assert.equal(await page.getByLabel('Company').inputValue(), 'Initech');
  await page.getByText('You are visiting Carlos Mendes.').waitFor();
  assert.equal(await page.getByRole('radio', { name: 'Yes, remember me' }).isChecked(), true);
}

test('a first walk-in is asked "remember me for next time?", a clear yes or no stored with the visitor', async () => {
  const browser = await launchChromium();
  try {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    const walkins = capture(page, '/v1/kiosk/walkin');
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Yes, remember me' }).isChecked(), false, 'no answer chosen');
    assert.equal(await page.getByRole('radio', { name: 'No, thank you' }).isChecked(), false);
    await page.getByLabel('Full name').fill('Rita Lobo');
    await page.getByLabel('E-mail').fill('rita@guest.test');
    await page.getByRole('radio', { name: 'Yes, remember me' }).check();
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'returning-consent');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('combobox').fill('bea');
    await page.getByRole('option', { name: /Beatriz Lima/ }).click();
    await page.getByRole('button', { name: 'Continue without a picture' }).click();
    await sign(page);
    await page.getByRole('button', { name: 'I agree and sign' }).click();
    await page.getByRole('heading', { name: 'You are checked in, Rita Lobo!' }).waitFor();
    const sent = walkins.sent[0] as { visit: { rememberVisitor?: boolean } };
    assert.equal(sent.visit.rememberVisitor, true);
    const visit = (await kiosk.api('GET', `/v1/visit/${(walkins.sent[0] as { visit: { id: string } }).visit.id}`)).body;
    const visitor = (await kiosk.api('GET', `/v1/visitor/${visit.visitorId}`)).body;
    assert.equal(visitor.rememberConsent, true);
    assert.match(visitor.rememberConsentAt, /^\d{4}-/);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('the returning screens speak four languages', async () => {
  const browser = await launchChromium();
  try {
    const { page } = await openKiosk(browser, kiosk.service.url);
    for (const [language, walkIn, beenHere, question, title, startOver] of [
      [
        'Português',
        'Vim fazer uma visita',
        'Já estive aqui antes',
        'Lembrar de mim na próxima vez?',
        'Já esteve aqui?',
        'Voltar ao início',
      ],
      [
        'Deutsch',
        'Ich bin zu Besuch',
        'Ich war schon einmal hier',
        'Sollen wir uns beim nächsten Mal an Sie erinnern?',
        'Schon einmal hier gewesen?',
        'Zum Anfang',
      ],
      ['简体中文', '我来访问', '我以前来过', '下次还记得我吗？', '以前来过吗？', '回到首页'],
      [
        'English',
        "I'm visiting",
        'I have been here before',
        'Remember me for next time?',
        'Been here before?',
        'Back to start',
      ],
    ] as const) {
      await page.getByRole('button', { name: language }).click();
      await page.getByRole('button', { name: new RegExp(walkIn) }).click();
      await page.getByText(question, { exact: true }).waitFor();
      await page.getByRole('button', { name: beenHere }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      assert.deepEqual(await axeProblems(page), []);
      await page.getByRole('button', { name: startOver }).click();
    }
  } finally {
    await browser.close();
  }
});

test("a returning visitor shows an earlier badge's QR code: filled in, checked in within 5 taps", async () => {
  const earlier = await earlierVisit('Walter White', true);
  const browser = await launchChromium({ video: qrVideo(visitCode(earlier.id), join(videos, 'badge.y4m')) });
  try {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    const walkins = capture(page, '/v1/kiosk/walkin');
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    const meter = await startVisitorMeter(page);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('button', { name: 'I have been here before' }).click();
    await welcomedBack(page, 'Walter White');
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'returning-welcome-back', async () => {
      assert.deepEqual(await overflowing(page, 'main *'), []);
    });
    const taps = await finishReturning(page, meter, 'Walter White');
    console.log(`returning visitor by badge: ${taps} taps besides the picture and the signature`);
    assert.ok(taps <= 5, `${taps} taps`);
    const body = walkins.sent[0] as { returning?: string; visit: { rememberVisitor?: boolean; hostId?: string } };
    assert.equal(typeof body.returning, 'string');
    assert.equal(body.visit.rememberVisitor, true);
    assert.equal(body.visit.hostId, kiosk.hosts.carlos.id);
    const visit = (await kiosk.api('GET', `/v1/visit/${(walkins.sent[0] as { visit: { id: string } }).visit.id}`)).body;
    assert.equal((await kiosk.api('GET', `/v1/visitor/${visit.visitorId}`)).body.visitCount, 2);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("a returning visitor shows an earlier invitation's QR code", async () => {
  const earlier = await earlierVisit('Irene Adler', true);
  const { body: invitee } = await kiosk.api('POST', '/v1/invitees', {
    name: 'Irene Adler',
    email: earlier.email,
    expectedAt: '2026-01-05T10:00:00Z',
    hostId: kiosk.hosts.beatriz.id,
  });
  const browser = await launchChromium({ video: qrVideo(inviteeCode(invitee.id), join(videos, 'invitation.y4m')) });
  try {
    const { page } = await openKiosk(browser, kiosk.service.url);
    const meter = await startVisitorMeter(page);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('button', { name: 'I have been here before' }).click();
    await welcomedBack(page, 'Irene Adler');
    const taps = await finishReturning(page, meter, 'Irene Adler');
    assert.ok(taps <= 5, `${taps} taps`);
  } finally {
    await browser.close();
  }
});

test('a returning visitor proves their e-mail with a code; nothing about them is shown before', async () => {
  const earlier = await earlierVisit('Olga Tokarczuk', true);
  const browser = await launchChromium();
  try {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    const meter = await startVisitorMeter(page);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('button', { name: 'I have been here before' }).click();
    await page.getByRole('heading', { name: 'Been here before?' }).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshotSizes(page, 'returning-prove', async () => {
      assert.deepEqual(await overflowing(page, 'main *'), []);
    });
    await page.getByLabel('Your e-mail').click();
    await page.keyboard.type(earlier.email);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/kiosk/returning/code');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('If we know this address, a code is on its way.').waitFor();
    // Before the proof the screen and the service's answer hold nothing of the person.
    const answer = (await (await answered).json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(answer).sort(), ['challenge', 'channel', 'expiresInSeconds']);
    assert.equal(await page.getByText('Olga').count(), 0);
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'returning-code');
    const parsed = await simpleParser(await mailTo(earlier.email));
    const code = /\b(\d{6})\b/.exec(parsed.text ?? '')?.[1] ?? '';
    assert.match(code, /^\d{6}$/);
    assert.match(parsed.subject ?? '', /Acme/);
    // The code field has the focus: typing the 6th digit checks it.
    await page.keyboard.type(code);
    await welcomedBack(page, 'Olga Tokarczuk');
    const taps = await finishReturning(page, meter, 'Olga Tokarczuk');
    console.log(`returning visitor by e-mail and code: ${taps} taps besides the picture and the signature`);
    assert.ok(taps <= 5, `${taps} taps`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a visitor who said no is not found by their badge, and a wrong code is told', async () => {
  const declined = await earlierVisit('Nadia Nein', false);
  const browser = await launchChromium({ video: qrVideo(visitCode(declined.id), join(videos, 'declined.y4m')) });
  try {
    const { page } = await openKiosk(browser, kiosk.service.url);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('button', { name: 'I have been here before' }).click();
    await page.getByText('We could not find you with this code. Please fill in your details.').waitFor();
    assert.equal(await page.getByText('Nadia').count(), 0);
    await page.getByLabel('Your e-mail').fill(declined.email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByText('If we know this address, a code is on its way.').waitFor();
    await page.getByLabel('The 6-digit code').fill('000000');
    await page.getByText(/That code is not right\. 4 tries left\./).waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await page.getByRole('button', { name: 'Fill in my details' }).click();
    await page.getByRole('heading', { name: 'About you' }).waitFor();
    assert.equal(await page.getByLabel('Full name').inputValue(), '');
  } finally {
    await browser.close();
  }
});

test('five wrong codes end the code, and an erased visitor is no longer found by their badge', async () => {
  const earlier = await earlierVisit('Ernesto Sabato', true);
  const erased = await kiosk.api('POST', '/v1/privacy/erasure', { email: earlier.email });
  assert.equal(erased.status, 200, JSON.stringify(erased.body));
  const browser = await launchChromium({ video: qrVideo(visitCode(earlier.id), join(videos, 'erased.y4m')) });
  try {
    const { page } = await openKiosk(browser, kiosk.service.url);
    await page.getByRole('button', { name: /I'm visiting/ }).click();
    await page.getByRole('button', { name: 'I have been here before' }).click();
    await page.getByText('We could not find you with this code. Please fill in your details.').waitFor();
    assert.equal(await page.getByText('Ernesto').count(), 0);
    const stranger = `stranger-${randomUUID()}@guest.test`;
    await page.getByLabel('Your e-mail').fill(stranger);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    for (const left of [4, 3, 2, 1]) {
      await page.getByLabel('The 6-digit code').fill('123456');
      await page.getByText(`That code is not right. ${left} tries left.`).waitFor();
    }
    await page.getByLabel('The 6-digit code').fill('123456');
    await page.getByText('That code no longer works. Please ask for a new one.').waitFor();
    // The code is over: the screen asks for the address again.
    await page.getByLabel('Your e-mail').waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'returning-code-ended');
  } finally {
    await browser.close();
  }
});
