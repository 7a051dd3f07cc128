import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';
import { storedBytes, withServiceDb } from '../helpers/store.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let audited: ReturnType<typeof client>;
let hostId: string;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  audited = client(service.url, (await service.company('Audited')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena Host', email: 'helena@acme.test' })).body.id;
});
after(() => service.stop());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

async function walkIn(as: ReturnType<typeof client>, visitor: Record<string, unknown>, visit: object = {}) {
  const reply = await as('POST', '/v1/visits', { visit: { id: randomUUID(), ...visit }, visitor });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
}

async function invite(as: ReturnType<typeof client>, invitee: Record<string, unknown>) {
  const reply = await as('POST', '/v1/invitees', { hostId, expectedAt: daysAgo(-1), ...invitee });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
}

/** What the database holds, as bytes (on SQLite the file and its WAL: what a copied disk would give away). */
const databaseBytes = async () => await storedBytes(service.dataDir);

const auditOf = async (as: ReturnType<typeof client>, query = '') => {
  const reply = await as('GET', `/v1/audit?limit=1000${query}`);
  assert.equal(reply.status, 200);
  return (
    reply.body.entries as {
      action: string;
      objectId: string | null;
      actorHostId: string | null;
      details: Record<string, unknown>;
    }[]
  ).filter((entry) => entry.action !== 'key.created');
};

/** An erasure's answer: the counts given, zero for the others. */
const erasure = (counts: Record<string, number>) => ({
  type: 'erasure',
  visits: 0,
  invitees: 0,
  visitors: 0,
  blocklist: 0,
  files: 0,
  meetings: 0,
  notifications: 0,
  deliveries: 0,
  ...counts,
});

describe('retention', () => {
  test('GET answers the default: kept until erased', async () => {
    const reply = await other('GET', '/v1/privacy/retention');
    assert.deepEqual(reply.body, { type: 'retention', retentionDays: null, lastSweepAt: null, updatedAt: null });
  });

  test('PUT refuses what is not a number of days', async () => {
    for (const body of [
      {},
      { retentionDays: 0 },
      { retentionDays: -3 },
      { retentionDays: 1.5 },
      { retentionDays: 'x' },
    ]) {
      const reply = await api('PUT', '/v1/privacy/retention', body);
      assert.deepEqual([reply.status, reply.body], [400, { type: 'INVALID_PARAMETER', field: 'retentionDays' }]);
    }
    const tooLong = await api('PUT', '/v1/privacy/retention', { retentionDays: 36_501 });
    assert.equal(tooLong.status, 400);
  });

  test('PUT applies the retention at once: older visits and invitees lose their data, with an audit entry', async () => {
    const old = await walkIn(
      api,
      { name: 'Olga Old', email: 'olga.retention@visitor.test' },
      { checkinAt: daysAgo(40) },
    );
    const recent = await walkIn(api, { name: 'Rita Recent' }, { checkinAt: daysAgo(10) });
    const oldInvitee = await invite(api, {
      name: 'Ivo Old',
      email: 'ivo.retention@visitor.test',
      expectedAt: daysAgo(45),
    });
    const futureInvitee = await invite(api, { name: 'Fabio Future', email: 'fabio@visitor.test' });
    const otherOld = await walkIn(other, { name: 'Otto Other' }, { checkinAt: daysAgo(400) });

    const reply = await api('PUT', '/v1/privacy/retention', { retentionDays: 30 });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.retentionDays, 30);
    assert.match(reply.body.lastSweepAt, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual((await api('GET', '/v1/privacy/retention')).body, reply.body);

    assert.equal((await api('GET', `/v1/visit/${old.id}`)).status, 404);
    assert.equal((await api('GET', `/v1/invitee/${oldInvitee.id}`)).status, 404);
    assert.equal((await api('GET', `/v1/visit/${recent.id}`)).status, 200);
    assert.equal((await api('GET', `/v1/invitee/${futureInvitee.id}`)).status, 200);
    assert.equal((await other('GET', `/v1/visit/${otherOld.id}`)).status, 200, "another company's retention");

    const row = await withServiceDb(
      service.dataDir,
      async (db) => (await db.prepare('SELECT * FROM visits WHERE id = ?').get(old.id)) as Record<string, unknown>,
    );
    assert.equal(row.name, null);
    assert.equal(row.email, null);
    assert.notEqual(row.deletedAt, null);
    assert.equal(
      (await databaseBytes()).includes('olga.retention@visitor.test'),
      false,
      'not in the database (nor the WAL)',
    );

    const entries = await auditOf(api, '&queryKey=action&queryOp===&queryValue=privacy.retention.swept');
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0]?.details, {
      retentionDays: 30,
      visits: 1,
      invitees: 1,
      visitors: 1,
      files: 0,
      meetings: 0,
      notifications: 0,
      jobs: 0,
    });
    assert.equal((await auditOf(api, '&queryKey=action&queryOp===&queryValue=privacy.retention.updated')).length, 1);

    const off = await api('PUT', '/v1/privacy/retention', { retentionDays: null });
    assert.equal(off.body.retentionDays, null);
  });
});

describe('erasure', () => {
  test('erases every invitee and visit of a person by e-mail, CPF or document, in one company only', async () => {
    const email = 'erin.erased@visitor.test';
    const invitee = await invite(api, { name: 'Erin Erased', email });
    const fromInvitee = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {});
    assert.equal(fromInvitee.status, 200);
    const walkInSameEmail = await walkIn(api, { name: 'Erin E.', email: email.toUpperCase() });
    const byCpf = await walkIn(api, { name: 'Carla Cpf', cpf: '529.982.247-25' });
    const byDocument = await walkIn(api, { name: 'Davi Doc', document: 'RG 12.345.678-9' });
    const bystander = await walkIn(api, { name: 'Bia Bystander', email: 'bia@visitor.test' });
    const elsewhere = await walkIn(other, { name: 'Erin at Globex', email });

    const reply = await api('POST', '/v1/privacy/erasure', { email });
    assert.deepEqual([reply.status, reply.body], [200, erasure({ visits: 2, invitees: 1, visitors: 1 })]);
    for (const path of [
      `/v1/invitee/${invitee.id}`,
      `/v1/visit/${fromInvitee.body.id}`,
      `/v1/visit/${walkInSameEmail.id}`,
    ]) {
      assert.equal((await api('GET', path)).status, 404, path);
    }
    assert.equal((await api('GET', `/v1/visit/${bystander.id}`)).status, 200);
    assert.equal((await other('GET', `/v1/visit/${elsewhere.id}`)).body.email, email, "another company's visitor");

    const cpf = await api('POST', '/v1/privacy/erasure', { cpf: '52998224725' });
    assert.deepEqual(cpf.body, erasure({ visits: 1, visitors: 1 }), 'CPF digits match punctuated');
    assert.equal((await api('GET', `/v1/visit/${byCpf.id}`)).status, 404);
    const document = await api('POST', '/v1/privacy/erasure', { document: ' RG 12.345.678-9 ' });
    assert.equal(document.body.visits, 1);
    assert.equal((await api('GET', `/v1/visit/${byDocument.id}`)).status, 404);

    const again = await api('POST', '/v1/privacy/erasure', { email });
    assert.deepEqual(again.body, erasure({}), 'nothing left to erase');

    const stored = await databaseBytes();
    for (const gone of ['Erin Erased', 'Erin E.', 'Carla Cpf', '529.982.247-25', 'RG 12.345.678-9']) {
      assert.equal(stored.includes(gone), false, `${gone} is not in the database (nor its WAL)`);
    }

    const entries = await auditOf(api, '&queryKey=action&queryOp===&queryValue=privacy.erased');
    assert.deepEqual(
      entries.map((e) => [e.details.visits, e.details.invitees]),
      [
        [2, 1],
        [1, 0],
        [1, 0],
        [0, 0],
      ],
    );
    const deletions = await auditOf(api, `&queryKey=objectId&queryOp===&queryValue=${walkInSameEmail.id}`);
    assert.deepEqual(
      deletions.map((e) => e.action),
      ['visit.deleted'],
    );
  });

  test('answers MISSING_IDENTIFIER, INVALID_EMAIL and INVALID_CPF', async () => {
    assert.deepEqual((await api('POST', '/v1/privacy/erasure', {})).body, { type: 'MISSING_IDENTIFIER' });
    assert.deepEqual((await api('POST', '/v1/privacy/erasure', { document: '  ' })).body.type, 'INVALID_PARAMETER');
    assert.deepEqual((await api('POST', '/v1/privacy/erasure', { email: 'nope' })).body, { type: 'INVALID_EMAIL' });
    assert.deepEqual((await api('POST', '/v1/privacy/erasure', { cpf: '111.111.111-11' })).body, {
      type: 'INVALID_CPF',
    });
  });
});

describe('audit log', () => {
  test('records check-outs, allow/deny, deletes and settings changes, not check-ins, for its own company only', async () => {
    const host = (await audited('POST', '/v1/hosts', { name: 'Dora Desk', email: 'dora@audited.test' })).body;
    const visit = await walkIn(audited, { name: 'Vera Visitor' });
    await audited('PATCH', `/v1/visit/allow/${visit.id}`, { authorizedById: host.id });
    await audited('PATCH', `/v1/visit/deny/${visit.id}`, {});
    await audited('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutByHostId: host.id });
    await audited('DELETE', `/v1/visit/${visit.id}`);
    await audited('POST', '/v1/integration/access', {
      enabled: true,
      aesKey: 'audit-aes-secret',
      password: 'audit-pw-secret',
    });
    await audited('DELETE', '/v1/integration/access');

    const entries = await auditOf(audited);
    assert.deepEqual(
      entries.map((e) => [e.action, e.objectId, e.actorHostId]),
      [
        ['host.created', host.id, null],
        ['visit.allowed', visit.id, host.id],
        ['visit.denied', visit.id, null],
        ['visit.checkout', visit.id, host.id],
        ['visit.deleted', visit.id, null],
        ['access.updated', null, null],
        ['access.deleted', null, null],
      ],
    );
    assert.deepEqual(entries[5]?.details, {
      enabled: true,
      qrcodeDuration: 30,
      totpEnabled: false,
      staticVisitorQRCode: false,
    });
    const text = JSON.stringify(entries);
    for (const secret of ['audit-aes-secret', 'audit-pw-secret', 'Vera Visitor'])
      assert.equal(text.includes(secret), false);

    const page = await audited('GET', '/v1/audit?limit=2&offset=2');
    assert.deepEqual(
      page.body.entries.map((e: { action: string }) => e.action),
      ['visit.allowed', 'visit.denied'],
    );
    assert.equal(page.body.size, 2);
    assert.equal((await audited('GET', '/v1/audit?limit=0')).body.type, 'INVALID_LIMIT_VALUE');
    assert.equal(
      (await audited('GET', '/v1/audit?queryKey=details&queryOp===&queryValue=1')).body.type,
      'INVALID_QUERY_KEY',
    );
    assert.ok(!JSON.stringify(await auditOf(other)).includes(visit.id), 'another company sees none of it');
  });
});
