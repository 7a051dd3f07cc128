import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { wrongCodeLimits } from '../../local-api/returning/routes.ts';
import { codeRules } from '../../local-api/returning/schema.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let service: TestService;
let smtp: TestSmtp;
let admin: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;
let hostId: string;
/** A Twilio-compatible Messages API on loopback: the form fields of each message it accepted. */
let smsApi: Server;
const texts: { to: string; from: string; body: string; authorization: string }[] = [];
const twilio = { sid: 'AC0123456789abcdef0123456789abcdef', token: `token-${randomUUID()}`, from: '+15005550006' };

before(async () => {
  smtp = await startSmtp();
  smsApi = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${twilio.sid}/Messages.json`) {
        res.writeHead(404).end();
        return;
      }
      const form = new URLSearchParams(body);
      texts.push({
        to: form.get('To') ?? '',
        from: form.get('From') ?? '',
        body: form.get('Body') ?? '',
        authorization: req.headers.authorization ?? '',
      });
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => smsApi.listen(0, '127.0.0.1', resolve));
  service = await startService({ args: allowLoopback });
  const company = await service.company('Acme', 'UTC');
  admin = client(service.url, company.apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
  const saved = await admin('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'reception@acme.test',
    twilioAccountSid: twilio.sid,
    twilioAuthToken: twilio.token,
    twilioFrom: twilio.from,
    twilioBaseUrl: `http://127.0.0.1:${(smsApi.address() as AddressInfo).port}`,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  hostId = (await admin('POST', '/v1/hosts', { name: 'Beatriz Lima', email: 'beatriz@acme.test', isActive: true })).body
    .id;
});
after(async () => {
  await service.stop();
  await smtp.close();
  smsApi.close();
});

/** A kiosk walk-in of a person with a fresh e-mail, who answers "remember me" with `remember`. */
async function walkIn(remember: boolean | undefined, visitor: Record<string, unknown> = {}, extra = {}) {
  const email = `visitor-${randomUUID()}@guest.test`;
  const { status, body } = await kiosk('POST', '/v1/kiosk/walkin', {
    visit: { id: randomUUID(), hostId, ...(remember === undefined ? {} : { rememberVisitor: remember }) },
    visitor: { name: 'Walter White', company: 'Initech', email, ...visitor },
    ...extra,
  });
  assert.equal(status, 200, JSON.stringify(body));
  const visit = (await admin('GET', `/v1/visit/${body.id}`)).body;
  return { visitId: body.id as string, email, visitorId: visit.visitorId as string, visit };
}

/** The code in the last mail to `address`, waiting for it. */
async function codeSentTo(address: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = smtp.mails.findLast((m) => m.to.includes(address));
    const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code sent to ${address}`);
    await smtp.waitFor(smtp.mails.length + 1, deadline - Date.now()).catch(() => undefined);
  }
}

/** Lets the queue run the jobs queued so far: every kiosk request above has its message sent or dropped by then. */
const queueRuns = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('consent to be remembered', () => {
  test('a check-in stores the answer on the visit and, with its time, on the visitor record', async () => {
    const yes = await walkIn(true);
    assert.equal(yes.visit.rememberVisitor, true);
    const record = (await admin('GET', `/v1/visitor/${yes.visitorId}`)).body;
    assert.equal(record.rememberConsent, true);
    assert.match(record.rememberConsentAt, /^\d{4}-\d\d-\d\dT/);
    assert.equal(record.lastHostId, hostId);
    assert.equal('phoneKey' in record || 'phoneTail' in record, false);
    const no = await walkIn(false);
    assert.equal((await admin('GET', `/v1/visitor/${no.visitorId}`)).body.rememberConsent, false);
    const unasked = await walkIn(undefined);
    assert.equal(unasked.visit.rememberVisitor, null);
    assert.equal((await admin('GET', `/v1/visitor/${unasked.visitorId}`)).body.rememberConsent, null);
  });
});

describe('POST /v1/kiosk/returning/find', () => {
  test("an earlier badge's QR code finds a visitor who consented: name, company and last host, nothing else", async () => {
    const earlier = await walkIn(true);
    const { status, body } = await kiosk('POST', '/v1/kiosk/returning/find', {
      code: `portaria:visit:${earlier.visitId}`,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(Object.keys(body).sort(), ['company', 'host', 'name', 'ticket']);
    assert.equal(body.name, 'Walter White');
    assert.equal(body.company, 'Initech');
    assert.deepEqual(body.host, { id: hostId, name: 'Beatriz Lima', sector: null });
  });

  test("an invitation's QR code finds the visitor its e-mail names", async () => {
    const earlier = await walkIn(true, { name: 'Irene Adler' });
    const invitee = await admin('POST', '/v1/invitees', {
      name: 'Irene Adler',
      email: earlier.email,
      expectedAt: new Date().toISOString(),
      hostId,
    });
    const { status, body } = await kiosk('POST', '/v1/kiosk/returning/find', {
      code: `portaria:invitee:${invitee.body.id}`,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.name, 'Irene Adler');
  });

  test('a visitor who said no, or was never asked, is not found; nor is an unknown code', async () => {
    for (const remember of [false, undefined]) {
      const earlier = await walkIn(remember);
      const { status, body } = await kiosk('POST', '/v1/kiosk/returning/find', {
        code: `portaria:visit:${earlier.visitId}`,
      });
      assert.deepEqual({ status, body }, { status: 404, body: { type: 'NOT_FOUND' } });
    }
    const unknown = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${randomUUID()}` });
    assert.deepEqual(unknown.body, { type: 'NOT_FOUND' });
  });

  test('saying no at a later check-in takes the visitor out of the lookups', async () => {
    const earlier = await walkIn(true);
    const found = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${earlier.visitId}` });
    const later = await kiosk('POST', '/v1/kiosk/walkin', {
      visit: { id: randomUUID(), hostId, rememberVisitor: false },
      visitor: { name: 'Walter White', company: 'Initech' },
      returning: found.body.ticket,
    });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    const record = (await admin('GET', `/v1/visitor/${earlier.visitorId}`)).body;
    assert.equal(record.visitCount, 2, 'the ticket checks the same visitor in');
    const visit = (await admin('GET', `/v1/visit/${later.body.id}`)).body;
    assert.equal(visit.email, earlier.email, "the visit carries the record's identifiers the screen never held");
    assert.equal(record.rememberConsent, false);
    const again = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${earlier.visitId}` });
    assert.equal(again.status, 404);
  });
});

test("the blocklist screens a returning visitor by the record's identifiers", async () => {
  const earlier = await walkIn(true, { name: 'Mallory Evil' });
  const found = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${earlier.visitId}` });
  const entry = await admin('POST', '/v1/blockedlist', { name: 'Someone Else', email: earlier.email, reason: 'Theft' });
  assert.equal(entry.status, 200, JSON.stringify(entry.body));
  const later = await kiosk('POST', '/v1/kiosk/walkin', {
    visit: { id: randomUUID(), hostId, rememberVisitor: true },
    visitor: { name: 'Mallory Evil' },
    returning: found.body.ticket,
  });
  assert.equal(later.status, 200, JSON.stringify(later.body));
  assert.deepEqual([later.body.visitorStatus, later.body.isInsideCompany], ['BLOCKED', false]);
  assert.equal(Object.hasOwn(later.body, 'email'), false, 'the screen is not told the e-mail');
});

describe('a one-time code sent to an e-mail', () => {
  test('proves the address: the answer before the proof is the same for anyone and carries no personal data', async () => {
    const earlier = await walkIn(true, { name: 'Olga Tokarczuk', company: 'Wydawnictwo' });
    const stranger = `nobody-${randomUUID()}@guest.test`;
    const known = await kiosk('POST', '/v1/kiosk/returning/code', { address: earlier.email.toUpperCase() });
    const unknown = await kiosk('POST', '/v1/kiosk/returning/code', { address: stranger });
    for (const answer of [known, unknown]) {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(Object.keys(answer.body).sort(), ['challenge', 'channel', 'expiresInSeconds']);
      assert.equal(answer.body.channel, 'email');
      assert.equal(answer.body.expiresInSeconds, codeRules.lifetimeMs / 1000);
      assert.match(answer.body.challenge, /^[0-9a-f]{32}$/);
    }
    const code = await codeSentTo(earlier.email);
    const mail = smtp.mails.findLast((m) => m.to.includes(earlier.email));
    assert.match(mail?.subject ?? '', /Acme/);
    await queueRuns();
    assert.equal(
      smtp.mails.some((m) => m.to.includes(stranger)),
      false,
      'no mail to an address nobody has',
    );
    const verified = await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: known.body.challenge, code });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.equal(verified.body.name, 'Olga Tokarczuk');
    assert.equal(verified.body.company, 'Wydawnictwo');
    assert.equal(verified.body.host.id, hostId);
    const reused = await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: known.body.challenge, code });
    assert.deepEqual(reused.body, { type: 'CODE_EXPIRED' }, 'a code is used once');
    const guessed = await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: unknown.body.challenge, code });
    assert.equal(guessed.body.type, 'WRONG_CODE');
  });

  test(`${codeRules.maxAttempts} wrong codes end the challenge: the right one no longer opens it`, async () => {
    const earlier = await walkIn(true);
    const { body } = await kiosk('POST', '/v1/kiosk/returning/code', { address: earlier.email });
    const code = await codeSentTo(earlier.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers = [];
    for (let i = 0; i < codeRules.maxAttempts; i++) {
      answers.push(
        (await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: body.challenge, code: wrong })).body,
      );
    }
    assert.deepEqual(answers.slice(0, -1), [
      { type: 'WRONG_CODE', attemptsLeft: 4 },
      { type: 'WRONG_CODE', attemptsLeft: 3 },
      { type: 'WRONG_CODE', attemptsLeft: 2 },
      { type: 'WRONG_CODE', attemptsLeft: 1 },
    ]);
    assert.deepEqual(answers.at(-1), { type: 'CODE_EXPIRED' });
    const right = await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: body.challenge, code });
    assert.equal(right.status, 403);
    assert.deepEqual(right.body, { type: 'CODE_EXPIRED' });
  });

  test(`${wrongCodeLimits.maxFailures} wrong codes at one kiosk pause its code checks, whatever the challenges`, async () => {
    // A kiosk of its own, so that the pause does not reach the other tests' kiosk.
    const issued = await admin('POST', '/v1/credentials', { role: 'kiosk', label: 'second kiosk' });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const other = client(service.url, issued.body.key);
    const statuses: number[] = [];
    for (let i = 0; i <= wrongCodeLimits.maxFailures; i++) {
      const { body } = await other('POST', '/v1/kiosk/returning/code', { address: `guess-${i}@guest.test` });
      statuses.push(
        (await other('POST', '/v1/kiosk/returning/verify', { challenge: body.challenge, code: '000000' })).status,
      );
    }
    assert.deepEqual(statuses, [...Array(wrongCodeLimits.maxFailures).fill(403), 429]);
    const paused = await other('POST', '/v1/kiosk/returning/verify', { challenge: 'x', code: '000000' });
    assert.equal(paused.body.type, 'TOO_MANY_REQUESTS');
    assert.ok(paused.body.retryAfter > 0);
  });

  test('a visitor who said no is sent nothing; a bad address is INVALID_PARAMETER', async () => {
    const declined = await walkIn(false);
    const answer = await kiosk('POST', '/v1/kiosk/returning/code', { address: declined.email });
    assert.equal(answer.status, 200);
    await queueRuns();
    assert.equal(
      smtp.mails.some((m) => m.to.includes(declined.email)),
      false,
    );
    const bad = await kiosk('POST', '/v1/kiosk/returning/code', { address: 'not an address' });
    assert.deepEqual({ status: bad.status, type: bad.body.type }, { status: 400, type: 'INVALID_PARAMETER' });
  });

  test('the same address is sent at most 3 codes in 10 minutes, known or not', async () => {
    const address = `flood-${randomUUID()}@guest.test`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await kiosk('POST', '/v1/kiosk/returning/code', { address })).status);
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });

  test('the kiosk says which ways a code can be sent', async () => {
    const { body } = await kiosk('GET', '/v1/kiosk/company');
    assert.deepEqual(body.returningCodeChannels, ['email', 'sms']);
  });
});

describe('a one-time code sent by SMS', () => {
  /** The code in the last text to `to`, waiting for it. */
  async function codeTextedTo(to: string): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const text = texts.findLast((t) => t.to === to);
      const code = text && /\b(\d{6})\b/.exec(text.body)?.[1];
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`no code texted to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test("proves the phone, however it is typed, texting the number the visitor's record keeps", async () => {
    for (const [kept, typed, to] of [
      ['+55 11 98765-4321', '(11) 98765-4321', '+5511987654321'],
      ['21 99876-5432', '+55 21 99876 5432', '+5521998765432'],
    ] as const) {
      const earlier = await walkIn(true, { name: 'Paulo Freire', phone: kept });
      const { status, body } = await kiosk('POST', '/v1/kiosk/returning/code', { address: typed, lang: 'pt-BR' });
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.channel, 'sms');
      const code = await codeTextedTo(to);
      const text = texts.findLast((t) => t.to === to);
      assert.equal(text?.from, twilio.from);
      assert.equal(text?.authorization, `Basic ${Buffer.from(`${twilio.sid}:${twilio.token}`).toString('base64')}`);
      assert.match(text?.body ?? '', /Seu código para fazer o check-in na Acme/);
      const verified = await kiosk('POST', '/v1/kiosk/returning/verify', { challenge: body.challenge, code });
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.name, 'Paulo Freire');
      assert.equal(
        (await admin('GET', `/v1/visitor/${earlier.visitorId}`)).body.phone,
        kept,
        'the record keeps the number as given',
      );
    }
  });

  test('a phone of a visitor who said no is texted nothing', async () => {
    await walkIn(false, { phone: '+55 31 98888-7777' });
    const sent = texts.length;
    const { status } = await kiosk('POST', '/v1/kiosk/returning/code', { address: '+55 31 98888-7777' });
    assert.equal(status, 200);
    await queueRuns();
    assert.equal(texts.length, sent);
  });
});

describe('privacy', () => {
  test('an erasure takes out the consent and the lookups by badge and by code', async () => {
    const earlier = await walkIn(true, { phone: '+55 11 98765-4321' });
    const erased = await admin('POST', '/v1/privacy/erasure', { email: earlier.email });
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    assert.ok(erased.body.visitors >= 1);
    const found = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${earlier.visitId}` });
    assert.equal(found.status, 404);
    await kiosk('POST', '/v1/kiosk/returning/code', { address: earlier.email });
    await queueRuns();
    assert.equal(
      smtp.mails.some((m) => m.to.includes(earlier.email)),
      false,
    );
    assert.equal((await admin('GET', `/v1/visitor/${earlier.visitorId}`)).status, 404, 'the record is gone');
  });

  test('retention anonymises the consent with the visitor record', async () => {
    const old = await admin('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId, checkinAt: '2020-01-06T09:00:00Z', rememberVisitor: true },
      visitor: { name: 'Old Timer', email: `old-${randomUUID()}@guest.test` },
    });
    assert.equal(old.status, 200, JSON.stringify(old.body));
    const visitorId = old.body.visitorId as string;
    assert.equal((await admin('GET', `/v1/visitor/${visitorId}`)).body.rememberConsent, true);
    const found = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${old.body.id}` });
    assert.equal(found.status, 200);
    const swept = await admin('PUT', '/v1/privacy/retention', { retentionDays: 365 });
    assert.equal(swept.status, 200, JSON.stringify(swept.body));
    assert.equal((await admin('GET', `/v1/visitor/${visitorId}`)).status, 404);
    const after = await kiosk('POST', '/v1/kiosk/returning/find', { code: `portaria:visit:${old.body.id}` });
    assert.equal(after.status, 404);
    await admin('PUT', '/v1/privacy/retention', { retentionDays: null });
  });
});
