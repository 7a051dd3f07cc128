import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { allowLoopback, client, type Reply, startService, type TestService } from '../helpers/service.ts';
import { settledQueue, startSmtp, type TestSmtp } from '../helpers/smtp.ts';

let service: TestService;
let smtp: TestSmtp;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let door: ReturnType<typeof client>;
let alarm: ReturnType<typeof client>;
let hostId: string;

before(async () => {
  smtp = await startSmtp();
  service = await startService({ args: allowLoopback });
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  door = client(service.url, (await service.company('Door', 'America/Sao_Paulo')).apiKey);
  alarm = client(service.url, (await service.company('Alarm', 'America/Sao_Paulo')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' })).body.id;
});
after(async () => {
  await service.stop();
  await smtp.close();
});

const block = (body: Record<string, unknown>): Promise<Reply> => api('POST', '/v1/blockedlist', body);

const walkIn = (visitor: Record<string, unknown>) =>
  api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name: 'Someone', ...visitor } });

const invitation = async (company: ReturnType<typeof client>, fields: Record<string, unknown>) =>
  (await company('POST', '/v1/invitees', { ...fields, expectedAt: '2026-12-01T10:00:00' })).body as { id: string };

/** The company's e-mail goes to the test's SMTP server. */
const mailsTo = (company: ReturnType<typeof client>, emailFrom: string) =>
  company('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom,
  });

describe('/v1/blockedlist', () => {
  test('creates, reads, updates and deletes an entry (docs/api.md, "Blocklist")', async () => {
    const created = await block({
      name: 'Mallory',
      reason: 'Harassed the front desk',
      cpf: '529.982.247-25',
      email: 'mallory@evil.test',
      createdById: hostId,
      companyId: 'someone-else',
    });
    assert.equal(created.status, 200);
    const entry = created.body;
    assert.match(entry.id, /^[0-9a-f]{32}$/);
    assert.equal(entry.name, 'Mallory');
    assert.equal(entry.cpf, '529.982.247-25');
    assert.equal(entry.createdById, hostId);
    assert.equal(entry.deletedById, null);
    assert.notEqual(entry.companyId, 'someone-else', 'an entry belongs to the caller’s company');
    assert.equal('cpfKey' in entry, false, 'the comparison keys are not part of the object');
    assert.deepEqual((await api('GET', `/v1/blockedlist/${entry.id}`)).body, entry);

    const patched = await api('PATCH', `/v1/blockedlist/${entry.id}`, { reason: 'Trespassing', rg: '12.345.678-9' });
    assert.equal(patched.body.reason, 'Trespassing');
    assert.equal(patched.body.rg, '12.345.678-9');
    assert.equal(patched.body.email, 'mallory@evil.test');

    const list = await api('GET', '/v1/blockedlist?queryKey=name&queryOp===&queryValue=mallory');
    assert.equal(list.body.size, 1);
    assert.equal(list.body.blockedlist[0].id, entry.id);

    const removed = await api('DELETE', `/v1/blockedlist/${entry.id}`, { deletedById: hostId });
    assert.deepEqual(removed.body, { success: true });
    assert.equal((await api('GET', `/v1/blockedlist/${entry.id}`)).status, 404);
  });

  test('cpf must be a valid CPF; an entry needs something the door can compare', async () => {
    assert.deepEqual((await block({ name: 'X', cpf: '111.111.111-11' })).body, { type: 'INVALID_CPF' });
    assert.deepEqual((await block({ name: 'X', cpf: '123' })).body, { type: 'INVALID_CPF' });
    assert.deepEqual((await block({ name: 'X', email: 'nope' })).body, { type: 'INVALID_EMAIL' });
    const nameOnly = await block({ name: 'Only a name', reason: 'x' });
    assert.deepEqual([nameOnly.status, nameOnly.body], [400, { type: 'MISSING_IDENTIFIER' }]);
    const entry = (await block({ document: 'X1' })).body;
    const emptied = await api('PATCH', `/v1/blockedlist/${entry.id}`, { document: null });
    assert.deepEqual(emptied.body, { type: 'MISSING_IDENTIFIER' });
  });

  test('another company never sees an entry; list and item paths answer their errors', async () => {
    const entry = (await block({ phone: '+55 11 90000-0000' })).body;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(method, `/v1/blockedlist/${entry.id}`, method === 'PATCH' ? { name: 'x' } : undefined);
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
    }
    assert.equal((await other('GET', '/v1/blockedlist')).body.size, 0);
    for (const method of ['PATCH', 'DELETE']) {
      assert.deepEqual((await api(method, '/v1/blockedlist')).body, { type: 'MISSING_ID' }, method);
    }
    assert.deepEqual((await api('GET', '/v1/blockedlist?limit=1001')).body, { type: 'INVALID_LIMIT_VALUE' });
  });
});

describe('the blocklist at the door', () => {
  let doorHost: string;

  before(async () => {
    doorHost = (await door('POST', '/v1/hosts', { name: 'Hana Host', email: 'hana@door.test' })).body.id;
    for (const entry of [
      { name: 'By CPF', reason: 'Fraud', cpf: '529.982.247-25' },
      { name: 'By RG', rg: 'MG-12.345.678' },
      { name: 'By document', document: 'AB 123456' },
      { name: 'By e-mail', reason: 'Spam', email: 'Blocked@Evil.test' },
      { name: 'By phone', phone: '+55 (11) 98765-4321' },
    ]) {
      assert.equal((await door('POST', '/v1/blockedlist', entry)).status, 200);
    }
  });

  const checkIn = (visitor: Record<string, unknown>) =>
    door('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: doorHost },
      visitor: { name: 'Visitor', ...visitor },
    });

  test('a visitor matching an entry by any identifier, written any way, is BLOCKED and not let in', async () => {
    const matches: [Record<string, unknown>, string][] = [
      [{ cpf: '52998224725' }, 'CPF'],
      [{ document: '529.982.247-25' }, 'CPF'],
      [{ rg: 'mg 12345678' }, 'RG'],
      [{ document: 'ab-123.456' }, 'document'],
      [{ email: ' blocked@evil.TEST ' }, 'e-mail'],
      [{ phone: '11 98765 4321' }, 'phone'],
      [{ phone: '+5511987654321' }, 'phone'],
    ];
    for (const [visitor, field] of matches) {
      const { status, body } = await checkIn(visitor);
      assert.equal(status, 200, JSON.stringify(visitor));
      assert.equal(body.visitorStatus, 'BLOCKED', JSON.stringify(visitor));
      assert.equal(body.isInsideCompany, false, JSON.stringify(visitor));
      assert.match(body.statusNote, new RegExp(`^Blocklist match \\(${field}\\)`), JSON.stringify(visitor));
    }
    const withReason = (await checkIn({ cpf: '529.982.247-25' })).body;
    assert.equal(withReason.statusNote, 'Blocklist match (CPF): Fraud');
  });

  test('near misses are let in', async () => {
    for (const visitor of [
      { cpf: '111.444.777-35' },
      { email: 'blocked@evil.test.br' },
      { phone: '11 98765 4320' },
      { phone: '4321' },
      { rg: 'MG-12.345.679' },
      { name: 'By CPF', cpf: '111.444.777-35' },
    ]) {
      const { body } = await checkIn(visitor);
      assert.equal(body.visitorStatus, null, JSON.stringify(visitor));
      assert.equal(body.heldAtDoor, false, JSON.stringify(visitor));
      assert.equal(body.isInsideCompany, true, JSON.stringify(visitor));
    }
  });

  test('an invitee whose data matches is blocked at check-in too', async () => {
    const invitee = await invitation(door, { name: 'Invited Mallory', email: 'BLOCKED@evil.test', hostId: doorHost });
    const visit = (await door('POST', `/v1/visit/inviteeCheckin/${invitee.id}`)).body;
    assert.equal(visit.visitorStatus, 'BLOCKED');
    assert.equal(visit.isInsideCompany, false);
  });

  test('a deleted entry no longer blocks; the note follows the company’s language', async () => {
    const entry = (await door('POST', '/v1/blockedlist', { email: 'temp@evil.test', reason: 'Teste' })).body;
    await door('PATCH', '/v1/company', { lang: 'pt-BR' });
    assert.equal(
      (await checkIn({ email: 'temp@evil.test' })).body.statusNote,
      'Consta na lista de bloqueio (e-mail): Teste',
    );
    await door('PATCH', '/v1/company', { lang: 'de' });
    assert.equal((await checkIn({ email: 'temp@evil.test' })).body.statusNote, 'Auf der Sperrliste (E-Mail): Teste');
    await door('PATCH', '/v1/company', { lang: 'en' });
    await door('DELETE', `/v1/blockedlist/${entry.id}`);
    assert.equal((await checkIn({ email: 'temp@evil.test' })).body.visitorStatus, null);
  });

  test('entries of another company do not block', async () => {
    assert.equal((await walkIn({ cpf: '529.982.247-25' })).body.visitorStatus, null);
  });

  test("the company's SECURITY and FRONTDESK hosts are e-mailed; the visited host is not", async () => {
    const visited = (await alarm('POST', '/v1/hosts', { name: 'Vera', email: 'vera@alarm.test' })).body.id;
    await alarm('POST', '/v1/hosts', { name: 'Sam Security', email: 'sam@alarm.test', role: 'SECURITY' });
    await alarm('POST', '/v1/hosts', {
      name: 'Fran Desk',
      email: 'fran@alarm.test',
      role: 'frontDesk',
      preCheckinNotifications: false,
    });
    await alarm('POST', '/v1/hosts', { name: 'Manny', email: 'manny@alarm.test', role: 'MANAGER' });
    await mailsTo(alarm, 'kiosk@alarm.test');
    await alarm('POST', '/v1/blockedlist', { name: 'Mallory', reason: 'Stole a laptop', cpf: '529.982.247-25' });
    const visit = (
      await alarm('POST', '/v1/visits', {
        visit: { id: randomUUID(), hostId: visited },
        visitor: { name: 'Mallory M.', company: 'Evil Corp', cpf: '52998224725' },
      })
    ).body;
    assert.equal(visit.visitorStatus, 'BLOCKED');
    const mails = await smtp.waitFor(2);
    assert.deepEqual(mails.flatMap((m) => m.to).sort(), ['fran@alarm.test', 'sam@alarm.test']);
    for (const mail of mails) {
      assert.equal(mail.subject, 'Blocked visitor at the door: Mallory M. (Evil Corp)');
      assert.match(mail.text, /^Mallory M\. \(Evil Corp\) tried to check in at .+ and was not let in\./);
      assert.match(mail.text, /Blocklist match \(CPF\): Stole a laptop$/);
    }
    const queue = await settledQueue(alarm);
    assert.deepEqual([queue.done, queue.failed], [2, 0], 'nothing went to the visited host or the manager');
  });
});

describe('a name on the blocklist, with nothing to tell the visitor apart, is held for the front desk', () => {
  let hold: ReturnType<typeof client>;
  let visited: string;

  before(async () => {
    hold = client(service.url, (await service.company('Hold', 'America/Sao_Paulo')).apiKey);
    visited = (await hold('POST', '/v1/hosts', { name: 'Vitor', email: 'vitor@hold.test' })).body.id;
    await hold('POST', '/v1/hosts', { name: 'Sara Security', email: 'sara@hold.test', role: 'SECURITY' });
    await mailsTo(hold, 'kiosk@hold.test');
    const entry = {
      name: 'Márcia  Duarte',
      reason: 'Threatened staff',
      email: 'marcia@evil.test',
      phone: '11 98765-0000',
    };
    assert.equal((await hold('POST', '/v1/blockedlist', entry)).status, 200);
  });

  const checkIn = (visitor: Record<string, unknown>) =>
    hold('POST', '/v1/visits', { visit: { id: randomUUID(), hostId: visited }, visitor });

  const assertHeld = (visit: Record<string, unknown>, what: string) => {
    assert.equal(visit.heldAtDoor, true, what);
    assert.equal(visit.authorizationStatus, 'waiting', what);
    assert.equal(visit.visitorStatus, null, `${what}: held, not blocked`);
    assert.equal(visit.statusNote, 'Possible blocklist match (name only): Threatened staff', what);
  };

  test('a walk-in of the name (any case, accents, spacing) and no e-mail or phone waits, is not inside', async () => {
    const mailsBefore = smtp.mails.length;
    for (const visitor of [{ name: 'marcia duarte' }, { name: ' MÁRCIA DUARTE ', cpf: '529.982.247-25' }]) {
      const { status, body } = await checkIn(visitor);
      assert.equal(status, 200);
      assertHeld(body, JSON.stringify(visitor));
      const roster = (await hold('GET', '/v1/roster')).body;
      assert.equal(
        roster.inside.some((v: { id: string }) => v.id === body.id),
        false,
        'not inside',
      );
      assert.equal(
        roster.waiting.some((v: { id: string }) => v.id === body.id),
        true,
        'waiting for the desk',
      );
    }
    const mails = await smtp.waitFor(mailsBefore + 2);
    const held = mails.slice(mailsBefore);
    assert.deepEqual(
      held.flatMap((m) => m.to),
      ['sara@hold.test', 'sara@hold.test'],
      'the door, not the host',
    );
    assert.equal(held[0]?.subject, 'Visitor held at the door: marcia duarte');
  });

  test('an identifier of a kind the entry has tells a namesake apart; another name is let in', async () => {
    for (const visitor of [
      { name: 'Marcia Duarte', email: 'marcia.duarte@good.test' },
      { name: 'Marcia Duarte', phone: '21 91234-5678' },
      { name: 'Marcia Duartes' },
    ]) {
      const { body } = await checkIn(visitor);
      assert.equal(body.heldAtDoor, false, JSON.stringify(visitor));
      assert.equal(body.authorizationStatus, null, JSON.stringify(visitor));
      assert.equal(body.isInsideCompany, true, JSON.stringify(visitor));
    }
    assert.equal((await checkIn({ name: 'Marcia Duarte', email: 'MARCIA@evil.test' })).body.visitorStatus, 'BLOCKED');
  });

  test('an invitee of the name, with only a kind of identifier the entry lacks, is held at check-in', async () => {
    const invitee = await invitation(hold, { name: 'Marcia Duarte', document: 'RG 77', hostId: visited });
    const { status, body } = await hold('POST', `/v1/visit/inviteeCheckin/${invitee.id}`);
    assert.equal(status, 200);
    assertHeld(body, 'invitee');
  });

  test('the desk decides: allowed, the visitor is inside', async () => {
    const visit = (await checkIn({ name: 'Marcia Duarte' })).body;
    await hold('PATCH', `/v1/visit/allow/${visit.id}`, {});
    const roster = (await hold('GET', '/v1/roster')).body;
    assert.equal(
      roster.inside.some((v: { id: string }) => v.id === visit.id),
      true,
    );
  });
});
