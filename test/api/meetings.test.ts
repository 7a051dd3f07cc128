import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { client, type Reply, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let lists: ReturnType<typeof client>;
let helena: string;
let igor: string;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme', 'America/Sao_Paulo')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  lists = client(service.url, (await service.company('Meeting lists', 'UTC')).apiKey);
  helena = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' })).body.id;
  igor = (await api('POST', '/v1/hosts', { name: 'Igor', email: 'igor@acme.test' })).body.id;
});
after(() => service.stop());

const meeting = (body: Record<string, unknown> = {}): Promise<Reply> =>
  api('POST', '/v1/meetings', {
    title: 'Quarterly review',
    guests: ['ana@guest.test', 'Bruno@Guest.test'],
    start: '2026-12-01T10:00:00',
    end: '2026-12-01T11:30:00',
    location: 'Room 4',
    type: 'MEETING',
    hostId: helena,
    ...body,
  });

interface InviteeObject {
  id: string;
  email: string;
  status: string;
  expectedAt: string;
  host: { id: string };
  meeting: Record<string, unknown> & { id: string; title: string; deletedAt: string | null };
}

/** The meeting's invitees, by e-mail. */
async function inviteesOf(meetingId: string) {
  const list = await api('GET', '/v1/invitees?limit=2000');
  const mine = list.body.invitees.filter((i: { meeting: { id: string } | null }) => i.meeting?.id === meetingId);
  return new Map<string, InviteeObject>(mine.map((i: InviteeObject) => [i.email, i]));
}

describe('POST /v1/meetings', () => {
  test('creates the meeting object of docs/api.md, "Meetings" and an invitee of its host per guest', async () => {
    const { status, body } = await meeting();
    assert.equal(status, 200);
    assert.match(body.id, /^[0-9a-f]{32}$/);
    assert.equal(body.title, 'Quarterly review');
    assert.equal(body.start, '2026-12-01T10:00:00-03:00');
    assert.equal(body.end, '2026-12-01T11:30:00-03:00');
    assert.equal(body.type, 'MEETING');
    assert.equal(body.location, 'Room 4');
    assert.deepEqual(body.guests, ['ana@guest.test', 'bruno@guest.test']);
    assert.deepEqual(body.host, { id: helena, name: 'Helena', email: 'helena@acme.test', type: 'host' });
    assert.equal(body.hostId, helena);
    assert.equal(body.isRecurring, false);
    assert.equal(body.allDay, false);
    assert.equal(body.createdOn, 'DASHBOARD');
    assert.deepEqual(body.coHosts, []);
    assert.equal(body.lang, 'en');
    assert.equal(body.visitFlowTypeId, 'default');
    assert.equal(body.deletedAt, null);

    const invitees = await inviteesOf(body.id);
    assert.deepEqual([...invitees.keys()].sort(), ['ana@guest.test', 'bruno@guest.test']);
    const ana = invitees.get('ana@guest.test');
    assert.equal(ana?.status, 'confirmed');
    assert.equal(ana?.expectedAt, '2026-12-01T10:00:00-03:00');
    assert.equal(ana?.host.id, helena);
    const embedded = ana?.meeting ?? {};
    assert.equal(embedded.id, body.id);
    assert.equal(embedded.title, 'Quarterly review');
    assert.equal('host' in embedded, false, 'the meeting inside an invitee carries no host');
    const { host: _host, ...withoutHost } = body;
    assert.deepEqual(embedded, withoutHost);
  });

  test('reads start and end in the meeting’s own zone when it has one', async () => {
    const { body } = await meeting({ timezone: 'Europe/Berlin', guests: [] });
    assert.equal(body.start, '2026-12-01T06:00:00-03:00');
    assert.equal(body.timezone, 'Europe/Berlin');
  });

  test('requires its fields and checks them', async () => {
    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ title: undefined }, 400, { type: 'INVALID_PARAMETER', field: 'title' }],
      [{ guests: undefined }, 400, { type: 'INVALID_PARAMETER', field: 'guests' }],
      [{ start: undefined }, 400, { type: 'INVALID_PARAMETER', field: 'start' }],
      [{ location: undefined }, 400, { type: 'INVALID_PARAMETER', field: 'location' }],
      [{ type: 'PARTY' }, 400, { type: 'INVALID_PARAMETER', field: 'type' }],
      [{ hostId: undefined }, 400, { type: 'MISSING_HOST_ID' }],
      [{ hostId: 'f'.repeat(32) }, 400, { type: 'HOST_NOT_FOUND' }],
      [{ guests: ['ana@guest.test', 'not-an-email'] }, 400, { type: 'INVALID_EMAIL' }],
      [{ start: 'next tuesday' }, 400, { type: 'INVALID_PARAMETER', field: 'start' }],
      [{ end: '2026-12-01T09:00:00' }, 400, { type: 'INVALID_PARAMETER', field: 'end' }],
    ];
    for (const [body, status, error] of cases) {
      const reply = await meeting(body);
      assert.deepEqual([reply.status, reply.body], [status, error], JSON.stringify(body));
    }
    const foreignHost = await other('POST', '/v1/meetings', {
      title: 'x',
      guests: [],
      start: '2026-12-01T10:00:00',
      end: '2026-12-01T11:00:00',
      location: 'x',
      type: 'EVENT',
      hostId: helena,
    });
    assert.deepEqual(foreignHost.body, { type: 'HOST_NOT_FOUND' }, "another company's host");
  });

  test('a failed meeting leaves no invitee behind (one transaction)', async () => {
    const before = (await api('GET', '/v1/invitees?queryKey=email&queryOp===&queryValue=lonely@guest.test')).body.size;
    const reply = await meeting({ guests: ['lonely@guest.test'], end: '2026-11-30T10:00:00' });
    assert.equal(reply.status, 400);
    const afterwards = await api('GET', '/v1/invitees?queryKey=email&queryOp===&queryValue=lonely@guest.test');
    assert.equal(afterwards.body.size, before);
  });
});

describe('PATCH and DELETE /v1/meeting/:id move and cancel the invitees', () => {
  test('a new start and host move the confirmed invitees; arrived ones stay', async () => {
    const created = (await meeting({ guests: ['c1@guest.test', 'c2@guest.test'] })).body;
    const arrived = (await inviteesOf(created.id)).get('c2@guest.test');
    assert.equal((await api('POST', `/v1/visit/inviteeCheckin/${arrived?.id}`)).status, 200);

    const moved = await api('PATCH', `/v1/meeting/${created.id}`, { start: '2026-12-02T14:00:00-03:00', hostId: igor });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.start, '2026-12-02T14:00:00-03:00');
    assert.equal(moved.body.host.id, igor);
    const invitees = await inviteesOf(created.id);
    assert.equal(invitees.get('c1@guest.test')?.expectedAt, '2026-12-02T14:00:00-03:00');
    assert.equal(invitees.get('c1@guest.test')?.host.id, igor);
    assert.equal(invitees.get('c2@guest.test')?.status, 'arrived');
    assert.equal(invitees.get('c2@guest.test')?.expectedAt, '2026-12-01T10:00:00-03:00');
  });

  test('removing a guest cancels that invitee; adding one invites them; re-adding confirms again', async () => {
    const created = (await meeting({ guests: ['d1@guest.test', 'd2@guest.test'] })).body;
    const first = await inviteesOf(created.id);

    await api('PATCH', `/v1/meeting/${created.id}`, { guests: ['d1@guest.test', 'd3@guest.test'] });
    let invitees = await inviteesOf(created.id);
    assert.equal(invitees.get('d1@guest.test')?.status, 'confirmed');
    assert.equal(invitees.get('d1@guest.test')?.id, first.get('d1@guest.test')?.id, 'kept guests keep their invitee');
    assert.equal(invitees.get('d2@guest.test')?.status, 'canceled');
    assert.equal(invitees.get('d3@guest.test')?.status, 'confirmed');

    await api('PATCH', `/v1/meeting/${created.id}`, { guests: 'd1@guest.test d2@guest.test d3@guest.test' });
    invitees = await inviteesOf(created.id);
    assert.equal(invitees.get('d2@guest.test')?.status, 'confirmed');
    assert.equal(invitees.get('d2@guest.test')?.id, first.get('d2@guest.test')?.id);
    assert.equal(invitees.size, 3);
  });

  test('an invitee canceled by someone else stays canceled when the meeting changes', async () => {
    const created = (await meeting({ guests: ['e1@guest.test'] })).body;
    const invitee = (await inviteesOf(created.id)).get('e1@guest.test');
    await api('PATCH', `/v1/invitee/${invitee?.id}`, { status: 'canceled' });
    await api('PATCH', `/v1/meeting/${created.id}`, { title: 'Renamed', start: '2026-12-03T10:00:00' });
    assert.equal((await inviteesOf(created.id)).get('e1@guest.test')?.status, 'canceled');
    assert.equal((await api('GET', `/v1/invitee/${invitee?.id}`)).body.meeting.title, 'Renamed');
  });

  test('deleting the meeting cancels its invitees; the invitee still names the deleted meeting', async () => {
    const created = (await meeting({ guests: ['f1@guest.test', 'f2@guest.test'] })).body;
    const invitees = await inviteesOf(created.id);
    await api('POST', `/v1/visit/inviteeCheckin/${invitees.get('f2@guest.test')?.id}`);
    assert.deepEqual((await api('DELETE', `/v1/meeting/${created.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/meeting/${created.id}`)).status, 404);
    const after = await inviteesOf(created.id);
    assert.equal(after.get('f1@guest.test')?.status, 'canceled');
    assert.equal(after.get('f2@guest.test')?.status, 'arrived');
    assert.match(String(after.get('f1@guest.test')?.meeting.deletedAt), /^\d{4}-/);
  });

  test('invalid changes answer their errors and change nothing', async () => {
    const created = (await meeting({ guests: ['g1@guest.test'] })).body;
    const bad = await api('PATCH', `/v1/meeting/${created.id}`, { guests: ['x'], title: 'Changed' });
    assert.deepEqual([bad.status, bad.body], [400, { type: 'INVALID_EMAIL' }]);
    const early = await api('PATCH', `/v1/meeting/${created.id}`, { end: '2026-11-01T00:00:00' });
    assert.deepEqual(early.body, { type: 'INVALID_PARAMETER', field: 'end' });
    const unchanged = (await api('GET', `/v1/meeting/${created.id}`)).body;
    assert.equal(unchanged.title, 'Quarterly review');
  });
});

describe('GET /v1/meetings and the id rules', () => {
  test('lists and queries meetings', async () => {
    const host = (await lists('POST', '/v1/hosts', { name: 'Jonas', email: 'jonas@lists.test' })).body.id;
    for (let day = 1; day <= 4; day++) {
      const reply = await lists('POST', '/v1/meetings', {
        title: `Meeting ${day}`,
        guests: [],
        start: `2026-12-0${day}T09:00:00Z`,
        end: `2026-12-0${day}T10:00:00Z`,
        location: day % 2 ? 'Lobby' : 'Roof',
        type: day === 4 ? 'EVENT' : 'MEETING',
        hostId: host,
      });
      assert.equal(reply.status, 200);
    }
    const titles = (r: Reply) => r.body.meetings.map((m: { title: string }) => m.title);
    assert.equal((await lists('GET', '/v1/meetings')).body.size, 4);
    assert.deepEqual(titles(await lists('GET', '/v1/meetings?queryKey=location&queryOp===&queryValue=Roof')), [
      'Meeting 2',
      'Meeting 4',
    ]);
    assert.deepEqual(titles(await lists('GET', '/v1/meetings?queryKey=type&queryOp===&queryValue=EVENT')), [
      'Meeting 4',
    ]);
    const after3 = Date.UTC(2026, 11, 3, 10) / 1000;
    assert.deepEqual(titles(await lists('GET', `/v1/meetings?queryKey=end&queryOp=%3E=&queryValue=${after3}`)), [
      'Meeting 3',
      'Meeting 4',
    ]);
    assert.deepEqual(titles(await lists('GET', '/v1/meetings?queryKey=hostName&queryOp===&queryValue=Jonas&limit=1')), [
      'Meeting 1',
    ]);
    assert.deepEqual((await lists('GET', '/v1/meetings?queryKey=guests&queryOp===&queryValue=x')).body, {
      type: 'INVALID_QUERY_KEY',
    });
  });

  test('another company gets NOT_FOUND; no id gets MISSING_ID', async () => {
    const created = (await meeting({ guests: [] })).body;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await other(method, `/v1/meeting/${created.id}`, method === 'PATCH' ? { title: 'x' } : undefined);
      assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }], method);
      assert.deepEqual((await api(method, '/v1/meeting/')).body, { type: 'MISSING_ID' }, method);
    }
  });
});
