import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type Person, type Session, signedInPerson } from '../helpers/accounts.ts';
import { pngBytes } from '../helpers/files.ts';
import { client, type Reply, startService, type TestService } from '../helpers/service.ts';

/*
 * A person's own guests (docs/security.md, "People's roles"), over HTTP on the suite's engine: a `host` session
 * (HOST and EMPLOYEE people) sees and changes only its own invitees, meetings, visits, files, day and visit log;
 * the desk and the admin see everyone's; a manager reads everything and changes only their own guests; security
 * works the desk for everyone.
 */

let service: TestService;
let admin: ReturnType<typeof client>;
let ana: Person & { session: Session };
let bruno: Person & { session: Session };
let manager: Person & { session: Session };
let security: Person & { session: Session };
let frontdesk: Person & { session: Session };

/** What the admin made for each of the two hosts: an invitee, a visit with a picture, and meetings. */
const made = {
  anaInvitee: '',
  brunoInvitee: '',
  anaVisit: '',
  brunoVisit: '',
  anaPicture: '',
  brunoPicture: '',
  /** Bruno's, with Ana as a co-host. */
  sharedMeeting: '',
  /** Bruno's alone. */
  brunoMeeting: '',
};

const ok = (reply: Reply, what: string) => {
  assert.equal(reply.status, 200, `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
};
const refused = (reply: Reply, status: number, type: string, what: string) =>
  assert.deepEqual([reply.status, reply.body?.type], [status, type], `${what}: ${JSON.stringify(reply.body)}`);

const today = new Date().toISOString().slice(0, 10);

const inviteFor = (hostId: string, name: string) => ({
  hostId,
  name,
  email: `${name.toLowerCase().replace(/\W/g, '.')}@guest.test`,
  expectedAt: `${today}T15:00:00`,
  sendInvitationEmail: false,
});

const meetingOf = (hostId: string, title: string, coHosts: string[] = []) => ({
  title,
  hostId,
  coHosts,
  guests: [],
  start: `${today}T16:00:00`,
  end: `${today}T17:00:00`,
  location: 'Room 1',
  type: 'MEETING',
  sendInvitationEmail: false,
});

async function walkIn(hostId: string, name: string): Promise<{ id: string; pictureUrl: string }> {
  const body = ok(
    await admin('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId },
      visitor: { name, company: 'Guests Inc' },
      visitPicture: pngBytes().toString('base64'),
    }),
    `walk-in of ${name}`,
  );
  return { id: body.id, pictureUrl: body.pictureUrl };
}

before(async () => {
  service = await startService();
  const company = await service.company('Acme', 'UTC');
  admin = client(service.url, company.apiKey);
  const person = (role: Person['role'], name: string) => signedInPerson(service.url, company.apiKey, { role, name });
  [ana, bruno, manager, security, frontdesk] = await Promise.all([
    person('HOST', 'Ana Host'),
    person('EMPLOYEE', 'Bruno Employee'),
    person('MANAGER', 'Marta Manager'),
    person('SECURITY', 'Sergio Security'),
    person('FRONTDESK', 'Fabia Frontdesk'),
  ]);
  made.anaInvitee = ok(await admin('POST', '/v1/invitees', inviteFor(ana.hostId, 'Alice Guest')), 'invitee').id;
  made.brunoInvitee = ok(await admin('POST', '/v1/invitees', inviteFor(bruno.hostId, 'Boris Guest')), 'invitee').id;
  const anaVisit = await walkIn(ana.hostId, 'Amelia Visitor');
  const brunoVisit = await walkIn(bruno.hostId, 'Bernardo Visitor');
  made.anaVisit = anaVisit.id;
  made.anaPicture = anaVisit.pictureUrl;
  made.brunoVisit = brunoVisit.id;
  made.brunoPicture = brunoVisit.pictureUrl;
  made.sharedMeeting = ok(
    await admin('POST', '/v1/meetings', meetingOf(bruno.hostId, 'Shared', [ana.hostId])),
    'meeting',
  ).id;
  made.brunoMeeting = ok(await admin('POST', '/v1/meetings', meetingOf(bruno.hostId, 'Private')), 'meeting').id;
});
after(() => service.stop());

const ids = (list: { id: string }[]) => list.map((row) => row.id).sort();

describe('a host person', () => {
  test("lists and reads only their own invitees; another host's answers 404, as another company's", async () => {
    const call = ana.session.call;
    assert.deepEqual(ids(ok(await call('GET', '/v1/invitees'), 'list').invitees), [made.anaInvitee]);
    const searched = await call('GET', '/v1/invitees?queryKey=name&queryOp===&queryValue=Boris%20Guest');
    assert.equal(ok(searched, 'search').size, 0);
    const byHost = await call('GET', `/v1/invitees?queryKey=hostName&queryOp===&queryValue=${bruno.name}`);
    assert.equal(ok(byHost, 'by host name').size, 0);
    ok(await call('GET', `/v1/invitee/${made.anaInvitee}`), 'own');
    const other = `/v1/invitee/${made.brunoInvitee}`;
    refused(await call('GET', other), 404, 'NOT_FOUND', 'read');
    refused(await call('PATCH', other, { name: 'Taken' }), 404, 'NOT_FOUND', 'update');
    refused(await call('POST', `${other}/resend`), 404, 'NOT_FOUND', 'resend');
    refused(await call('DELETE', other), 404, 'NOT_FOUND', 'delete');
    assert.equal(ok(await admin('GET', other), 'untouched').name, 'Boris Guest');
  });

  test('invites only for themselves: for another host, or handing their guest over, is 403', async () => {
    const call = ana.session.call;
    refused(await call('POST', '/v1/invitees', inviteFor(bruno.hostId, 'Carl Guest')), 403, 'FORBIDDEN', 'create');
    const own = ok(await call('POST', '/v1/invitees', inviteFor(ana.hostId, 'Clara Guest')), 'create own');
    assert.equal(own.host.id, ana.hostId);
    refused(await call('PATCH', `/v1/invitee/${own.id}`, { hostId: bruno.hostId }), 403, 'FORBIDDEN', 'hand over');
    ok(await call('PATCH', `/v1/invitee/${own.id}`, { notes: 'parking' }), 'update own');
    ok(await call('DELETE', `/v1/invitee/${own.id}`), 'delete own');
  });

  test('sees the meetings they host or co-host; a co-host cannot change the meeting', async () => {
    const call = ana.session.call;
    assert.deepEqual(ids(ok(await call('GET', '/v1/meetings'), 'list').meetings), [made.sharedMeeting]);
    ok(await call('GET', `/v1/meeting/${made.sharedMeeting}`), 'co-hosted');
    refused(await call('GET', `/v1/meeting/${made.brunoMeeting}`), 404, 'NOT_FOUND', 'not theirs');
    refused(await call('PATCH', `/v1/meeting/${made.brunoMeeting}`, { title: 'x' }), 404, 'NOT_FOUND', 'change');
    refused(await call('PATCH', `/v1/meeting/${made.sharedMeeting}`, { title: 'x' }), 403, 'FORBIDDEN', 'co-host');
    refused(await call('DELETE', `/v1/meeting/${made.sharedMeeting}`), 403, 'FORBIDDEN', 'co-host deletes');
    refused(await call('POST', '/v1/meetings', meetingOf(bruno.hostId, 'Theirs')), 403, 'FORBIDDEN', 'for another');
    const own = ok(await call('POST', '/v1/meetings', meetingOf(ana.hostId, 'Mine', [bruno.hostId])), 'own');
    assert.deepEqual(ids(ok(await bruno.session.call('GET', '/v1/meetings'), 'Bruno').meetings).includes(own.id), true);
    ok(await call('DELETE', `/v1/meeting/${own.id}`), 'delete own');
  });

  test('sees and decides only their own visitors, and only their files', async () => {
    const call = ana.session.call;
    assert.deepEqual(ids(ok(await call('GET', '/v1/visits'), 'list').visits), [made.anaVisit]);
    refused(await call('GET', `/v1/visit/${made.brunoVisit}`), 404, 'NOT_FOUND', 'read');
    refused(await call('PATCH', `/v1/visit/allow/${made.brunoVisit}`, {}), 404, 'NOT_FOUND', 'allow');
    refused(await call('PATCH', `/v1/visit/deny/${made.brunoVisit}`, {}), 404, 'NOT_FOUND', 'deny');
    const allowed = ok(await call('PATCH', `/v1/visit/allow/${made.anaVisit}`, {}), 'allow own');
    assert.equal(allowed.authorizedById, ana.hostId, 'the decision is recorded as hers');
    const naming = await call('PATCH', `/v1/visit/deny/${made.anaVisit}`, { authorizedById: bruno.hostId });
    refused(naming, 403, 'FORBIDDEN', 'naming another decider');
    const picture = await call('GET', made.anaPicture);
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/png');
    refused(await call('GET', made.brunoPicture), 404, 'NOT_FOUND', "another host's visitor's picture");
    assert.equal((await frontdesk.session.call('GET', made.brunoPicture)).status, 200, 'the desk sees it');
  });

  test('has their own day and visit log, searches and CSV included', async () => {
    const call = ana.session.call;
    const day = ok(await call('GET', '/v1/today'), 'today');
    const companyDay = ok(await admin('GET', '/v1/today'), 'admin today');
    assert.deepEqual([day.inside, day.expected], [1, 1]);
    assert.ok(companyDay.inside >= 2 && companyDay.expected >= 2, JSON.stringify(companyDay));
    assert.deepEqual(ids(ok(await call('GET', '/v1/visits/history'), 'history').visits), [made.anaVisit]);
    assert.equal(ok(await call('GET', '/v1/visits/history?search=Bernardo'), 'search').size, 0);
    const csv = await call('GET', '/v1/visits/export');
    assert.equal(csv.status, 200);
    assert.match(String(csv.body), /Amelia Visitor/);
    assert.doesNotMatch(String(csv.body), /Bernardo/);
  });

  test('reads the host directory (names only) but not the host records, settings or the audit', async () => {
    const call = ana.session.call;
    const directory = ok(await call('GET', '/v1/hosts/directory?search=bruno'), 'directory').hosts;
    assert.deepEqual(directory, [{ id: bruno.hostId, name: bruno.name, position: null, sector: null }]);
    for (const path of ['/v1/hosts', `/v1/host/${bruno.hostId}`, '/v1/audit', '/v1/roster', '/v1/credentials']) {
      refused(await call('GET', path), 403, 'FORBIDDEN', path);
    }
    refused(await call('PATCH', '/v1/company', { name: 'Mine' }), 403, 'FORBIDDEN', 'settings');
    ok(await call('GET', '/v1/company'), 'the company');
    ok(await call('GET', '/v1/visitortypes'), 'visitor types');
  });
});

describe('the desk and the admin', () => {
  test("see every host's guests, and the front desk invites for anyone", async () => {
    for (const [who, call] of [
      ['admin', admin],
      ['frontdesk', frontdesk.session.call],
    ] as const) {
      const invitees = ids(ok(await call('GET', '/v1/invitees'), who).invitees);
      assert.ok(invitees.includes(made.anaInvitee) && invitees.includes(made.brunoInvitee), who);
      const visits = ids(ok(await call('GET', '/v1/visits/history'), who).visits);
      assert.ok(visits.includes(made.anaVisit) && visits.includes(made.brunoVisit), who);
      ok(await call('GET', `/v1/meeting/${made.brunoMeeting}`), who);
    }
    const invited = await frontdesk.session.call('POST', '/v1/invitees', inviteFor(bruno.hostId, 'Dora Guest'));
    assert.equal(ok(invited, 'front desk invites for Bruno').host.id, bruno.hostId);
  });
});

describe('a manager', () => {
  test("reads everything but changes no setting and no colleague's guest", async () => {
    const call = manager.session.call;
    const invitees = ids(ok(await call('GET', '/v1/invitees'), 'invitees').invitees);
    assert.ok(invitees.includes(made.brunoInvitee));
    ok(await call('GET', `/v1/visit/${made.brunoVisit}`), 'a colleague visitor');
    ok(await call('GET', '/v1/audit'), 'audit');
    ok(await call('GET', '/v1/hosts'), 'hosts');
    ok(await call('GET', '/v1/visits/export'), 'CSV');
    refused(await call('PATCH', '/v1/company', { name: 'Managed' }), 403, 'FORBIDDEN', 'company');
    refused(await call('PATCH', '/v1/kiosk/settings', {}), 403, 'FORBIDDEN', 'kiosk settings');
    refused(await call('POST', '/v1/hosts', { name: 'X', email: 'x@acme.test' }), 403, 'FORBIDDEN', 'hosts');
    refused(await call('PATCH', `/v1/invitee/${made.brunoInvitee}`, { notes: 'x' }), 403, 'FORBIDDEN', 'change');
    refused(await call('PATCH', `/v1/visit/allow/${made.brunoVisit}`, {}), 403, 'FORBIDDEN', 'decide');
    refused(await call('PATCH', `/v1/visit/checkout/${made.brunoVisit}`, {}), 403, 'FORBIDDEN', 'check out');
    ok(await call('POST', '/v1/invitees', inviteFor(manager.hostId, 'Edu Guest')), 'own guest');
  });
});

describe('security', () => {
  test('works the desk for everyone and invites only for themselves', async () => {
    const call = security.session.call;
    ok(await call('GET', '/v1/roster'), 'roster');
    const denied = ok(await call('PATCH', `/v1/visit/deny/${made.brunoVisit}`, {}), "deny Bruno's visitor");
    assert.equal(denied.authorizedById, security.hostId);
    const out = ok(await call('PATCH', `/v1/visit/checkout/${made.brunoVisit}`, {}), "check Bruno's visitor out");
    assert.notEqual(out.checkoutAt, null);
    ok(await call('POST', '/v1/blockedlist', { name: 'Mallory', email: 'mallory@evil.test' }), 'blocklist');
    refused(await call('POST', '/v1/invitees', inviteFor(bruno.hostId, 'Fred Guest')), 403, 'FORBIDDEN', 'invite');
    refused(await call('PATCH', '/v1/company', { name: 'Secure' }), 403, 'FORBIDDEN', 'company');
    refused(await call('GET', '/v1/audit'), 403, 'FORBIDDEN', 'audit');
  });
});
