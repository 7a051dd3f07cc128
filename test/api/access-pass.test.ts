import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startTwilio, type TwilioStandIn } from '../helpers/channels.ts';
import { type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { openPass as openPage, passLinkTo } from '../helpers/pass.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { smtpSettingsOf, startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/*
 * The walk-in's gate pass (docs/access-control.md, "The pass page"): the link arrives by e-mail at a real SMTP
 * server, the page's QR code is decoded and judged by the reference gate running as its own process.
 */

const aesKey = '5c1f0a2b3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8';
/** The address people outside reach the service at; a proxy would forward it to `service.url`. */
const publicUrl = 'https://visitors.acme.test';
const serveArgs = [...allowLoopback, '--public-url', publicUrl];

let service: TestService;
let smtp: TestSmtp;
let gate: GateProcess;
let totpGate: GateProcess;
let admin: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;
let hostId: string;
/** A stand-in of Twilio's Messages resource, which checks each request against Twilio's format. */
let twilio: TwilioStandIn;

before(async () => {
  [smtp, twilio, gate, totpGate, service] = await Promise.all([
    startSmtp(),
    startTwilio(),
    startGateProcess({ aesKey }),
    startGateProcess({ aesKey, totp: true }),
    startService({ args: serveArgs }),
  ]);
  admin = client(service.url, (await service.company('Acme', 'UTC')).apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
  hostId = (await admin('POST', '/v1/hosts', { name: 'Ana Souza', email: 'ana@acme.test', isActive: true })).body.id;
  const mail = await admin('POST', '/v1/integration/notifications', smtpSettingsOf(smtp));
  assert.equal(mail.status, 200, JSON.stringify(mail.body));
  await configure({ enabled: true, aesKey, qrcodeDuration: 30, totpEnabled: false, staticVisitorQRCode: false });
});
after(() => Promise.all([service.stop(), smtp.close(), gate.stop(), totpGate.stop(), twilio.close()]));

async function configure(body: Record<string, unknown>) {
  const saved = await admin('POST', '/v1/integration/access', body);
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

/** A walk-in at the kiosk's screen; answers the visit as the screen gets it. */
async function walkIn(visitor: Record<string, unknown>) {
  const checkin = await kiosk('POST', '/v1/kiosk/walkin', { visit: { id: randomUUID(), hostId }, visitor });
  assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
  return checkin.body as { id: string; cardNumber: string; receipt: string; gateCodeSent: boolean };
}

const passLink = (address: string) => passLinkTo(smtp, address, publicUrl);
const openPass = (link: string, lang?: string) => openPage(service.url, new URL(link).pathname, lang);

test('a walk-in who gave an e-mail is sent a link to a page whose code the gate accepts', async () => {
  const visit = await walkIn({ name: 'Rui Alves', email: 'rui@visitor.test', company: 'Globex' });
  const { link, mail } = await passLink('rui@visitor.test');
  assert.equal(mail.subject, 'Your gate pass at Acme');
  assert.match(mail.text ?? '', /^Hello Rui Alves,/);
  assert.ok(link.startsWith(`${publicUrl}/p/pass/`), 'the link points at the public address');
  // The HTML part: a button to the same page.
  assert.match(String(mail.html), new RegExp(`<a[^>]+href="${link}"[^>]*>.*Open your gate pass`, 's'));

  const page = await openPass(link);
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('cache-control'), 'no-store', 'a code is a credential');
  assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  // The page renews itself with the script file the CSP allows (no inline script), or reloads without scripts.
  assert.deepEqual(page.html.match(/<script[^>]*>/g), ['<script src="/p/assets/live.js" defer>']);
  const script = await fetch(`${service.url}/p/assets/live.js`);
  assert.match(script.headers.get('content-type') ?? '', /javascript/);
  assert.match(await script.text(), /dataset\.refresh/);
  assert.match(page.html, /<h1>Your gate pass<\/h1>/);
  assert.match(page.html, /For Rui A\./);
  assert.ok(page.code, 'the QR picture decodes');
  const verdict = await gate.verify(page.code);
  assert.deepEqual(
    [verdict.valid, verdict.cardNumber, verdict.subject, verdict.mode],
    [true, Number(visit.cardNumber), 'visitor', 'aes'],
    JSON.stringify(verdict),
  );
  assert.equal(page.text, undefined, 'an AES code is not printed as text');
  assert.ok(page.refreshSeconds && page.refreshSeconds >= 29 && page.refreshSeconds <= 30, `${page.refreshSeconds}`);
  assert.equal((await totpGate.verify(page.code)).reason, 'WRONG_MODE');
});

test('a TOTP pass renews itself: the page reloads as its code expires, and the new code is accepted', async () => {
  await configure({ totpEnabled: true, qrcodeDuration: 5 });
  try {
    const visit = await walkIn({ name: 'Lia Costa', email: 'lia@visitor.test' });
    const { link } = await passLink('lia@visitor.test');
    let first = await openPass(link);
    // A code read in the last second of its step could expire before the gate judges it: read the next one.
    if (first.refreshSeconds === 1) {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      first = await openPass(link);
    }
    assert.match(first.code ?? '', new RegExp(`^T1\\.V\\.${visit.cardNumber}\\.5\\.\\d{8}$`));
    assert.equal(first.text, first.code, 'a TOTP code is shown as text too');
    assert.deepEqual(
      [(await totpGate.verify(first.code ?? '')).valid, (await gate.verify(first.code ?? '')).reason],
      [true, 'WRONG_MODE'],
    );
    assert.ok(first.refreshSeconds && first.refreshSeconds >= 1 && first.refreshSeconds <= 5);
    // What the browser does at the meta refresh: load the page again once its code has expired.
    await new Promise((resolve) => setTimeout(resolve, (first.refreshSeconds ?? 0) * 1000 + 100));
    const renewed = await openPass(link);
    assert.notEqual(renewed.code, first.code);
    assert.equal((await totpGate.verify(renewed.code ?? '')).valid, true);
    assert.equal((await totpGate.verify(first.code ?? '')).reason, 'EXPIRED');
    for (const [lang, title] of [
      ['pt-BR', 'Seu passe de acesso'],
      ['de', 'Ihr Zutrittsausweis'],
      ['zh-Hans', '您的门禁通行证'],
    ] as const) {
      const translated = await openPass(link, lang);
      assert.match(translated.html, new RegExp(`<html lang="${lang}">.*<h1>${title}</h1>`, 's'));
    }
  } finally {
    await configure({ totpEnabled: false, qrcodeDuration: 30 });
  }
});

test('a static pass works until the check-out; then the page says the pass has ended', async () => {
  await configure({ staticVisitorQRCode: true });
  try {
    const visit = await walkIn({ name: 'Otto Braun', email: 'otto@visitor.test' });
    const { link } = await passLink('otto@visitor.test');
    const page = await openPass(link);
    assert.match(page.code ?? '', /^A1\./);
    assert.deepEqual((await gate.verify(page.code ?? '')).cardNumber, Number(visit.cardNumber));
    assert.equal((await gate.verify(page.code ?? '')).valid, true);
    assert.equal((await totpGate.verify(page.code ?? '')).valid, true, 'a static code passes in both modes');
    assert.equal(page.refreshSeconds, 60, 'looked at again, to notice the check-out');
    assert.match(page.html, /It works until you check out\./);

    const out = await admin('PATCH', `/v1/visit/checkout/${visit.id}`, {});
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const ended = await openPass(link);
    assert.equal(ended.status, 410);
    assert.match(ended.html, /This pass has ended\./);
    assert.deepEqual([ended.code, ended.refreshSeconds], [undefined, undefined]);
  } finally {
    await configure({ staticVisitorQRCode: false });
  }
});

test('a visit waiting for its host shows no code until it is allowed', async () => {
  await admin('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
  try {
    const visit = await walkIn({ name: 'Eva Lima', email: 'eva@visitor.test' });
    const { link } = await passLink('eva@visitor.test');
    const waiting = await openPass(link);
    assert.equal(waiting.status, 200);
    assert.match(waiting.html, /once your visit is confirmed/);
    assert.deepEqual([waiting.code, waiting.refreshSeconds], [undefined, 10]);
    assert.equal((await admin('PATCH', `/v1/visit/allow/${visit.id}`, {})).status, 200);
    const allowed = await openPass(link);
    assert.equal((await gate.verify(allowed.code ?? '')).valid, true);
  } finally {
    await admin('PATCH', '/v1/kiosk/settings', { requireAuthorization: false });
  }
});

test('a visitor held at the door is sent the pass only when the desk lets them in', async () => {
  const entry = await admin('POST', '/v1/blockedlist', {
    name: 'Hana Held',
    cpf: '529.982.247-25',
    reason: 'a name the desk must check',
  });
  assert.equal(entry.status, 200, JSON.stringify(entry.body));
  const visit = await walkIn({ name: 'Hana Held', email: 'hana@visitor.test' });
  assert.equal((await admin('GET', `/v1/visit/${visit.id}`)).body.heldAtDoor, true);
  // Another walk-in's message arrives: one for the held visitor, queued before it, would have too.
  await walkIn({ name: 'Ines Next', email: 'ines@visitor.test' });
  await passLink('ines@visitor.test');
  assert.equal(
    smtp.mails.some((mail) => mail.to.includes('hana@visitor.test')),
    false,
    'nothing while held',
  );
  assert.equal((await admin('PATCH', `/v1/visit/allow/${visit.id}`, {})).status, 200);
  const { link } = await passLink('hana@visitor.test');
  assert.equal((await gate.verify((await openPass(link)).code ?? '')).valid, true);
});

test('no message without an e-mail, with access control off, or for a check-in made through the API', async () => {
  // The kiosk prints the gate code on the badge of the visitor it could not send it to.
  assert.equal((await walkIn({ name: 'Nora Sem Email' })).gateCodeSent, false);
  await configure({ enabled: false });
  await walkIn({ name: 'Ivo Off', email: 'ivo@visitor.test' });
  await configure({ enabled: true });
  const api = await admin('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId },
    visitor: { name: 'Api Client', email: 'api@visitor.test' },
  });
  assert.equal(api.status, 200, JSON.stringify(api.body));
  // A later walk-in's message arrives: the earlier ones, queued before it, would have too.
  assert.equal((await walkIn({ name: 'Last One', email: 'last@visitor.test' })).gateCodeSent, true);
  await passLink('last@visitor.test');
  const recipients = smtp.mails.flatMap((mail) => mail.to);
  for (const address of ['ivo@visitor.test', 'api@visitor.test']) assert.equal(recipients.includes(address), false);
});

test('a walk-in who gave a phone is sent the link by SMS too, to the number in E.164', async () => {
  const sms = {
    twilioAccountSid: twilio.accountSid,
    twilioAuthToken: twilio.authToken,
    twilioFrom: '+15005550006',
    twilioBaseUrl: twilio.url,
  };
  assert.equal((await admin('POST', '/v1/integration/notifications', sms)).status, 200);
  assert.equal((await admin('PATCH', '/v1/company', { countryCode: '+55' })).status, 200);
  const form = (request: { body: unknown }) => request.body as Record<string, string>;
  try {
    const visit = await walkIn({ name: 'Sara Dias', email: 'sara@visitor.test', phone: '(11) 98765-4321' });
    const mailed = await passLink('sara@visitor.test');
    const [text] = (await twilio.waitFor(1)).map(form);
    assert.deepEqual(
      twilio.received.flatMap((request) => request.problems),
      [],
      "in Twilio's format",
    );
    assert.deepEqual([text?.To, text?.From], ['+5511987654321', '+15005550006']);
    assert.match(text?.Body ?? '', /^Acme: your gate pass/);
    const link = /https:\/\/visitors\.acme\.test\/p\/pass\/\S+/.exec(text?.Body ?? '')?.[0];
    assert.ok(link, text?.Body);
    // The same pass as the e-mail's: the gate takes the code either shows.
    for (const opened of [await openPass(link), await openPass(mailed.link)]) {
      const verdict = await gate.verify(opened.code ?? '');
      assert.deepEqual([verdict.valid, verdict.cardNumber], [true, Number(visit.cardNumber)]);
    }
    // Only a phone: the SMS alone.
    await walkIn({ name: 'Caio Fone', phone: '+55 21 99876-5432' });
    assert.equal(form((await twilio.waitFor(2))[1] ?? { body: {} }).To, '+5521998765432');
  } finally {
    await admin('POST', '/v1/integration/notifications', { twilioAccountSid: '', twilioFrom: '' });
  }
});

test("an invitee's invitation links to the pass: the gate takes its code, before and after the check-in", async () => {
  const created = await admin('POST', '/v1/invitees', {
    name: 'Gil Convidado',
    email: 'gil@guest.test',
    hostId,
    expectedAt: new Date().toISOString(),
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const { link } = await passLink('gil@guest.test');
  const before = await gate.verify((await openPass(link)).code ?? '');
  assert.deepEqual([before.valid, before.cardNumber], [true, created.body.cardNumber]);
  const checkin = await admin('POST', `/v1/visit/inviteeCheckin/${created.body.id}`, { checkinType: 'DASHBOARD' });
  assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
  const after = await gate.verify((await openPass(link)).code ?? '');
  assert.deepEqual([after.valid, after.cardNumber], [true, created.body.cardNumber], 'the visit keeps the card');
  // The invitation carried the pass: the check-in sends no second one (a later walk-in's message comes first).
  await walkIn({ name: 'Rosa Depois', email: 'rosa@visitor.test' });
  await passLink('rosa@visitor.test');
  assert.equal(smtp.mails.filter((mail) => mail.to.includes('gil@guest.test')).length, 1);
});

test("the kiosk learns whether a walk-in's code is sent to the phone: a public address, and e-mail or SMS", async () => {
  const passLinks = async () => (await kiosk('GET', '/v1/kiosk/company')).body.passLinks;
  assert.equal(await passLinks(), true);
  await admin('POST', '/v1/integration/notifications', { smtpHost: '' });
  try {
    assert.equal(await passLinks(), false, 'no channel: the badge carries the code');
  } finally {
    assert.equal((await admin('POST', '/v1/integration/notifications', smtpSettingsOf(smtp))).status, 200);
  }
});

test('a forged link, or one expired, is refused without saying which part was wrong', async () => {
  await walkIn({ name: 'Tom Link', email: 'tom@visitor.test' });
  const { link } = await passLink('tom@visitor.test');
  const [payload = '', signature = ''] = (new URL(link).pathname.split('/').pop() ?? '').split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const otherVisit = Buffer.from(JSON.stringify({ ...claims, s: randomUUID() })).toString('base64url');
  const longer = Buffer.from(JSON.stringify({ ...claims, e: Number(claims.e) + 86_400_000 })).toString('base64url');
  const asDecide = Buffer.from(JSON.stringify({ ...claims, p: 'decide' })).toString('base64url');
  for (const token of [`${otherVisit}.${signature}`, `${longer}.${signature}`, `${payload}.x${signature}`, 'nothing']) {
    const page = await openPass(`${publicUrl}/p/pass/${token}`);
    assert.equal(page.status, 404, token);
    assert.match(page.html, /This link cannot be used/);
    assert.equal(page.code, undefined);
  }
  const decide = await fetch(`${service.url}/p/decide/${asDecide}.${signature}`, {
    headers: { accept: 'application/json' },
  });
  assert.equal(decide.status, 404);
  const json = await fetch(`${service.url}/p/pass/${otherVisit}.${signature}`, {
    headers: { accept: 'application/json' },
  });
  assert.deepEqual([json.status, await json.json()], [404, { type: 'LINK_INVALID' }]);

  // A day and more later (the service's clock moved on): the link has expired.
  await service.stop();
  service = await startService({ dataDir: service.dataDir, args: serveArgs, clockOffsetMs: 25 * 3_600_000 });
  const expired = await openPass(link);
  assert.equal(expired.status, 403);
  assert.match(expired.html, /The link has expired/);
  assert.equal(expired.code, undefined);
});
