/**
 * POST /v1/invitees/bulk (docs/api.md, "Invitees in bulk"): a dry run checks every row, store rules included, and
 * creates nothing; an upload creates every row or, when one is refused, none, and answers each refused row's
 * problem; rows belong to the caller's company.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { signedInPerson } from '../helpers/accounts.ts';
import { client, startService, succeeded, type TestService } from '../helpers/service.ts';

let service: TestService;
let adminKey: string;
type Api = ReturnType<typeof client>;
let admin: Api;
let other: Api;
let hostId: string;
let otherHostId: string;
const at = Math.floor(Date.now() / 1000) + 86_400;

before(async () => {
  service = await startService();
  adminKey = (await service.company('Acme', 'UTC')).apiKey;
  admin = client(service.url, adminKey);
  other = client(service.url, (await service.company('Other', 'UTC')).apiKey);
  hostId = (await succeeded(admin, 'POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).id;
  otherHostId = (await succeeded(other, 'POST', '/v1/hosts', { name: 'Otto', email: 'otto@other.test' })).id;
});
after(async () => {
  await service?.stop();
});

const row = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  email: `${name.toLowerCase()}@guest.test`,
  hostId,
  expectedAt: at,
  sendInvitationEmail: false,
  ...extra,
});

const invitees = async (api: Api) => (await succeeded(api, 'GET', '/v1/invitees')).invitees as { name: string }[];

describe('invitees in bulk', () => {
  test('a dry run answers each bad row and creates nothing, even when every row is good', async () => {
    const preview = await succeeded(admin, 'POST', '/v1/invitees/bulk', {
      dryRun: true,
      invitees: [
        row('Ana'),
        row('Bruno', { email: 'not an address' }),
        { name: 'Caio', hostId, expectedAt: at },
        row('Dora', { hostId: otherHostId }),
        row('', {}),
      ],
    });
    assert.deepEqual(preview, {
      dryRun: true,
      created: 0,
      invitees: [],
      errors: [
        { index: 1, type: 'INVALID_EMAIL' },
        { index: 2, type: 'MISSING_EMAIL' },
        { index: 3, type: 'HOST_NOT_FOUND' },
        { index: 4, type: 'MISSING_NAME' },
      ],
    });
    const clean = await succeeded(admin, 'POST', '/v1/invitees/bulk', { dryRun: true, invitees: [row('Ana')] });
    assert.deepEqual([clean.created, clean.errors], [0, []]);
    assert.deepEqual(await invitees(admin), []);
  });

  test('an upload with a refused row creates none of its rows', async () => {
    const answer = await succeeded(admin, 'POST', '/v1/invitees/bulk', {
      invitees: [row('Ana'), row('Bruno', { cardNumber: 'x' })],
    });
    assert.equal(answer.created, 0);
    assert.deepEqual(
      answer.errors.map((e: { index: number }) => e.index),
      [1],
    );
    assert.deepEqual(await invitees(admin), []);
  });

  test('a good upload creates every row, in the order sent, in the caller company only', async () => {
    const answer = await succeeded(admin, 'POST', '/v1/invitees/bulk', {
      invitees: [row('Ana'), row('Bruno', { phone: '+55 11 91234-5678' }), row('Caio')],
    });
    assert.equal(answer.created, 3);
    assert.deepEqual(
      answer.invitees.map((i: { name: string; host: { id: string } }) => [i.name, i.host.id]),
      [
        ['Ana', hostId],
        ['Bruno', hostId],
        ['Caio', hostId],
      ],
    );
    assert.deepEqual((await invitees(admin)).map((i) => i.name).sort(), ['Ana', 'Bruno', 'Caio']);
    assert.deepEqual(await invitees(other), []);
  });

  test("a host's session invites its own guests; a row for another host is refused as that row", async () => {
    const person = await signedInPerson(service.url, adminKey, { role: 'HOST', name: 'Hana Host' });
    const mixed = await succeeded(person.session.call, 'POST', '/v1/invitees/bulk', {
      invitees: [row('Gil', { hostId: person.hostId }), row('Hugo')],
    });
    assert.deepEqual([mixed.created, mixed.errors], [0, [{ index: 1, type: 'FORBIDDEN' }]]);
    const own = await succeeded(person.session.call, 'POST', '/v1/invitees/bulk', {
      invitees: [row('Gil', { hostId: person.hostId }), row('Ivo', { hostId: person.hostId })],
    });
    assert.equal(own.created, 2);
    assert.deepEqual(
      own.invitees.map((i: { host: { id: string } }) => i.host.id),
      [person.hostId, person.hostId],
    );
  });

  test('the body is checked: no rows, too many rows, not a list', async () => {
    for (const body of [
      { invitees: [] },
      { invitees: Array.from({ length: 501 }, () => row('X')) },
      { invitees: 'x' },
    ]) {
      const reply = await admin('POST', '/v1/invitees/bulk', body);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.type, 'INVALID_PARAMETER');
    }
  });
});
