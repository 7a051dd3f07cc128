import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type StandIn, startSlack, startTeams, startTwilio, type TwilioStandIn } from '../helpers/channels.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { storedBytes } from '../helpers/store.ts';

/*
 * The Slack, Teams and SMS channels (docs/api.md, "Delivery settings and channels") against local stand-ins that
 * check the payload formats the real services document (test/helpers/channels.ts), beside the real SMTP server.
 */

type Api = ReturnType<typeof client>;
interface DeliveryRow {
  channel: string;
  hostId: string;
  hostName: string | null;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
}

let service: TestService;
let smtp: TestSmtp;
let slack: StandIn;
let teams: StandIn;
let twilio: TwilioStandIn;
/** Stand-ins of a company whose Slack is down and whose Twilio account refuses the credentials. */
let slackDown: StandIn;
let twilioDown: TwilioStandIn;
const names = ['all', 'down', 'plain', 'bare'] as const;
let companies: Record<(typeof names)[number], Api>;

before(async () => {
  [smtp, slack, teams, twilio, slackDown, twilioDown] = await Promise.all([
    startSmtp(),
    startSlack(),
    startTeams(),
    startTwilio(),
    startSlack(),
    startTwilio(),
  ]);
  slackDown.failWith(500);
  twilioDown.failWith(401);
  service = await startService({ args: allowLoopback, env: { PORTARIA_LOG_LEVEL: 'debug' } });
  const entries: [string, Api][] = [];
  for (const name of names) entries.push([name, client(service.url, (await service.company(name, 'UTC')).apiKey)]);
  companies = Object.fromEntries(entries) as typeof companies;
  await configure(companies.all, slack, teams, twilio);
  await configure(companies.down, slackDown, teams, twilioDown);
});
after(async () => {
  await service.stop();
  await Promise.all([smtp, slack, teams, twilio, slackDown, twilioDown].map((peer) => peer.close()));
});

async function configure(api: Api, slackPeer: StandIn, teamsPeer: StandIn, twilioPeer: TwilioStandIn) {
  const saved = await api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'reception@acme.test',
    slackWebhookUrl: `${slackPeer.url}/services/T000/B000/XXXX`,
    teamsWebhookUrl: `${teamsPeer.url}/workflows/abc/triggers/manual/paths/invoke`,
    twilioAccountSid: twilioPeer.accountSid,
    twilioAuthToken: twilioPeer.authToken,
    twilioFrom: '+15005550006',
    twilioBaseUrl: twilioPeer.url,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

async function newHost(api: Api, fields: Record<string, unknown> = {}) {
  const email = `host-${randomUUID()}@acme.test`;
  const created = await api('POST', '/v1/hosts', { name: 'Helena Prado', email, ...fields });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { hostId: created.body.id as string, email };
}

async function checkIn(api: Api, hostId: string, name = 'Walter') {
  const reply = await api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId, checkinAt: '2026-11-20T09:05:00Z' },
    visitor: { name, company: 'Initech' },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

/** The host's deliveries once none is pending (or once each channel failed once, with `settled`). */
async function deliveriesOf(api: Api, hostId: string, settled: (rows: DeliveryRow[]) => boolean) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const reply = await api('GET', '/v1/integration/notifications/deliveries?limit=100');
    const rows = (reply.body.deliveries as DeliveryRow[]).filter((row) => row.hostId === hostId);
    if (settled(rows)) return rows;
    if (Date.now() > deadline) throw new Error(`deliveries did not settle: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const allDone = (count: number) => (rows: DeliveryRow[]) =>
  rows.length === count && rows.every((row) => row.status === 'done');

const byChannel = (rows: DeliveryRow[]) => Object.fromEntries(rows.map((row) => [row.channel, row]));

/** The requests a stand-in accepted whose body mentions `text`. */
const mentioning = (peer: StandIn, text: string) => peer.accepted().filter((request) => request.raw.includes(text));

describe('settings of the new channels', () => {
  test('saved, the token sealed and write-only (masked, kept by the mask); addresses judged as they are saved', async () => {
    const api = companies.plain;
    const token = `token-${randomUUID()}`;
    const saved = await api('POST', '/v1/integration/notifications', {
      slackWebhookUrl: 'http://127.0.0.1:9/services/T1/B1/secret',
      teamsWebhookUrl: 'http://127.0.0.1:9/workflows/1',
      twilioAccountSid: 'AC0123',
      twilioAuthToken: token,
      twilioFrom: '+15005550006',
      reminderMinutesBefore: 30,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const read = (await api('GET', '/v1/integration/notifications')).body;
    assert.deepEqual(
      [read.slackWebhookUrl, read.teamsWebhookUrl, read.twilioAccountSid, read.twilioAuthToken, read.twilioFrom],
      [
        'http://127.0.0.1:9/services/T1/B1/secret',
        'http://127.0.0.1:9/workflows/1',
        'AC0123',
        '********',
        '+15005550006',
      ],
    );
    assert.deepEqual([read.twilioBaseUrl, read.reminderMinutesBefore], ['https://api.twilio.com', 30]);
    const masked = await api('POST', '/v1/integration/notifications', {
      twilioAuthToken: '********',
      twilioFrom: 'Acme',
    });
    assert.deepEqual([masked.body.twilioAuthToken, masked.body.twilioFrom], ['********', 'Acme']);
    assert.equal((await storedBytes(service.dataDir)).includes(token), false, 'the token is sealed at rest');
    assert.equal(service.stderr().includes(token), false, 'the token is not logged');

    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ slackWebhookUrl: 'ftp://hooks.slack.test' }, 400, { type: 'INVALID_PARAMETER', field: 'slackWebhookUrl' }],
      [{ teamsWebhookUrl: 'teams' }, 400, { type: 'INVALID_PARAMETER', field: 'teamsWebhookUrl' }],
      [{ twilioBaseUrl: '' }, 400, { type: 'INVALID_PARAMETER', field: 'twilioBaseUrl' }],
      [{ reminderMinutesBefore: -5 }, 400, { type: 'INVALID_PARAMETER', field: 'reminderMinutesBefore' }],
      [{ reminderMinutesBefore: 1.5 }, 400, { type: 'INVALID_PARAMETER', field: 'reminderMinutesBefore' }],
      [{ slackWebhookUrl: 'http://169.254.169.254/latest' }, 400, { type: 'DESTINATION_REFUSED' }],
      [{ twilioBaseUrl: 'http://[::]:8080' }, 400, { type: 'DESTINATION_REFUSED' }],
    ];
    for (const [body, status, error] of cases) {
      const reply = await api('POST', '/v1/integration/notifications', body);
      assert.equal(reply.status, status, JSON.stringify(body));
      for (const [key, value] of Object.entries(error)) assert.equal(reply.body[key], value, JSON.stringify(body));
    }
    const kept = (await api('GET', '/v1/integration/notifications')).body;
    assert.deepEqual([kept.slackWebhookUrl, kept.twilioBaseUrl], [read.slackWebhookUrl, 'https://api.twilio.com']);
  });
});

describe('a check-in', () => {
  test('notifies the host by e-mail, Slack, Teams and SMS, each in its service’s format', async () => {
    const api = companies.all;
    const { hostId, email } = await newHost(api, { phone: '(11) 98765-4321', countryCode: '+55' });
    await checkIn(api, hostId, 'Walter <!channel> & Sons');
    const rows = await deliveriesOf(api, hostId, allDone(4));
    assert.deepEqual(rows.map((row) => row.channel).sort(), ['email', 'slack', 'sms', 'teams']);
    assert.ok(rows.every((row) => row.hostName === 'Helena Prado'));

    const [posted] = mentioning(slack, 'Walter');
    assert.ok(posted, 'Slack received the message');
    const message = posted.body as { text: string; blocks: { type: string; text?: { text: string } }[] };
    assert.deepEqual(
      message.blocks.map((block) => block.type),
      ['section'],
    );
    const section = message.blocks[0]?.text?.text ?? '';
    assert.match(section, /For Helena Prado: Your visitor Walter &lt;!channel&gt; &amp; Sons \(Initech\) has arrived/);
    assert.doesNotMatch(`${section}${message.text}`, /<!channel>/, 'a name cannot mention the channel');
    assert.match(message.text, /^For Helena Prado: Your visitor/);

    const [card] = mentioning(teams, 'Walter');
    assert.ok(card, 'Teams received the card');
    type Card = { body: { type: string; inlines?: { type: string; text: string }[] }[] };
    const content = (card.body as { attachments: { content: Card }[] }).attachments[0]?.content;
    // Text runs, never markdown: a name like "[Approve](https://evil.test)" stays text.
    const texts = content?.body.map((element) => [element.type, element.inlines?.map((run) => run.text).join('')]);
    assert.deepEqual(texts, [
      ['RichTextBlock', 'Your visitor Walter <!channel> & Sons (Initech) has arrived'],
      ['RichTextBlock', 'For Helena Prado'],
      ['RichTextBlock', 'Walter <!channel> & Sons (Initech) checked in at 11/20/26, 9:05 AM.'],
    ]);

    const [sms] = mentioning(twilio, 'Walter');
    assert.ok(sms, 'the SMS API received the message');
    const form = sms.body as Record<string, string>;
    assert.deepEqual([form.To, form.From], ['+5511987654321', '+15005550006']);
    assert.match(form.Body ?? '', /^Walter <!channel> & Sons \(Initech\) checked in at /);

    assert.ok(
      smtp.mails.some((mail) => mail.to.includes(email)),
      'the host got the e-mail',
    );
  });

  test('reaches each host by what the host has: no SMS without a valid phone', async () => {
    const api = companies.all;
    const noPhone = await newHost(api);
    const badPhone = await newHost(api, { phone: '123', countryCode: '+55' });
    await checkIn(api, noPhone.hostId);
    await checkIn(api, badPhone.hostId);
    for (const { hostId } of [noPhone, badPhone]) {
      const rows = await deliveriesOf(api, hostId, allDone(3));
      assert.deepEqual(rows.map((row) => row.channel).sort(), ['email', 'slack', 'teams']);
    }
  });

  test('a failing channel shows in the delivery list: given up on a refusal, retried on an outage', async () => {
    const api = companies.down;
    const { hostId } = await newHost(api, { phone: '11987654321', countryCode: '+55' });
    await checkIn(api, hostId);
    const rows = byChannel(
      await deliveriesOf(api, hostId, (found) => {
        const channel = byChannel(found);
        return channel.sms?.status === 'failed' && (channel.slack?.lastError ?? null) !== null;
      }),
    );
    assert.equal(rows.sms?.lastError, `${twilioDown.url} answered HTTP 401`);
    assert.equal(rows.slack?.status, 'pending', 'a 500 is retried');
    assert.equal(rows.slack?.lastError, `${slackDown.url} answered HTTP 500`);
    assert.equal(rows.teams?.status === 'failed', false);
    const listed = JSON.stringify((await api('GET', '/v1/integration/notifications/deliveries')).body);
    for (const secret of [twilioDown.authToken, twilioDown.accountSid, '/services/T000/B000/XXXX']) {
      assert.equal(listed.includes(secret), false, `${secret} is not in the delivery list`);
    }
  });
});

describe('an erased visitor', () => {
  test('leaves each delivery listed with its channel and host, and nothing of the message', async () => {
    const api = companies.all;
    const { hostId } = await newHost(api, { phone: '11987654321', countryCode: '+55' });
    const reply = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId },
      visitor: { name: 'Zelda Forgotten', email: 'zelda@forgotten.test' },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    await deliveriesOf(api, hostId, allDone(4));
    const erased = await api('POST', '/v1/privacy/erasure', { email: 'zelda@forgotten.test' });
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    const listed = await api('GET', '/v1/integration/notifications/deliveries?limit=100');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const rows = (listed.body.deliveries as (DeliveryRow & { subject: string })[]).filter(
      (row) => row.hostId === hostId,
    );
    assert.deepEqual(
      rows.map((row) => [row.channel, row.hostName, row.subject, row.status]).sort(),
      ['email', 'slack', 'sms', 'teams'].map((channel) => [channel, 'Helena Prado', '', 'done']),
    );
    assert.equal(JSON.stringify(listed.body).includes('Zelda'), false);
  });
});

describe('the test send', () => {
  test('goes through each channel now and says whether it was taken', async () => {
    const api = companies.all;
    const send = (body: Record<string, unknown>) => api('POST', '/v1/integration/notifications/test', body);
    for (const channel of ['slack', 'teams'] as const) {
      const peer = channel === 'slack' ? slack : teams;
      const before = peer.accepted().length;
      assert.deepEqual((await send({ channel })).body, { channel, delivered: true, error: null });
      assert.equal(peer.accepted().length, before + 1);
      assert.match(peer.accepted().at(-1)?.raw ?? '', /Portaria: test message/);
    }
    assert.deepEqual((await send({ channel: 'sms', to: '+55 11 98765-4321' })).body, {
      channel: 'sms',
      delivered: true,
      error: null,
    });
    const sms = twilio.accepted().at(-1)?.body as Record<string, string>;
    assert.deepEqual(
      [sms.To, sms.Body],
      [
        '+5511987654321',
        'This is a test from the front desk of your Portaria kiosk. Notifications reach you this way.',
      ],
    );
    for (const to of [undefined, 'not a phone', '11987654321', 'host@acme.test']) {
      const reply = await send({ channel: 'sms', ...(to === undefined ? {} : { to }) });
      assert.deepEqual([reply.status, reply.body.type, reply.body.field], [400, 'INVALID_PARAMETER', 'to'], String(to));
    }
    const refused = (
      await companies.down('POST', '/v1/integration/notifications/test', { channel: 'sms', to: '+5511987654321' })
    ).body;
    assert.deepEqual(refused, { channel: 'sms', delivered: false, error: `${twilioDown.url} answered HTTP 401` });
    const unset = await companies.bare('POST', '/v1/integration/notifications/test', { channel: 'teams' });
    assert.deepEqual([unset.status, unset.body.type], [409, 'CHANNEL_NOT_CONFIGURED']);
  });

  test('leaves no credential in the log', () => {
    for (const secret of [twilio.authToken, twilioDown.authToken]) {
      assert.equal(service.stderr().includes(secret), false);
      const basic = Buffer.from(`${twilio.accountSid}:${secret}`).toString('base64');
      assert.equal(service.stderr().includes(basic), false);
    }
  });
});
