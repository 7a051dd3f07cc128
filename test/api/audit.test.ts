import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { signedInPerson } from '../helpers/accounts.ts';
import { jpegBytes } from '../helpers/files.ts';
import {
  allowLoopback,
  type CreatedCompany,
  client,
  runCli,
  startService,
  succeeded,
  type TestService,
  tempDir,
} from '../helpers/service.ts';
import { withServiceDb } from '../helpers/store.ts';

let service: TestService;
let lobby: CreatedCompany;
let company: CreatedCompany;
let api: ReturnType<typeof client>;

before(async () => {
  // The webhooks and notification webhook these tests save point at loopback, which the owner allows here.
  service = await startService({ args: allowLoopback });
  // The first company made here enrols the kiosk and gets its first PIN: the audited one sets its own.
  lobby = await service.company('Lobby');
  company = await service.company('Audited Co');
  api = client(service.url, company.apiKey);
});
after(() => service.stop());

/** The id of the credential an API key is, as the database holds it (by the key's SHA-256). */
async function credentialOf(apiKey: string): Promise<string> {
  const hash = createHash('sha256').update(apiKey).digest();
  return await withServiceDb(
    service.dataDir,
    async (db) => ((await db.prepare('SELECT id FROM credentials WHERE keyHash = ?').get(hash)) as { id: string }).id,
  );
}

interface Entry {
  action: string;
  objectType: string | null;
  objectId: string | null;
  actorCredentialId: string | null;
  actorRole: string | null;
  details: Record<string, unknown>;
}

async function entries(): Promise<Entry[]> {
  const reply = await api('GET', '/v1/audit?limit=1000');
  assert.equal(reply.status, 200);
  return reply.body.entries;
}

const ok = (method: string, path: string, body?: unknown) => succeeded(api, method, path, body);

test('every staff and admin action, and every read of personal data, leaves an entry naming the credential', async () => {
  const credential = await credentialOf(company.apiKey);
  const host = await ok('POST', '/v1/hosts', { name: 'Dora Desk', email: 'dora@audited.test' });
  await ok('PATCH', '/v1/company', { name: 'Audited Company' });
  await ok('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
  await ok('POST', '/v1/kiosk/pin', { pin: '246810', ...(company.pin ? { currentPin: company.pin } : {}) });
  assert.equal((await api('POST', '/v1/kiosk/pin/verify', { pin: '000000' })).body.type, 'WRONG_PIN');
  const session = await ok('POST', '/v1/kiosk/frontdesk', { pin: '246810' });
  const atTheDesk = client(service.url, session.token);
  assert.equal((await atTheDesk('GET', '/v1/roster')).status, 200);
  assert.equal((await atTheDesk('DELETE', '/v1/kiosk/frontdesk')).status, 200);
  await ok('POST', '/v1/kiosk/frontdesk', { pin: '246810' });
  await ok('DELETE', '/v1/kiosk/pin');
  const reader = await ok('POST', '/v1/credentials', { role: 'readonly', label: 'Auditor' });
  await ok('DELETE', `/v1/credential/${reader.id}`);
  const hook = await ok('POST', '/v1/webhooks', { url: 'https://hooks.example.test/in', events: ['visit.deleted'] });
  await ok('PATCH', `/v1/webhook/${hook.id}`, { isActive: false });
  await ok('DELETE', `/v1/webhook/${hook.id}`);
  await ok('POST', '/v1/integration/notifications', { webhookUrl: 'http://127.0.0.1:9/notify-in' });
  assert.equal((await ok('POST', '/v1/integration/notifications/test', { channel: 'webhook' })).delivered, false);
  await ok('GET', '/v1/integration/notifications/deliveries');
  await ok('DELETE', '/v1/integration/notifications');
  const note = await ok('POST', '/v1/notifications', { type: 'delivery', message: 'A parcel', hosts: [host.id] });
  await ok('PATCH', `/v1/notification/${note.id}`, { message: 'Two parcels' });
  await ok('DELETE', `/v1/notification/${note.id}`);
  await ok('POST', '/v1/integration/access', { enabled: true, aesKey: 'audit-aes-secret', password: 'audit-pw' });
  await ok('DELETE', '/v1/integration/access');
  await ok('PUT', '/v1/privacy/retention', { retentionDays: 3650 });

  const visit = await ok('POST', '/v1/visits', {
    visit: { id: randomUUID() },
    visitor: { name: 'Vera Visitor', email: 'vera@visitor.test' },
    visitPicture: jpegBytes().toString('base64'),
  });
  const invitee = await ok('POST', '/v1/invitees', {
    name: 'Ian Invitee',
    email: 'ian@visitor.test',
    hostId: host.id,
    expectedAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await ok('PATCH', `/v1/visit/allow/${visit.id}`, { authorizedById: host.id });
  await ok('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutByHostId: host.id });
  await ok('GET', '/v1/visits');
  await ok('GET', `/v1/visit/${visit.id}`);
  const visitors = await ok('GET', '/v1/visitors');
  await ok('GET', `/v1/visitor/${visitors.visitors[0].id}`);
  await ok('GET', '/v1/invitees');
  await ok('GET', `/v1/invitee/${invitee.id}`);
  await ok('GET', '/v1/roster');
  await ok('GET', '/v1/blockedlist');
  await ok('GET', '/v1/visits/history');
  assert.equal((await api('GET', '/v1/visits/export')).status, 200);
  const picture = await api('GET', visit.pictureUrl);
  assert.equal(picture.status, 200);
  const signed = await fetch(`${service.url}${visit.pictureSignedUrl}`);
  assert.equal(signed.status, 200);
  await ok('POST', '/v1/privacy/export', { email: 'vera@visitor.test' });
  await ok('DELETE', `/v1/visit/${visit.id}`);
  await ok('POST', '/v1/privacy/erasure', { email: 'ian@visitor.test' });

  const log = await entries();
  const first = (action: string) => {
    const entry = log.find((e) => e.action === action);
    assert.ok(entry, `an entry for ${action}`);
    return entry;
  };
  const byKey = [
    'host.created',
    'company.updated',
    'kiosk.settings.updated',
    'kiosk.pin.set',
    'kiosk.pin.failed',
    'frontdesk.session.opened',
    'kiosk.pin.cleared',
    'frontdesk.sessions.ended',
    'key.revoked',
    'webhook.created',
    'webhook.updated',
    'webhook.deleted',
    'notifications.settings.updated',
    'notifications.channel.tested',
    'notifications.deliveries.read',
    'notifications.settings.deleted',
    'notification.created',
    'notification.updated',
    'notification.deleted',
    'access.updated',
    'access.deleted',
    'privacy.retention.updated',
    'visit.allowed',
    'visit.checkout',
    'visits.listed',
    'visit.read',
    'visitors.listed',
    'visitor.read',
    'invitees.listed',
    'invitee.read',
    'roster.read',
    'blocklist.listed',
    'visits.history.read',
    'visits.exported',
    'file.read',
    'privacy.exported',
    'visit.deleted',
    'invitee.deleted',
    'privacy.erased',
  ];
  const byTheKey = (action: string) => log.find((e) => e.action === action && e.actorCredentialId === credential);
  for (const action of byKey) assert.ok(byTheKey(action), `${action} names the key`);
  assert.equal(first('kiosk.pin.set').actorCredentialId, credential, 'a company not enrolled sets its own PIN');
  const lobbyLog = (await client(service.url, lobby.apiKey)('GET', '/v1/audit?limit=1000')).body.entries as Entry[];
  const lobbyPin = lobbyLog.find((e) => e.action === 'kiosk.pin.set');
  assert.equal(lobbyPin?.actorCredentialId, 'device-owner', 'the first PIN, set at enrolment, is the owner’s');
  assert.equal(lobbyPin?.actorRole, 'owner');
  assert.equal(first('visit.allowed').objectId, visit.id);
  assert.equal(first('webhook.deleted').objectId, hook.id);
  assert.equal(first('notification.deleted').objectId, note.id);
  assert.equal(first('invitee.read').objectId, invitee.id);
  assert.deepEqual(first('visits.listed').details, { size: 1 });
  assert.deepEqual(first('kiosk.pin.failed').details, { locked: false });
  const sessionEnded = first('frontdesk.session.ended');
  assert.equal(sessionEnded.actorRole, 'frontdesk', 'the session ends itself');
  assert.equal(sessionEnded.objectId, sessionEnded.actorCredentialId);
  assert.equal(first('frontdesk.session.opened').objectId, sessionEnded.objectId);
  assert.equal(log.find((e) => e.action === 'roster.read')?.actorCredentialId, sessionEnded.objectId, 'its reads');
  assert.deepEqual(first('frontdesk.sessions.ended').details, { sessions: 1 }, 'clearing the PIN ends the other');
  assert.deepEqual(
    log.filter((e) => e.objectId === reader.id).map((e) => [e.action, e.actorCredentialId]),
    [
      ['key.created', credential],
      ['key.revoked', credential],
    ],
  );

  const keyMade = log.find((e) => e.action === 'key.created' && e.objectId === credential) as Entry;
  assert.deepEqual(
    [keyMade.objectId, keyMade.actorCredentialId, keyMade.actorRole],
    [credential, 'device-owner', 'owner'],
  );
  const fileReads = log.filter((e) => e.action === 'file.read');
  assert.deepEqual(
    fileReads.map((e) => [e.objectType, e.actorCredentialId, e.actorRole]),
    [
      ['visit-picture', credential, 'admin'],
      ['visit-picture', null, 'signedLink'],
    ],
  );

  const text = JSON.stringify(log);
  for (const secret of ['audit-aes-secret', 'Vera Visitor', 'vera@visitor.test', 'Two parcels', 'notify-in']) {
    assert.equal(text.includes(secret), false, `${secret} is not in the audit log`);
  }
});

test('reads of the same thing by the same key within a minute make one entry', async () => {
  const before = (await entries()).filter((e) => e.action === 'visitors.listed').length;
  await ok('GET', '/v1/visitors');
  await ok('GET', '/v1/visitors');
  const after = (await entries()).filter((e) => e.action === 'visitors.listed').length;
  assert.equal(after, before, 'read a moment ago: not recorded again');
  const other = await service.company('Reader Co');
  const reader = client(service.url, other.apiKey);
  assert.equal((await reader('GET', '/v1/visitors')).status, 200);
  const theirs = (await reader('GET', '/v1/audit')).body.entries as Entry[];
  assert.deepEqual(
    theirs.filter((e) => e.action === 'visitors.listed').map((e) => e.actorCredentialId),
    [await credentialOf(other.apiKey)],
  );
});

test('reads are written together, stamped when they happened, and none is lost when the service stops', async () => {
  const own = await startService();
  try {
    const made = await own.company('Batch Co');
    const admin = client(own.url, made.apiKey);
    const visits = [];
    for (const name of ['Ana Um', 'Bia Dois', 'Caio Tres']) {
      visits.push(await succeeded(admin, 'POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name } }));
    }
    const startedAt = Date.now();
    for (const visit of visits) assert.equal((await admin('GET', `/v1/visit/${visit.id}`)).status, 200);
    await own.stop();
    const reads = await withServiceDb(
      own.dataDir,
      async (db) =>
        (await db.prepare("SELECT objectId, at FROM audit_log WHERE action = 'visit.read' ORDER BY id").all()) as {
          objectId: string;
          at: number;
        }[],
    );
    assert.deepEqual(
      reads.map((r) => r.objectId),
      visits.map((v) => v.id),
      'each read, written as the service stopped (no one listed the log)',
    );
    for (const read of reads) assert.ok(read.at >= startedAt - 1000 && read.at <= Date.now(), 'the time of the read');
  } finally {
    await own.stop();
  }
});

test('the audit log is append-only, even for someone holding the database file', async () => {
  await withServiceDb(
    service.dataDir,
    async (db) => {
      await assert.rejects(
        async () => await db.prepare('UPDATE audit_log SET action = ?').run('nothing'),
        /append-only/,
      );
      await assert.rejects(async () => await db.prepare('DELETE FROM audit_log').run(), /append-only/);
      // PostgreSQL empties a table without deleting its rows one by one (SQLite has no such statement).
      if (!db.sqlite) await assert.rejects(async () => await db.exec('TRUNCATE audit_log'), /append-only/);
    },
    { readonly: false },
  );
});

test('the command line records the keys it makes and the exports it writes', async () => {
  const made = await service.company('Cli Co');
  const exported = JSON.parse(
    await runCli(['privacy', 'export', '--data', service.dataDir, '--company', made.id, '--email', 'nobody@cli.test']),
  );
  assert.equal(exported.type, 'subjectAccess');
  const out = join(tempDir(), 'person.json');
  await runCli([
    'privacy',
    'export',
    '--data',
    service.dataDir,
    '--company',
    made.id,
    '--cpf',
    '529.982.247-25',
    '--out',
    out,
  ]);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).companyId, made.id);
  assert.equal(statSync(out).mode & 0o777, 0o600, 'readable by its owner only');
  await assert.rejects(
    async () =>
      await runCli(['privacy', 'export', '--data', service.dataDir, '--company', made.id, '--name', 'Only A Name']),
    /--name with --phone/,
  );
  const log = (await client(service.url, made.apiKey)('GET', '/v1/audit')).body.entries as Entry[];
  assert.deepEqual(
    log.map((e) => [e.action, e.objectId, `${e.actorCredentialId} as ${e.actorRole}`]),
    [
      ['key.created', await credentialOf(made.apiKey), 'device-owner as owner'],
      ['privacy.exported', null, 'device-owner as owner'],
      ['privacy.exported', null, 'device-owner as owner'],
    ],
  );
});

test('the log reads newest first page by page, narrowed to an action or to who acted, naming them', async () => {
  const made = await service.company('Paged Co');
  const call = client(service.url, made.apiKey);
  const admin = await credentialOf(made.apiKey);
  const host = await succeeded(call, 'POST', '/v1/hosts', { name: 'Paula Pager', email: 'paula@paged.test' });
  const keys = [];
  for (const label of ['First', 'Second', 'Third']) {
    keys.push(await succeeded(call, 'POST', '/v1/credentials', { role: 'readonly', label }));
  }
  await succeeded(call, 'DELETE', `/v1/credential/${keys[0].id}`);
  // The revoked reader's key made nothing; the host is named by a check-out they made.
  const visit = await succeeded(call, 'POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Val' } });
  await succeeded(call, 'PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutByHostId: host.id });

  const oldest = (await succeeded(call, 'GET', '/v1/audit?limit=1000')).entries as (Entry & { id: number })[];
  const first = await succeeded(call, 'GET', '/v1/audit?order=newest&limit=3');
  assert.deepEqual(
    first.entries.map((e: { id: number }) => e.id),
    oldest
      .map((e) => e.id)
      .reverse()
      .slice(0, 3),
  );
  const next = await succeeded(call, 'GET', `/v1/audit?order=newest&limit=3&before=${first.entries[2].id}`);
  assert.deepEqual(
    next.entries.map((e: { id: number }) => e.id),
    oldest
      .map((e) => e.id)
      .reverse()
      .slice(3, 6),
  );

  const created = (await succeeded(call, 'GET', '/v1/audit?order=newest&action=key.created')).entries;
  assert.deepEqual(
    created.map((e: Entry) => [e.objectId, e.actorCredentialId]),
    [...keys.map((key) => [key.id, admin]).reverse(), [admin, 'device-owner']],
  );
  assert.equal(created[0].actorLabel, (await succeeded(call, 'GET', `/v1/credential/${admin}`)).label);
  const revoked = await succeeded(call, 'GET', `/v1/audit?action=key.revoked&actor=${admin}`);
  assert.deepEqual(
    revoked.entries.map((e: Entry) => e.objectId),
    [keys[0].id],
  );
  const byHost = (await succeeded(call, 'GET', `/v1/audit?actor=${host.id}`)).entries;
  assert.deepEqual(
    byHost.map((e: Entry & { actorHostName: string }) => [e.action, e.actorHostName]),
    [['visit.checkout', 'Paula Pager']],
  );
  // A person signed in to the console is named by the entries of what they did.
  const person = await signedInPerson(service.url, made.apiKey, { role: 'ADMIN', name: 'Pia Person' });
  const theirs = await person.session.call('POST', '/v1/credentials', { role: 'readonly', label: 'Fourth' });
  const byPerson = (await succeeded(call, 'GET', `/v1/audit?order=newest&actor=${person.hostId}`)).entries;
  assert.deepEqual(
    byPerson.map((e: Entry & { actorHostName: string }) => [e.action, e.objectId, e.actorHostName]),
    [['key.created', theirs.body.id, 'Pia Person']],
  );
  // Narrowing adds to the list query's own field.
  const narrowed = await succeeded(
    call,
    'GET',
    `/v1/audit?action=key.created&queryKey=objectId&queryOp===&queryValue=${keys[1].id}`,
  );
  assert.deepEqual(
    narrowed.entries.map((e: Entry) => e.objectId),
    [keys[1].id],
  );
  for (const query of ['order=sideways', 'before=0', 'before=x', 'action=', 'actor=a&actor=b']) {
    const reply = await call('GET', `/v1/audit?${query}`);
    assert.deepEqual([reply.status, reply.body.type], [400, 'INVALID_PARAMETER'], query);
  }
});
