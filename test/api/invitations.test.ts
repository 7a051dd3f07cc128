import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import jsqrModule from 'jsqr';
import { type ParsedMail, simpleParser } from 'mailparser';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { withServiceDb } from '../helpers/store.ts';

// pngjs comes with the qrcode package and has no types of its own: only its synchronous reader is used.
const { PNG } = createRequire(import.meta.url)('pngjs') as {
  PNG: { sync: { read(data: Buffer): { width: number; height: number; data: Buffer } } };
};
// jsqr is CommonJS typed as an ES module: its function is `.default` to TypeScript and to node alike.
const jsQR = jsqrModule.default;

type Api = ReturnType<typeof client>;

/** A 1×1 PNG: the company's logo. */
const logoPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let smtp: TestSmtp;
/** Without a public address: the kiosk's company (the first made), with e-mail set up and a logo. */
let service: TestService;
let api: Api;
let kiosk: Api;
/** A company of the same service without e-mail. */
let silent: Api;
let silentHostId: string;
/** With a public address and access control on. */
let linked: TestService;
let linkedApi: Api;
let linkedHostId: string;
let hostId: string;

const futureDay = (days: number, time = '10:00:00') => {
  const date = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  return `${date}T${time}-03:00`;
};

async function withMail(target: Api) {
  const saved = await target('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'reception@acme.test',
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

const newHost = async (target: Api, name = 'Ana Souza') =>
  (await target('POST', '/v1/hosts', { name, email: `host-${randomUUID()}@acme.test` })).body.id as string;

before(async () => {
  smtp = await startSmtp();
  [service, linked] = await Promise.all([
    startService({ args: allowLoopback }),
    startService({ args: [...allowLoopback, '--public-url', 'https://visitors.acme.test/'] }),
  ]);
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  silent = client(service.url, (await service.company('Quiet', 'America/Sao_Paulo')).apiKey);
  linkedApi = client(linked.url, (await linked.company('Linked', 'America/Sao_Paulo')).apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
  await withMail(api);
  await withMail(linkedApi);
  assert.equal((await api('PUT', '/v1/company/logo', { picture: logoPng })).status, 200);
  await api('PATCH', '/v1/company', {
    address: 'Av. Paulista 1000, São Paulo',
    mapAddressUrl: 'https://maps.test/acme',
  });
  hostId = await newHost(api);
  silentHostId = await newHost(silent);
  linkedHostId = await newHost(linkedApi);
  await linkedApi('POST', '/v1/integration/access', {
    enabled: true,
    url: 'https://gate.acme.test',
    username: 'gate',
    password: 'the-gate-password',
    aesKey: '0123456789abcdef0123456789abcdef',
  });
});
after(async () => {
  await Promise.all([service.stop(), linked.stop()]);
  await smtp.close();
});

/** The mails to an address, parsed, once `count` of them arrived. */
async function mailsTo(address: string, count: number): Promise<ParsedMail[]> {
  const deadline = Date.now() + 20_000;
  const to = () => smtp.mails.filter((mail) => mail.to.includes(address));
  while (to().length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${address}, got ${to().length}`);
    await smtp.waitFor(smtp.mails.length + 1, deadline - Date.now()).catch(() => undefined);
  }
  return await Promise.all(to().map((mail) => simpleParser(Buffer.from(mail.raw, 'latin1'), { keepCidLinks: true })));
}

/** The jobs of invitation e-mails the service queued for an invitee. */
const invitationJobs = async (dataDir: string, inviteeId: string) =>
  await withServiceDb(
    dataDir,
    async (db) =>
      (await db
        .prepare(`SELECT idempotencyKey, status FROM jobs WHERE kind = 'invitation-email' AND idempotencyKey LIKE ?`)
        .all(`${inviteeId}:%`)) as { idempotencyKey: string; status: string }[],
  );

/** The calendar event of a message: its method, and the event's UID, sequence and start. */
function calendarOf(mail: ParsedMail) {
  const part = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  assert.ok(part, 'the message carries a text/calendar part');
  const calendar = new ICAL.Component(ICAL.parse(part.content.toString('utf8')));
  const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent') ?? undefined);
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().getTime(),
    summary: event.summary,
    location: event.location,
    organizer: String(event.organizer),
    attendee: String(event.attendees[0]?.getFirstValue()),
  };
}

/** The text the inline QR code of a message holds. */
function qrTextOf(mail: ParsedMail): string | undefined {
  const image = mail.attachments.find((a) => a.cid === 'qr@portaria');
  assert.ok(image, 'the QR code is an inline image');
  assert.equal(image.contentType, 'image/png');
  assert.ok(String(mail.html).includes('cid:qr@portaria'), 'the HTML shows it');
  const png = PNG.sync.read(image.content);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

const invite = (target: Api, fields: Record<string, unknown>) =>
  target('POST', '/v1/invitees', { name: 'Beatriz Lima', hostId, expectedAt: futureDay(3), ...fields });

describe('invitation e-mails', () => {
  test('an invitee is sent an invitation: QR code and typed code the kiosk finds, calendar event, host, place', async () => {
    const email = `beatriz-${randomUUID()}@guest.test`;
    const created = await invite(api, { email, lang: 'en' });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [mail] = await mailsTo(email, 1);
    assert.ok(mail);
    assert.match(mail.subject ?? '', /^Invitation: your visit to Acme on /);
    const text = mail.text ?? '';
    for (const part of ['Hello Beatriz Lima,', 'Ana Souza invites you to visit Acme.', 'Ask for: Ana Souza']) {
      assert.ok(text.includes(part), part);
    }
    assert.ok(text.includes('Av. Paulista 1000, São Paulo') && text.includes('https://maps.test/acme'), text);
    assert.ok(text.includes(String(created.body.cardNumber)), 'the typed code');
    assert.ok(text.includes('check in at the kiosk'), 'without a public address, the kiosk');
    assert.ok(!text.includes('/p/'), 'no links without a public address');
    assert.ok(String(mail.html).includes('cid:logo@portaria'), "the company's logo, inline");
    assert.ok(mail.attachments.some((a) => a.cid === 'logo@portaria' && a.contentType === 'image/png'));

    const qr = qrTextOf(mail);
    assert.equal(qr, `portaria:invitee:${created.body.id}`);
    for (const code of [qr, String(created.body.cardNumber)]) {
      const found = await kiosk('POST', '/v1/kiosk/invitees/find', { code });
      assert.equal(found.status, 200, JSON.stringify(found.body));
      assert.deepEqual(
        found.body.invitees.map((shown: { firstName: string; hostName: string }) => [shown.firstName, shown.hostName]),
        [['Beatriz', 'Ana Souza']],
        code,
      );
    }

    const event = calendarOf(mail);
    assert.deepEqual(
      [event.method, event.uid, event.sequence, event.start, event.summary],
      ['REQUEST', `invitee-${created.body.id}@portaria`, 0, Date.parse(futureDay(3)), 'Visit to Acme'],
    );
    assert.match(event.location ?? '', /Av\. Paulista 1000/);
    assert.match(event.organizer, /^mailto:host-/i);
    assert.equal(event.attendee.toLowerCase(), `mailto:${email}`);
    assert.ok(
      mail.attachments.some((a) => a.filename === 'invite.ics'),
      'the event attached as invite.ics too',
    );
  });

  test('a change of time sends an update (SEQUENCE 1), a cancellation METHOD:CANCEL with the same UID', async () => {
    const email = `moved-${randomUUID()}@guest.test`;
    const { body } = await invite(api, { email });
    await mailsTo(email, 1);
    assert.equal((await api('PATCH', `/v1/invitee/${body.id}`, { expectedAt: futureDay(4, '14:30:00') })).status, 200);
    const [, update] = await mailsTo(email, 2);
    assert.ok(update);
    assert.match(update.subject ?? '', /^Updated invitation: /);
    const moved = calendarOf(update);
    assert.deepEqual(
      [moved.method, moved.uid, moved.sequence, moved.start],
      ['REQUEST', `invitee-${body.id}@portaria`, 1, Date.parse(futureDay(4, '14:30:00'))],
    );
    // A change that is not the visit's time or host sends nothing.
    await api('PATCH', `/v1/invitee/${body.id}`, { company: 'Initech' });
    await api('PATCH', `/v1/invitee/${body.id}`, { status: 'canceled' });
    const [, , cancel] = await mailsTo(email, 3);
    assert.ok(cancel);
    assert.match(cancel.subject ?? '', /^Canceled: /);
    const canceled = calendarOf(cancel);
    assert.deepEqual([canceled.method, canceled.uid, canceled.sequence], ['CANCEL', moved.uid, 2]);
    assert.ok(!cancel.attachments.some((a) => a.cid === 'qr@portaria'), 'a canceled invitation shows no code');
    // Deleting a canceled invitee cancels nothing more.
    await api('DELETE', `/v1/invitee/${body.id}`);
    const jobs = await invitationJobs(service.dataDir, body.id);
    assert.deepEqual(jobs.map((job) => job.idempotencyKey).sort(), [`${body.id}:0`, `${body.id}:1`, `${body.id}:2`]);
  });

  test('deleting an invitee sends the cancellation', async () => {
    const email = `deleted-${randomUUID()}@guest.test`;
    const { body } = await invite(api, { email });
    await mailsTo(email, 1);
    assert.equal((await api('DELETE', `/v1/invitee/${body.id}`)).status, 200);
    const [, cancel] = await mailsTo(email, 2);
    assert.ok(cancel);
    assert.deepEqual(
      [calendarOf(cancel).method, calendarOf(cancel).uid, calendarOf(cancel).sequence],
      ['CANCEL', `invitee-${body.id}@portaria`, 1],
    );
  });

  test('"sendInvitationEmail": false sends nothing, then or after; resend sends it as it is', async () => {
    const email = `quiet-${randomUUID()}@guest.test`;
    const { body } = await invite(api, { email, sendInvitationEmail: false });
    await api('PATCH', `/v1/invitee/${body.id}`, { expectedAt: futureDay(5) });
    assert.deepEqual(await invitationJobs(service.dataDir, body.id), []);
    const resent = await api('POST', `/v1/invitee/${body.id}/resend`);
    assert.deepEqual([resent.status, resent.body], [200, { success: true }]);
    const [mail] = await mailsTo(email, 1);
    assert.ok(mail);
    assert.equal(calendarOf(mail).start, Date.parse(futureDay(5)));
    assert.equal(calendarOf(mail).sequence, 0);
    // Sent again: one more message, the same event.
    await api('POST', `/v1/invitee/${body.id}/resend`);
    const [, again] = await mailsTo(email, 2);
    assert.ok(again);
    assert.deepEqual([calendarOf(again).uid, calendarOf(again).sequence], [calendarOf(mail).uid, 0]);
    assert.notEqual(again.messageId, mail.messageId);
    const audit = await api('GET', `/v1/audit?queryKey=objectId&queryOp=%3D%3D&queryValue=${body.id}`);
    assert.equal(
      audit.body.entries.filter((entry: { action: string }) => entry.action === 'invitee.invitation.resent').length,
      2,
    );
    // An update the request says not to send is not sent.
    await api('PATCH', `/v1/invitee/${body.id}`, { expectedAt: futureDay(6), sendInvitationEmail: 'false' });
    assert.equal((await invitationJobs(service.dataDir, body.id)).length, 2);
  });

  test('resend is refused without e-mail set up, without an address, for a canceled invitee', async () => {
    const quiet = await silent('POST', '/v1/invitees', {
      name: 'Caio',
      email: 'caio@guest.test',
      hostId: silentHostId,
      expectedAt: futureDay(2),
    });
    assert.deepEqual(await invitationJobs(service.dataDir, quiet.body.id), [], 'no SMTP: nothing queued');
    assert.deepEqual((await silent('POST', `/v1/invitee/${quiet.body.id}/resend`)).body, {
      type: 'CHANNEL_NOT_CONFIGURED',
    });
    const phoneOnly = await invite(api, { phone: '+5511999990000' });
    const noAddress = await api('POST', `/v1/invitee/${phoneOnly.body.id}/resend`);
    assert.deepEqual([noAddress.status, noAddress.body], [400, { type: 'MISSING_EMAIL' }]);
    const canceled = await invite(api, { email: `c-${randomUUID()}@guest.test`, status: 'canceled' });
    const refused = await api('POST', `/v1/invitee/${canceled.body.id}/resend`);
    assert.deepEqual([refused.status, refused.body], [409, { type: 'INVITEE_CANCELED' }]);
    assert.deepEqual(await invitationJobs(service.dataDir, canceled.body.id), []);
    assert.equal((await api('POST', `/v1/invitee/${randomUUID()}/resend`)).status, 404);
    assert.deepEqual((await kiosk('POST', `/v1/invitee/${phoneOnly.body.id}/resend`)).body, { type: 'FORBIDDEN' });
  });

  test("in the invitee's language, else the company's", async () => {
    const subjects: Record<string, RegExp> = {
      en: /^Invitation: your visit to Acme on /,
      'pt-BR': /^Convite: sua visita a Acme em /,
      de: /^Einladung: Ihr Besuch bei Acme am /,
      'zh-Hans': /^邀请：您于 .+ 拜访 Acme$/,
    };
    for (const [lang, subject] of Object.entries(subjects)) {
      const email = `${lang.toLowerCase()}-${randomUUID()}@guest.test`;
      await invite(api, { email, lang });
      const [mail] = await mailsTo(email, 1);
      assert.match(mail?.subject ?? '', subject, lang);
      assert.match(String(mail?.html), new RegExp(`<html[^>]* lang="${lang}"`), lang);
    }
    // No language of its own: the company's (English, as made).
    const email = `nolang-${randomUUID()}@guest.test`;
    await invite(api, { email });
    assert.match((await mailsTo(email, 1))[0]?.subject ?? '', subjects.en as RegExp);
  });
});

describe("a meeting's guests", () => {
  test('each guest is invited; a move updates them, a removed guest and a deleted meeting cancel', async () => {
    const [ana, bruno] = [`ana-${randomUUID()}@guest.test`, `bruno-${randomUUID()}@guest.test`];
    const meeting = await api('POST', '/v1/meetings', {
      title: 'Quarterly review',
      guests: [ana, bruno],
      start: futureDay(7, '09:00:00'),
      end: futureDay(7, '11:00:00'),
      location: 'Room 3',
      type: 'MEETING',
      hostId,
      lang: 'pt-BR',
      message: 'Traga seu crachá de fornecedor.',
    });
    assert.equal(meeting.status, 200, JSON.stringify(meeting.body));
    const [first] = await mailsTo(ana, 1);
    assert.ok(first);
    assert.match(first.subject ?? '', /^Convite: /);
    assert.ok(first.text?.includes('Traga seu crachá de fornecedor.'), "the host's message");
    assert.ok(first.text?.includes('Room 3'));
    const invited = calendarOf(first);
    assert.deepEqual([invited.method, invited.summary, invited.sequence], ['REQUEST', 'Quarterly review', 0]);
    const inviteeId = /^portaria:invitee:(.+)$/.exec(qrTextOf(first) ?? '')?.[1];
    assert.ok(inviteeId);
    assert.equal(invited.uid, `invitee-${inviteeId}@portaria`);
    await mailsTo(bruno, 1);

    // The meeting moves: both guests get the update.
    await api('PATCH', `/v1/meeting/${meeting.body.id}`, { start: futureDay(8, '09:00:00') });
    const [, moved] = await mailsTo(ana, 2);
    assert.ok(moved);
    assert.deepEqual(
      [calendarOf(moved).uid, calendarOf(moved).sequence, calendarOf(moved).start],
      [invited.uid, 1, Date.parse(futureDay(8, '09:00:00'))],
    );
    await mailsTo(bruno, 2);
    // Its end alone moves: an update too (the event's end), though the invitees stay where they are.
    await api('PATCH', `/v1/meeting/${meeting.body.id}`, { end: futureDay(8, '12:00:00') });
    assert.equal(calendarOf((await mailsTo(ana, 3))[2] as ParsedMail).sequence, 2);

    // Bruno taken off the list: his cancellation.
    await api('PATCH', `/v1/meeting/${meeting.body.id}`, { guests: [ana] });
    const brunos = await mailsTo(bruno, 4);
    assert.equal(calendarOf(brunos[3] as ParsedMail).method, 'CANCEL');
    // The meeting deleted: Ana's.
    await api('DELETE', `/v1/meeting/${meeting.body.id}`);
    const anas = await mailsTo(ana, 4);
    assert.deepEqual(
      [calendarOf(anas[3] as ParsedMail).method, calendarOf(anas[3] as ParsedMail).uid],
      ['CANCEL', invited.uid],
    );
  });

  test('"sendInvitationEmail": false on the meeting invites no guest', async () => {
    const guest = `silent-${randomUUID()}@guest.test`;
    const meeting = await api('POST', '/v1/meetings', {
      title: 'Quiet',
      guests: [guest],
      start: futureDay(9, '09:00:00'),
      end: futureDay(9, '10:00:00'),
      location: 'Room 1',
      type: 'MEETING',
      hostId,
      sendInvitationEmail: false,
    });
    assert.equal(meeting.status, 200, JSON.stringify(meeting.body));
    const invitees = await api('GET', `/v1/invitees?queryKey=email&queryOp=%3D%3D&queryValue=${guest}`);
    assert.equal(invitees.body.size, 1);
    assert.deepEqual(await invitationJobs(service.dataDir, invitees.body.invitees[0].id), []);
  });
});

describe('with a public address', () => {
  test('the invitation links to pre-registration and, with access control on, to the gate pass', async () => {
    const email = `linked-${randomUUID()}@guest.test`;
    const created = await linkedApi('POST', '/v1/invitees', {
      name: 'Dora',
      email,
      hostId: linkedHostId,
      expectedAt: futureDay(2),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const [mail] = await mailsTo(email, 1);
    assert.ok(mail);
    const links = [...(mail.text ?? '').matchAll(/https:\/\/visitors\.acme\.test\/p\/(\w+)\/([\w.-]+)/g)];
    assert.deepEqual(
      links.map(([, purpose]) => purpose),
      ['register', 'pass'],
    );
    for (const [url, purpose, token] of links) {
      assert.ok(String(mail.html).includes(`href="${url}"`), `${purpose} is a button`);
      const claims = JSON.parse(Buffer.from(String(token).split('.')[0] ?? '', 'base64url').toString('utf8'));
      assert.deepEqual([claims.p, claims.s], [purpose, created.body.id]);
      assert.ok(claims.e > Date.parse(futureDay(2)), 'valid until the visit is over');
    }
    assert.ok(!(mail.text ?? '').includes('check in at the kiosk'));
  });
});
