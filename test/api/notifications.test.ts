import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { settledQueue, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { storedBytes } from '../helpers/store.ts';

let service: TestService;
let smtp: TestSmtp;
const credentials = { user: 'kiosk@acme.test', pass: `smtp-${randomUUID()}` };
type Api = ReturnType<typeof client>;
/** A company whose mail goes to the test's SMTP server, with a host. */
let shared: { api: Api; hostId: string; email: string };
/** Companies of single tests (made before any request: `company()` blocks this process while it runs the CLI). */
const single = ['plain', 'offline', 'hooks'] as const;
let companies: Record<(typeof single)[number], Api>;

before(async () => {
  smtp = await startSmtp({ credentials });
  service = await startService({ args: allowLoopback });
  const sharedApi = client(service.url, (await service.company('Shared', 'America/Sao_Paulo')).apiKey);
  const entries: [string, ReturnType<typeof client>][] = [];
  for (const name of single) {
    entries.push([
      name,
      client(service.url, (await service.company(name, name === 'hooks' ? 'UTC' : undefined)).apiKey),
    ]);
  }
  companies = Object.fromEntries(entries) as typeof companies;
  shared = await withMail(sharedApi);
});
after(async () => {
  await service.stop();
  await smtp.close();
});

/** Sends the company's notifications to the test's SMTP server; answers it with a host to visit. */
async function withMail(api: Api) {
  const saved = await api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    smtpUsername: credentials.user,
    smtpPassword: credentials.pass,
    emailFrom: 'reception@acme.test',
  });
  assert.equal(saved.status, 200);
  return { api, ...(await newHost(api)) };
}

/** A host with an address of its own, so the test can tell its mail apart. */
async function newHost(api: Api, fields: Record<string, unknown> = {}) {
  const email = `host-${randomUUID()}@acme.test`;
  const hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email, ...fields })).body.id as string;
  return { hostId, email };
}

const checkIn = (api: Api, hostId: string, visitor: Record<string, unknown> = {}) =>
  api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId, checkinAt: '2026-11-20T09:05:00-03:00' },
    visitor: { name: 'Walter', company: 'Initech', ...visitor },
  });

const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address));

/** Waits until a delivery has failed with an error like `pattern` and waits for its retry; answers the queue. */
async function failedOnce(api: Api, pattern: RegExp) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { queue } = (await api('GET', '/v1/integration/notifications')).body;
    if (queue.pending === 1 && pattern.test(queue.lastError ?? '')) return queue;
    if (Date.now() > deadline) throw new Error(`no failed attempt like ${pattern}: ${JSON.stringify(queue)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function mailTo(address: string) {
  const deadline = Date.now() + 20_000;
  while (mailsTo(address).length === 0) {
    if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
    await smtp.waitFor(smtp.mails.length + 1, deadline - Date.now()).catch(() => undefined);
  }
  return mailsTo(address)[0] as (typeof smtp.mails)[number];
}

describe('/v1/integration/notifications', () => {
  test('a partial upsert with defaults; secrets sealed, masked, kept by the mask, never logged', async () => {
    const api = companies.plain;
    assert.deepEqual((await api('GET', '/v1/integration/notifications')).body, { type: 'NOT_FOUND' });
    const secret = `hook-${randomUUID()}`;
    const first = await api('POST', '/v1/integration/notifications', {
      smtpHost: 'mail.acme.test',
      webhookSecret: secret,
    });
    assert.equal(first.status, 200);
    const { createdAt, updatedAt, queue, ...settings } = first.body;
    assert.deepEqual(settings, {
      smtpHost: 'mail.acme.test',
      smtpPort: 587,
      smtpSecurity: 'starttls',
      smtpUsername: '',
      smtpPassword: '',
      emailFrom: '',
      webhookUrl: '',
      webhookSecret: '********',
      slackWebhookUrl: '',
      teamsWebhookUrl: '',
      twilioAccountSid: '',
      twilioAuthToken: '',
      twilioFrom: '',
      twilioBaseUrl: 'https://api.twilio.com',
      reminderMinutesBefore: 15,
      escalateAfterMinutes: 0,
      receptionEmail: '',
    });
    assert.deepEqual(queue, { pending: 0, failed: 0, done: 0, lastError: null, oldestPendingAt: null });
    const second = await api('POST', '/v1/integration/notifications', {
      smtpPassword: credentials.pass,
      webhookSecret: '********',
      smtpPort: '465',
      smtpSecurity: 'tls',
    });
    assert.deepEqual(
      [second.body.smtpHost, second.body.smtpPort, second.body.smtpPassword, second.body.webhookSecret],
      ['mail.acme.test', 465, '********', '********'],
    );
    const stored = await storedBytes(service.dataDir);
    assert.equal(stored.includes(credentials.pass), false);
    assert.equal(stored.includes(secret), false);
    for (const [body, field] of [
      [{ webhookUrl: 'ftp://hooks.test' }, 'webhookUrl'],
      [{ emailFrom: 'reception' }, 'emailFrom'],
      [{ smtpSecurity: 'ssl' }, 'smtpSecurity'],
      [{ smtpPort: 70000 }, 'smtpPort'],
      [{ smtpHost: 'mail server' }, 'smtpHost'],
    ] as const) {
      const reply = await api('POST', '/v1/integration/notifications', body);
      assert.deepEqual([reply.status, reply.body], [400, { type: 'INVALID_PARAMETER', field }], field);
    }
    assert.deepEqual((await api('DELETE', '/v1/integration/notifications')).body, { success: true });
    assert.equal((await api('GET', '/v1/integration/notifications')).status, 404);
  });
});

describe('check-in notifications', () => {
  test('the host gets an e-mail through the real SMTP server, authenticated with the sealed password', async () => {
    const { api, hostId, email } = shared;
    assert.equal((await checkIn(api, hostId)).status, 200);
    const mail = await mailTo(email);
    assert.equal(mail.from, 'reception@acme.test');
    assert.equal(mail.subject, 'Your visitor Walter (Initech) has arrived');
    assert.equal(mail.text, 'Walter (Initech) checked in at 11/20/26, 9:05 AM.');
    assert.equal((await settledQueue(api)).done, 1);
    assert.equal(service.stderr().includes(credentials.pass), false, 'the password is never logged');
  });

  test('messages are in the company’s language', async () => {
    const expected: Record<string, [string, RegExp]> = {
      'pt-BR': ['Seu visitante Walter (Initech) chegou', /^Walter \(Initech\) fez check-in em 20\/11\/2026,? 09:05\.$/],
      de: [
        'Ihr Besuch Walter (Initech) ist angekommen',
        /^Walter \(Initech\) hat sich am 20\.11\.26,? 09:05 angemeldet\.$/,
      ],
      'zh-Hans': ['您的访客 Walter (Initech) 已到达', /^Walter \(Initech\) 已于 2026\/11\/20 09:05 登记到访。$/],
    };
    const { api } = shared;
    try {
      for (const [lang, [subject, text]] of Object.entries(expected)) {
        await api('PATCH', '/v1/company', { lang });
        const { hostId, email } = await newHost(api);
        await checkIn(api, hostId);
        const mail = await mailTo(email);
        assert.equal(mail.subject, subject, lang);
        assert.match(mail.text, text, lang);
      }
    } finally {
      await api('PATCH', '/v1/company', { lang: 'en' });
    }
  });

  test('a host with preCheckinNotifications off is not told; an invitee’s host is', async () => {
    const { api } = shared;
    const done = (await settledQueue(api)).done;
    const quiet = await newHost(api, { preCheckinNotifications: false });
    await checkIn(api, quiet.hostId);
    assert.equal((await settledQueue(api)).done, done, 'nothing was queued for the quiet host');

    const { hostId, email } = await newHost(api);
    const invitee = (
      await api('POST', '/v1/invitees', { name: 'Iris', email: 'iris@guest.test', hostId, expectedAt: 1_800_000_000 })
    ).body;
    await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { checkinAt: '2026-11-20T10:00:00-03:00' });
    assert.equal((await mailTo(email)).subject, 'Your visitor Iris has arrived');
    assert.equal(mailsTo(quiet.email).length, 0);
  });

  test('a check-in made while the mail server is down is delivered when it is back', async () => {
    const down = await startSmtp({ credentials });
    const port = down.port;
    await down.close();
    const { api, hostId, email } = await withMail(companies.offline);
    await api('POST', '/v1/integration/notifications', { smtpPort: port });
    await checkIn(api, hostId, { name: 'Offline Olga', company: null });
    // The company reads that its server failed, not what the network said (refused, reset, timed out).
    const status = await failedOnce(api, /^cannot reach SMTP 127\.0\.0\.1:\d+$/);
    assert.match(status.oldestPendingAt, /-03:00$/);
    const back = await startSmtp({ credentials, port });
    try {
      const [mail] = await back.waitFor(1);
      assert.deepEqual(mail?.to, [email]);
      assert.equal(mail?.subject, 'Your visitor Offline Olga has arrived');
      assert.deepEqual(await settledQueue(api), { ...status, pending: 0, done: 1, oldestPendingAt: null });
    } finally {
      await back.close();
    }
  });

  test('a wrong SMTP password is retried, not lost, and never shown', async () => {
    const { api, hostId } = await withMail(companies.offline);
    const wrong = `wrong-${randomUUID()}`;
    await api('POST', '/v1/integration/notifications', { smtpPassword: wrong });
    const done = (await settledQueue(api)).done;
    await checkIn(api, hostId);
    const queue = await failedOnce(api, /535/);
    assert.equal(queue.lastError.includes(wrong), false);
    assert.equal(service.stderr().includes(wrong), false);
    await api('POST', '/v1/integration/notifications', { smtpPassword: credentials.pass });
    assert.equal((await settledQueue(api)).done, done + 1, 'delivered with the corrected password');
  });
});

describe('/v1/notifications', () => {
  test('a delivery goes to hosts who take deliveries; the object shows each delivery', async () => {
    const { api } = shared;
    const { hostId: takesNone, email: noneEmail } = await newHost(api);
    const takes = await api('POST', '/v1/hosts', {
      name: 'Dora',
      email: `dora-${randomUUID()}@acme.test`,
      deliveryNotification: true,
      additionalEmails: 'dora.backup@acme.test',
    });
    const { status, body } = await api('POST', '/v1/notifications', {
      type: 'delivery',
      message: 'A parcel from ACME Logistics is at the front desk.',
      hosts: [{ id: takes.body.id, name: 'Dora' }, { id: takesNone }],
    });
    assert.equal(status, 200);
    assert.match(body.id, /^[0-9a-f]{32}$/);
    assert.equal(body.type, 'delivery');
    assert.deepEqual(
      body.hosts.map((h: { id: string }) => h.id),
      [takes.body.id, takesNone],
    );
    assert.deepEqual(body.deliveries, [
      { hostId: takes.body.id, channel: 'email', status: 'pending', attempts: 0, lastError: null },
    ]);
    const mail = await mailTo(takes.body.email);
    assert.deepEqual(mail.to, [takes.body.email, 'dora.backup@acme.test']);
    assert.equal(mail.subject, 'A delivery has arrived for you');
    assert.equal(mail.text, 'A parcel from ACME Logistics is at the front desk.');
    await settledQueue(api);
    const read = (await api('GET', `/v1/notification/${body.id}`)).body;
    assert.deepEqual(read.deliveries, [
      { hostId: takes.body.id, channel: 'email', status: 'done', attempts: 1, lastError: null },
    ]);
    assert.equal(mailsTo(noneEmail).length, 0);
  });

  test('a visit message goes to hosts with preCheckinNotifications on; PATCH sends to added hosts only', async () => {
    const { api } = shared;
    await api('PATCH', '/v1/company', { lang: 'pt-BR' });
    const { hostId, email } = await newHost(api);
    const late = (await api('POST', '/v1/hosts', { name: 'Lia', email: `lia-${randomUUID()}@acme.test` })).body;
    const created = (
      await api('POST', '/v1/notifications', {
        type: 'VISIT',
        message: 'Seu visitante está na recepção.',
        hosts: [hostId],
      })
    ).body;
    assert.equal(created.type, 'visit');
    const mail = await mailTo(email);
    assert.equal(mail.subject, 'Uma mensagem sobre seu visitante');
    const patched = await api('PATCH', `/v1/notification/${created.id}`, { hosts: [hostId, late.id] });
    assert.equal(patched.status, 200);
    await mailTo(late.email);
    await settledQueue(api);
    assert.equal(mailsTo(email).length, 1, 'not sent twice to the first host');
    await api('PATCH', '/v1/company', { lang: 'en' });
    const list = await api('GET', '/v1/notifications?queryKey=type&queryOp===&queryValue=visit');
    assert.equal(list.body.size, 1);
    assert.equal(list.body.notifications[0].deliveries.length, 2);
  });

  test('checks its input; another company gets NOT_FOUND; DELETE drops what is not yet sent', async () => {
    const api = companies.plain;
    const other = shared.api;
    const host = (await api('POST', '/v1/hosts', { name: 'H', email: 'h@checks.test' })).body.id;
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { message: 'x', hosts: [host] },
        { type: 'INVALID_PARAMETER', field: 'type' },
      ],
      [
        { type: 'sms', message: 'x', hosts: [host] },
        { type: 'INVALID_PARAMETER', field: 'type' },
      ],
      [
        { type: 'visit', hosts: [host] },
        { type: 'INVALID_PARAMETER', field: 'message' },
      ],
      [
        { type: 'visit', message: 'x' },
        { type: 'INVALID_PARAMETER', field: 'hosts' },
      ],
      [
        { type: 'visit', message: 'x', hosts: [] },
        { type: 'INVALID_PARAMETER', field: 'hosts' },
      ],
      [
        { type: 'visit', message: 'x', hosts: [{ name: 'no id' }] },
        { type: 'INVALID_PARAMETER', field: 'hosts.0' },
      ],
      [{ type: 'visit', message: 'x', hosts: ['f'.repeat(32)] }, { type: 'HOST_NOT_FOUND' }],
    ];
    for (const [body, error] of cases) {
      const reply = await api('POST', '/v1/notifications', body);
      assert.deepEqual([reply.status, reply.body], [400, error], JSON.stringify(body));
    }
    const created = (await api('POST', '/v1/notifications', { type: 'visit', message: 'Hi', hosts: [host] })).body;
    assert.deepEqual(created.deliveries, [], 'no channel configured: nothing to deliver');
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(
        method,
        `/v1/notification/${created.id}`,
        method === 'PATCH' ? { message: 'x' } : undefined,
      );
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
    }
    const foreignHost = await other('POST', '/v1/notifications', { type: 'visit', message: 'x', hosts: [host] });
    assert.deepEqual(foreignHost.body, { type: 'HOST_NOT_FOUND' });
    assert.deepEqual((await api('DELETE', `/v1/notification/${created.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/notification/${created.id}`)).status, 404);
    assert.deepEqual((await api('GET', '/v1/notification/')).body, { type: 'MISSING_ID' });
  });
});

describe('the webhook channel', () => {
  test('posts the notification as signed JSON', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const api = companies.hooks;
      const secret = 'hook-secret';
      await api('POST', '/v1/integration/notifications', {
        webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/portaria`,
        webhookSecret: secret,
      });
      const host = (await api('POST', '/v1/hosts', { name: 'Wendy', email: 'wendy@hooks.test' })).body;
      const visit = (await checkIn(api, host.id, { name: 'Hugh', company: null })).body;
      assert.equal((await settledQueue(api)).done, 1);
      assert.equal(received.length, 1);
      const [delivery] = received;
      const payload = JSON.parse(delivery?.body ?? '');
      assert.deepEqual(payload, {
        event: 'notification',
        kind: 'visit.checkin',
        lang: 'en',
        host: { id: host.id, name: 'Wendy', email: 'wendy@hooks.test', type: 'host' },
        subject: 'Your visitor Hugh has arrived',
        message: 'Hugh checked in at 11/20/26, 12:05 PM.',
        visitId: visit.id,
      });
      const expected = `sha256=${createHmac('sha256', secret)
        .update(delivery?.body ?? '')
        .digest('hex')}`;
      assert.equal(delivery?.headers['x-portaria-signature'], expected);
      assert.equal(delivery?.headers['x-portaria-delivery'], `checkin:${visit.id}:${host.id}:webhook`);
      assert.equal(delivery?.headers['content-type'], 'application/json');
    } finally {
      hook.close();
    }
  });
});
