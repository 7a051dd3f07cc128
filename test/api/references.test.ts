import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { allowLoopback, client, type Reply, startService, type TestService } from '../helpers/service.ts';

/*
 * A company may name only its own rows: another company's meeting, host or company id in a reference field is
 * refused, and nothing is stored. Its own ids are accepted.
 */

let service: TestService;
let acme: ReturnType<typeof client>;
let globex: ReturnType<typeof client>;
let acmeId: string;
const theirs: { host?: string; meeting?: string } = {};
const ours: { host?: string; meeting?: string; visit?: string; entry?: string } = {};

const meetingBody = (hostId: string) => ({
  title: 'Review',
  guests: ['guest@ref.test'],
  start: '2026-12-01T10:00:00Z',
  end: '2026-12-01T11:00:00Z',
  location: 'Room',
  type: 'MEETING',
  hostId,
});

before(async () => {
  // The webhooks and notification webhook these tests save point at loopback, which the owner allows here.
  service = await startService({ args: allowLoopback });
  const acmeKey = await service.company('Acme Refs');
  acmeId = acmeKey.id;
  acme = client(service.url, acmeKey.apiKey);
  globex = client(service.url, (await service.company('Globex Refs')).apiKey);
  theirs.host = (await acme('POST', '/v1/hosts', { name: 'A Host', email: 'a@acme.test' })).body.id;
  theirs.meeting = (await acme('POST', '/v1/meetings', meetingBody(theirs.host as string))).body.id;
  ours.host = (await globex('POST', '/v1/hosts', { name: 'G Host', email: 'g@globex.test' })).body.id;
  ours.meeting = (await globex('POST', '/v1/meetings', meetingBody(ours.host as string))).body.id;
  ours.visit = (
    await globex('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Visitor' } })
  ).body.id;
  ours.entry = (await globex('POST', '/v1/blockedlist', { cpf: '529.982.247-25', reason: 'r' })).body.id;
  for (const id of [theirs.host, theirs.meeting, ours.host, ours.meeting, ours.visit, ours.entry]) {
    assert.equal(typeof id, 'string');
  }
});
after(() => service.stop());

const refused = (reply: Reply, type: string, what: string) =>
  assert.deepEqual([reply.status, reply.body.type], [400, type], `${what}: ${JSON.stringify(reply.body)}`);

test("another company's meeting, hosts and company are refused as references", async () => {
  const walkIn = (visit: Record<string, unknown>) =>
    globex('POST', '/v1/visits', { visit: { id: randomUUID(), ...visit }, visitor: { name: 'V' } });
  refused(await walkIn({ meetingId: theirs.meeting }), 'MEETING_NOT_FOUND', 'walk-in meetingId');
  refused(await walkIn({ checkinByHostId: theirs.host }), 'HOST_NOT_FOUND', 'walk-in checkinByHostId');
  refused(await walkIn({ checkoutByHostId: theirs.host }), 'HOST_NOT_FOUND', 'walk-in checkoutByHostId');
  const update = (visit: Record<string, unknown>) => globex('PATCH', `/v1/visit/${ours.visit}`, { visit });
  refused(await update({ meetingId: theirs.meeting }), 'MEETING_NOT_FOUND', 'update meetingId');
  refused(await update({ checkoutByHostId: theirs.host }), 'HOST_NOT_FOUND', 'update checkoutByHostId');
  refused(
    await globex('PATCH', `/v1/visit/checkout/${ours.visit}`, { checkoutByHostId: theirs.host }),
    'HOST_NOT_FOUND',
    'check-out checkoutByHostId',
  );
  refused(
    await globex('POST', '/v1/blockedlist', { cpf: '111.444.777-35', createdById: theirs.host }),
    'HOST_NOT_FOUND',
    'blocklist createdById',
  );
  refused(
    await globex('PATCH', `/v1/blockedlist/${ours.entry}`, { createdById: theirs.host }),
    'HOST_NOT_FOUND',
    'blocklist update createdById',
  );
  refused(
    await globex('DELETE', `/v1/blockedlist/${ours.entry}`, { deletedById: theirs.host }),
    'HOST_NOT_FOUND',
    'blocklist deletedById',
  );
  const parent = await globex('PATCH', '/v1/company', { parentCompanyId: acmeId });
  assert.deepEqual(parent.body, { type: 'INVALID_PARAMETER', field: 'parentCompanyId' });

  const visit = (await globex('GET', `/v1/visit/${ours.visit}`)).body;
  assert.deepEqual([visit.meetingId, visit.checkoutAt, visit.checkoutByHostId], [null, null, null], 'unchanged');
  assert.equal((await globex('GET', `/v1/blockedlist/${ours.entry}`)).body.createdById, null);
  assert.equal((await globex('GET', '/v1/company')).body.parentCompanyId, null);
});

test('its own meeting and hosts are accepted', async () => {
  const made = await globex('POST', '/v1/visits', {
    visit: { id: randomUUID(), meetingId: ours.meeting, checkinByHostId: ours.host },
    visitor: { name: 'Own' },
  });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  assert.equal(made.body.meetingId, ours.meeting);
  const out = await globex('PATCH', `/v1/visit/checkout/${made.body.id}`, { checkoutByHostId: ours.host });
  assert.equal(out.body.checkoutByHostId, ours.host);
  const entry = await globex('PATCH', `/v1/blockedlist/${ours.entry}`, { createdById: ours.host });
  assert.equal(entry.body.createdById, ours.host);
  assert.equal((await globex('PATCH', '/v1/company', { parentCompanyId: null })).status, 200);
});

test('GET /v1/webhooks pages and queries as the other lists do', async () => {
  for (const n of [1, 2, 3]) {
    assert.equal((await globex('POST', '/v1/webhooks', { url: `http://127.0.0.1:9/hook-${n}` })).status, 200);
  }
  const urls = async (query: string) => {
    const reply = await globex('GET', `/v1/webhooks${query}`);
    assert.equal(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
    assert.equal(reply.body.size, reply.body.webhooks.length);
    return (reply.body.webhooks as { url: string }[]).map((w) => w.url.replace('http://127.0.0.1:9/', ''));
  };
  assert.deepEqual(await urls(''), ['hook-1', 'hook-2', 'hook-3']);
  assert.deepEqual(await urls('?limit=2'), ['hook-1', 'hook-2']);
  assert.deepEqual(await urls('?limit=2&offset=2'), ['hook-3']);
  assert.deepEqual(await urls('?queryKey=url&queryOp===&queryValue=http://127.0.0.1:9/hook-2'), ['hook-2']);
  assert.deepEqual(await urls('?queryKey=isActive&queryOp===&queryValue=false'), []);
  for (const [query, type] of [
    ['?limit=0', 'INVALID_LIMIT_VALUE'],
    ['?offset=-1', 'INVALID_OFFSET_VALUE'],
    ['?queryKey=secret&queryOp===&queryValue=x', 'INVALID_QUERY_KEY'],
  ]) {
    assert.equal((await globex('GET', `/v1/webhooks${query}`)).body.type, type, query);
  }
});
