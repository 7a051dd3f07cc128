import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { csvCell } from '../../local-api/visit-log/csv.ts';
import { pngBytes } from '../helpers/files.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let service: TestService;
let smtp: TestSmtp;
type Api = ReturnType<typeof client>;
let api: Api;
let other: Api;
let hostId: string;

before(async () => {
  smtp = await startSmtp();
  service = await startService({ args: allowLoopback });
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  other = client(service.url, (await service.company('Other', 'UTC')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).body.id;
});
after(async () => {
  await service?.stop();
  await smtp?.close();
});

const walkIn = async (visitor: Record<string, unknown>, visit: Record<string, unknown> = {}) => {
  const reply = await api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId, ...visit }, visitor });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
};

describe('the roster', () => {
  test('inside now is checked in, not out, and let in; waiting ones apart; one row per person', async () => {
    const inside = await walkIn({ name: 'Ana Souza', company: 'Initech' });
    const waiting = await walkIn({ name: 'Bruno Waits' }, { authorizationStatus: 'AWAITING' });
    const denied = await walkIn({ name: 'Caio Denied' }, { authorizationStatus: 'AWAITING' });
    await api('PATCH', `/v1/visit/deny/${denied.id}`, {});
    const out = await walkIn({ name: 'Dora Left' });
    await api('PATCH', `/v1/visit/checkout/${out.id}`, {});
    await api('POST', '/v1/blockedlist', { name: 'Eva Blocked', email: 'eva@blocked.test', reason: 'test' });
    await walkIn({ name: 'Eva Blocked', email: 'eva@blocked.test' });
    const repeats = [];
    for (let i = 0; i < 4; i++) repeats.push(await walkIn({ name: i % 2 ? 'fábio  REPEAT' : 'Fábio Repeat' }));
    await walkIn({ name: 'Fábio Repeat', company: 'Another firm' });

    const { status, body } = await api('GET', '/v1/roster');
    assert.equal(status, 200);
    const names = body.inside.map((v: { name: string }) => v.name).sort();
    assert.deepEqual(names, ['Ana Souza', 'Fábio Repeat', 'fábio  REPEAT'].sort());
    const repeated = body.inside.find((v: { duplicateVisits: unknown[] }) => v.duplicateVisits.length > 0);
    assert.equal(repeated.id, repeats[3]?.id, 'the latest check-in is the row');
    assert.deepEqual(
      repeated.duplicateVisits.map((d: { id: string }) => d.id),
      repeats
        .slice(0, 3)
        .reverse()
        .map((r) => r.id),
    );
    assert.deepEqual(
      body.waiting.map((v: { id: string }) => v.id),
      [waiting.id],
    );
    assert.equal(body.inside.find((v: { id: string }) => v.id === inside.id)?.host.name, 'Helena Dias');
    assert.deepEqual((await other('GET', '/v1/roster')).body.inside, [], 'scoped to the company');
  });

  test('different names sharing an e-mail are different people; the same person checked in twice is one row', async () => {
    const team = [];
    for (let i = 0; i < 3; i++) team.push(await walkIn({ name: `Team Member ${i}`, email: 'team@globex.test' }));
    const first = await walkIn({ name: 'Rita Twice', email: 'rita@globex.test' });
    const second = await walkIn({ name: 'RITA twice', email: 'Rita@Globex.test' });
    const namesake = await walkIn({ name: 'Rita Twice', email: 'other.rita@globex.test' });

    const { body } = await api('GET', '/v1/roster');
    const row = (id: string) => body.inside.find((v: { id: string }) => v.id === id);
    for (const member of team) assert.deepEqual(row(member.id)?.duplicateVisits, [], 'each colleague is a row');
    assert.deepEqual(
      row(second.id)?.duplicateVisits.map((d: { id: string }) => d.id),
      [first.id],
    );
    assert.deepEqual(row(namesake.id)?.duplicateVisits, [], 'a namesake with another e-mail is another person');
  });
});

describe('the visit log', () => {
  test('searches the days asked, newest first; bad input is a clear error', async () => {
    await walkIn({ name: 'Gil Searched', company: 'Umbrella Corp', email: 'gil@umbrella.test' });
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
    const all = (await api('GET', '/v1/visits/history')).body;
    assert.ok(all.size >= 10);
    const found = await api('GET', `/v1/visits/history?from=${today}&to=${today}&search=umbrella`);
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.visits.map((v: { name: string }) => v.name),
      ['Gil Searched'],
    );
    assert.equal((await api('GET', '/v1/visits/history?search=helena%20d')).body.size, all.size, 'host name');
    assert.equal((await api('GET', '/v1/visits/history?search=%25')).body.size, 0, 'LIKE wildcards are literal');
    assert.equal((await api('GET', '/v1/visits/history?from=2020-01-01&to=2020-01-31')).body.size, 0);
    assert.equal((await api('GET', '/v1/visits/history?limit=2')).body.size, 2);
    for (const [query, field] of [
      ['from=yesterday', 'from'],
      ['from=2026-02-31', 'from'],
      ['from=2026-03-02&to=2026-03-01', 'to'],
      ['from=2020-01-01&to=2026-01-01', 'to'],
      [`search=${'x'.repeat(201)}`, 'search'],
    ]) {
      const reply = await api('GET', `/v1/visits/history?${query}`);
      assert.deepEqual([reply.status, reply.body], [400, { type: 'INVALID_PARAMETER', field }], query);
    }
    assert.equal((await api('GET', '/v1/visits/history?limit=0')).body.type, 'INVALID_LIMIT_VALUE');
    assert.equal((await other('GET', '/v1/visits/history')).body.size, 0);
  });

  test('exports CSV that a spreadsheet opens as text, formulas defused', async () => {
    await walkIn({ name: '=HYPERLINK("http://evil.test","click")', company: '+SUM(A1:A9)' });
    await walkIn({ name: '@cmd', company: 'Quote "Inc", Ltd' });
    const response = await fetch(`${service.url}/v1/visits/export?search=cmd`, {
      headers: { authorization: `Bearer ${(await service.company('Csv', 'UTC')).apiKey}` },
    });
    assert.equal(response.status, 200);
    const csvResponse = await api('GET', '/v1/visits/export');
    assert.equal(csvResponse.status, 200);
    assert.match(csvResponse.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csvResponse.headers.get('content-disposition') ?? '', /^attachment; filename="visits-/);
    const text = String(csvResponse.body);
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    assert.match(lines[0] ?? '', /^"Check-in","Check-out","Name","Company"/);
    assert.ok(text.includes(`"'=HYPERLINK(""http://evil.test"",""click"")","'+SUM(A1:A9)"`));
    assert.ok(text.includes(`"'@cmd","Quote ""Inc"", Ltd"`));
    assert.ok(!/(^|,)"[=+@-]/m.test(text.replace(/"Check-in"/, '')), 'no cell starts a formula');
    assert.ok(text.includes('"Helena Dias"'));
    assert.equal(csvCell('-1'), `"'-1"`);
    assert.equal(csvCell('\tx'), `"'\tx"`);
    assert.equal(csvCell(null), '""');
    const bad = await api('GET', '/v1/visits/export?from=nope');
    assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_PARAMETER', field: 'from' }]);
  });
});

describe('notifications from the front desk', () => {
  test('a test message goes through the real SMTP server; a dead server is reported, not thrown', async () => {
    const none = await api('POST', '/v1/integration/notifications/test', { channel: 'email', to: 'a@b.test' });
    assert.deepEqual([none.status, none.body], [409, { type: 'CHANNEL_NOT_CONFIGURED' }]);
    await api('POST', '/v1/integration/notifications', {
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpSecurity: 'none',
      emailFrom: 'reception@acme.test',
    });
    const missing = await api('POST', '/v1/integration/notifications/test', { channel: 'email' });
    assert.deepEqual(missing.body, { type: 'INVALID_PARAMETER', field: 'to' });
    const sent = await api('POST', '/v1/integration/notifications/test', { channel: 'email', to: 'desk@acme.test' });
    assert.deepEqual(sent.body, { channel: 'email', delivered: true, error: null });
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail?.to, ['desk@acme.test']);
    assert.equal(mail?.subject, 'Portaria: test message');

    await api('POST', '/v1/integration/notifications', { smtpPort: 9 });
    const failed = await api('POST', '/v1/integration/notifications/test', { channel: 'email', to: 'desk@acme.test' });
    assert.equal(failed.body.delivered, false);
    // The company learns that its server did not answer, not the network's detail (docs/security.md).
    assert.equal(failed.body.error, 'cannot reach SMTP 127.0.0.1:9');
  });

  test('deliveries list the queue: each message to a host with its state', async () => {
    await api('POST', '/v1/integration/notifications', { smtpPort: smtp.port });
    const before = smtp.mails.length;
    await walkIn({ name: 'Ivo Notified' });
    await smtp.waitFor(before + 1);
    let rows: { hostName: string; status: string; channel: string; subject: string }[] = [];
    for (let i = 0; i < 100; i++) {
      rows = (await api('GET', '/v1/integration/notifications/deliveries?limit=5')).body.deliveries;
      if (rows[0]?.status === 'done') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(rows[0]?.hostName, 'Helena Dias');
    assert.equal(rows[0]?.channel, 'email');
    assert.equal(rows[0]?.status, 'done');
    assert.match(rows[0]?.subject ?? '', /Ivo Notified/);
    assert.deepEqual((await other('GET', '/v1/integration/notifications/deliveries')).body.deliveries, []);
  });
});

describe('the logo', () => {
  test('an uploaded logo is served by the service without a key; replacing it deletes the old one', async () => {
    const png = pngBytes(4);
    const saved = await api('PUT', '/v1/company/logo', { picture: `data:image/png;base64,${png.toString('base64')}` });
    assert.equal(saved.status, 200);
    assert.match(saved.body.pictureUrl, /^\/v1\/logo\/[0-9a-f]{32}\.png$/);
    const logo = await fetch(service.url + saved.body.pictureUrl);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await logo.arrayBuffer()), png);

    const replaced = await api('PUT', '/v1/company/logo', { picture: png.toString('base64') });
    assert.notEqual(replaced.body.pictureUrl, saved.body.pictureUrl);
    assert.equal((await fetch(service.url + saved.body.pictureUrl)).status, 404);
    assert.equal((await api('GET', '/v1/company')).body.pictureUrl, replaced.body.pictureUrl);

    const notPicture = await api('PUT', '/v1/company/logo', { picture: Buffer.from('<svg/>').toString('base64') });
    assert.deepEqual([notPicture.status, notPicture.body], [400, { type: 'INVALID_PICTURE', field: 'picture' }]);
    const none = await api('PUT', '/v1/company/logo', {});
    assert.equal(none.body.type, 'INVALID_PICTURE');

    const removed = await api('DELETE', '/v1/company/logo');
    assert.equal(removed.body.pictureUrl, null);
    assert.equal((await fetch(service.url + replaced.body.pictureUrl)).status, 404);
    assert.equal((await fetch(`${service.url}/v1/logo/../../device.json`)).status, 404);
  });

  test("a visitor's picture is never served as a logo", async () => {
    const visit = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId },
      visitor: { name: 'Pic Visitor' },
      visitPicture: pngBytes(3).toString('base64'),
    });
    const name = String(visit.body.pictureUrl).split('/').pop();
    assert.equal((await fetch(`${service.url}/v1/logo/${name}`)).status, 404);
  });
});

describe('company content in every language', () => {
  test('dropdown options per language: answers store the option and carry each language label', async () => {
    const field = await api('POST', '/v1/customfields', {
      name: 'Purpose',
      type: 'Dropdown',
      options: ['Meeting', 'Delivery'],
      localizedName: { 'pt-BR': 'Motivo', de: 'Zweck' },
      localizedOptions: { 'pt-BR': ['Reunião', 'Entrega'], de: ['Besprechung', ''] },
    });
    assert.equal(field.status, 200, JSON.stringify(field.body));
    assert.deepEqual(field.body.localizedOptions, { 'pt-BR': ['Reunião', 'Entrega'], de: ['Besprechung', ''] });
    const wrongLength = await api('PATCH', `/v1/customfield/${field.body.id}`, { localizedOptions: { de: ['x'] } });
    assert.deepEqual(wrongLength.body, { type: 'INVALID_PARAMETER', field: 'localizedOptions' });

    const visit = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId, customFields: [{ customFieldId: field.body.id, value: 'Meeting' }] },
      visitor: { name: 'Lia Lang' },
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    assert.deepEqual(visit.body.customFields[0].localizedValue, { 'pt-BR': 'Reunião', de: 'Besprechung' });

    // New options without labels: the old labels named other options, so they go.
    const changed = await api('PATCH', `/v1/customfield/${field.body.id}`, { options: ['Interview', 'Meeting'] });
    assert.deepEqual(changed.body.localizedOptions, {});
    const kept = await api('PATCH', `/v1/customfield/${field.body.id}`, {
      localizedOptions: { 'zh-Hans': ['面试', '会议'] },
    });
    assert.deepEqual(kept.body.localizedOptions, { 'zh-Hans': ['面试', '会议'] });
    assert.deepEqual(
      (await api('PATCH', `/v1/customfield/${field.body.id}`, { required: true })).body.localizedOptions,
      {
        'zh-Hans': ['面试', '会议'],
      },
    );
  });

  test('the agreement per language merges language by language; empty falls back to ndaText', async () => {
    const first = await api('PATCH', '/v1/kiosk/settings', {
      ndaText: 'Keep it confidential.',
      localizedNdaText: { 'pt-BR': 'Mantenha sigilo.', de: 'Vertraulich.' },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await api('PATCH', '/v1/kiosk/settings', { localizedNdaText: { de: '', 'zh-Hans': '保密。' } });
    assert.deepEqual(second.body.localizedNdaText, { 'pt-BR': 'Mantenha sigilo.', 'zh-Hans': '保密。' });
    assert.equal(second.body.ndaText, 'Keep it confidential.');
    const bad = await api('PATCH', '/v1/kiosk/settings', { localizedNdaText: { fr: 'x', de: 5 } });
    assert.equal(bad.status, 400);
  });
});
