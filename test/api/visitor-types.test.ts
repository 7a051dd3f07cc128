import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let hostId: string;

before(async () => {
  // The webhooks and notification webhook these tests save point at loopback, which the owner allows here.
  service = await startService({ args: allowLoopback });
  api = client(service.url, (await service.company('Acme')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  await api('PATCH', '/v1/company', { lang: 'pt-BR' });
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' })).body.id;
});
after(() => service.stop());

async function define(field: Record<string, unknown>): Promise<string> {
  const { status, body } = await api('POST', '/v1/customfields', field);
  assert.equal(status, 200, JSON.stringify(body));
  return body.id;
}

async function invite(extra: Record<string, unknown>) {
  const { status, body } = await api('POST', '/v1/invitees', {
    name: 'Paula Torres',
    email: `paula.${randomUUID().slice(0, 8)}@guest.test`,
    expectedAt: new Date().toISOString(),
    hostId,
    ...extra,
  });
  assert.equal(status, 200, JSON.stringify(body));
  return body as { id: string; visitorTypeId: string | null };
}

describe('/v1/visitortypes', () => {
  test("a known kind comes with its names, badge label and rules, in the company's language", async () => {
    const { status, body } = await api('POST', '/v1/visitortypes', { kind: 'delivery', sort: 2 });
    assert.equal(status, 200, JSON.stringify(body));
    assert.match(body.id, /^[a-z0-9]{9}$/);
    assert.equal(body.type, 'visitorType');
    assert.equal(body.name, 'Entrega');
    assert.equal(body.badgeLabel, 'Entrega');
    assert.deepEqual(body.localizedName, { en: 'Delivery', 'pt-BR': 'Entrega', de: 'Lieferung', 'zh-Hans': '送货' });
    assert.deepEqual(
      [body.pictureMode, body.ndaText, body.requireAuthorization, body.customFieldIds],
      ['off', '', false, []],
    );
    assert.equal(body.visitorFields.company, 'required');
    assert.equal(body.isActive, true);
    assert.deepEqual((await api('GET', `/v1/visitortype/${body.id}`)).body, body);

    const guest = (await api('POST', '/v1/visitortypes', { kind: 'guest', sort: 0 })).body;
    assert.deepEqual(
      [guest.pictureMode, guest.ndaText, guest.requireAuthorization],
      [null, null, null],
      'the kiosk decides',
    );
    const list = (await api('GET', '/v1/visitortypes')).body;
    assert.equal(list.size, 2);
    assert.deepEqual(
      list.visitorTypes.map((t: { kind: string }) => t.kind),
      ['guest', 'delivery'],
      'in their order',
    );
    assert.equal((await other('GET', `/v1/visitortype/${body.id}`)).status, 404, "another company's type is absent");
    assert.equal((await other('GET', '/v1/visitortypes')).body.size, 0);

    const patched = await api('PATCH', `/v1/visitortype/${body.id}`, { badgeLabel: 'Courier', pictureMode: null });
    assert.deepEqual([patched.body.badgeLabel, patched.body.pictureMode], ['Courier', null]);
    assert.deepEqual((await api('DELETE', `/v1/visitortype/${body.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/visitortype/${body.id}`)).status, 404);
    await api('DELETE', `/v1/visitortype/${guest.id}`);
  });

  test('checks definitions', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{}, { type: 'INVALID_PARAMETER', field: 'kind' }],
      [{ kind: 'vip' }, { type: 'INVALID_PARAMETER', field: 'kind' }],
      [{ kind: 'custom' }, { type: 'MISSING_NAME' }],
      [{ kind: 'custom', name: '  ' }, { type: 'MISSING_NAME' }],
      [
        { kind: 'guest', pictureMode: 'sometimes' },
        { type: 'INVALID_PARAMETER', field: 'pictureMode' },
      ],
      [
        { kind: 'guest', visitorFields: { shoeSize: 'required' } },
        { type: 'INVALID_PARAMETER', field: 'visitorFields' },
      ],
      [
        { kind: 'guest', customFieldIds: ['nosuchfld'] },
        { type: 'INVALID_PARAMETER', field: 'customFieldIds' },
      ],
      [
        { kind: 'guest', badgeLabel: 'x'.repeat(41) },
        { type: 'INVALID_PARAMETER', field: 'badgeLabel' },
      ],
    ];
    for (const [input, error] of cases) {
      const { status, body } = await api('POST', '/v1/visitortypes', input);
      assert.equal(status, 400, JSON.stringify(input));
      assert.deepEqual(body, error, JSON.stringify(input));
    }
    const own = await api('POST', '/v1/visitortypes', {
      kind: 'custom',
      name: 'Auditor',
      requireAuthorization: 'true',
    });
    assert.deepEqual([own.body.name, own.body.badgeLabel, own.body.requireAuthorization], ['Auditor', 'Auditor', true]);
    assert.equal((await api('PATCH', `/v1/visitortype/${own.body.id}`, { name: '' })).body.type, 'MISSING_NAME');
    assert.equal((await api('PATCH', '/v1/visitortype/nosuchtyp', { name: 'X' })).status, 404);
    await api('DELETE', `/v1/visitortype/${own.body.id}`);
  });
});

describe('visits and invitees of a type', () => {
  test("a walk-in names its type; the type's approval rule and fields apply", async () => {
    const plate = await define({ name: 'Vehicle plate', type: 'Text', required: true });
    const contractor = (
      await api('POST', '/v1/visitortypes', { kind: 'contractor', requireAuthorization: true, customFieldIds: [plate] })
    ).body;
    const delivery = (await api('POST', '/v1/visitortypes', { kind: 'delivery' })).body;

    const unknown = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), visitorTypeId: 'nosuchtyp' },
      visitor: { name: 'Rui' },
    });
    assert.deepEqual([unknown.status, unknown.body], [400, { type: 'VISITOR_TYPE_NOT_FOUND' }]);

    // A delivery is asked no custom field: the required plate is not required of it.
    const courier = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), visitorTypeId: delivery.id },
      visitor: { name: 'Courier', company: 'FastPost' },
    });
    assert.equal(courier.status, 200, JSON.stringify(courier.body));
    assert.equal(courier.body.visitorTypeId, delivery.id);
    assert.equal(courier.body.authorizationStatus, null);
    // Without a type, every required field is asked, as before.
    const untyped = await api('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Rui' } });
    assert.deepEqual(untyped.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: plate, reason: 'required' });

    const worker = await api('POST', '/v1/visits', {
      visit: {
        id: randomUUID(),
        visitorTypeId: contractor.id,
        customFields: [{ customFieldId: plate, value: 'BRA2E19' }],
      },
      visitor: { name: 'Worker', company: 'BuildCo' },
    });
    assert.equal(worker.status, 200, JSON.stringify(worker.body));
    assert.equal(worker.body.authorizationStatus, 'waiting', "the contractor's type needs the host's approval");
    const decided = await api('POST', '/v1/visits', {
      visit: {
        id: randomUUID(),
        visitorTypeId: contractor.id,
        authorizationStatus: 'ALLOWED',
        customFields: [{ customFieldId: plate, value: 'XYZ1234' }],
      },
      visitor: { name: 'Worker Two' },
    });
    assert.equal(decided.body.authorizationStatus, 'allowed', 'a client that decides keeps its decision');
    const listed = await api('GET', `/v1/visits?queryKey=visitorTypeId&queryOp===&queryValue=${contractor.id}`);
    assert.equal(listed.body.size, 2);
    await api('DELETE', `/v1/customfield/${plate}`);
  });

  test('an invitee carries its type; its check-in completes the answers and follows the type', async () => {
    const badge = await define({ name: 'Badge colour', type: 'Dropdown', options: ['Red', 'Blue'], required: true });
    const purpose = await define({ name: 'Purpose', type: 'Text', required: true });
    const safety = await define({
      name: 'Safety rules read',
      type: 'Checkbox',
      required: true,
      location: 'QUESTIONNAIRE',
    });
    const interview = (await api('POST', '/v1/visitortypes', { kind: 'interview', requireAuthorization: true })).body;
    assert.deepEqual((await api('POST', '/v1/invitees', { visitorTypeId: 'nosuchtyp' })).status, 400);

    const invitee = await invite({ visitorTypeId: interview.id, customFields: [{ id: badge, value: 'Red' }] });
    assert.equal(invitee.visitorTypeId, interview.id);
    assert.equal((await api('GET', `/v1/invitee/${invitee.id}`)).body.visitorTypeId, interview.id);
    const wrong = await api('PATCH', `/v1/invitee/${invitee.id}`, { visitorTypeId: 'nosuchtyp' });
    assert.deepEqual([wrong.status, wrong.body], [400, { type: 'VISITOR_TYPE_NOT_FOUND' }]);

    // What the invitation did not answer is still required at the door.
    const missing = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { id: randomUUID() });
    assert.deepEqual(missing.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: purpose, reason: 'required' });
    const stillMissing = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      id: randomUUID(),
      customFields: [{ customFieldId: purpose, value: 'Interview with Helena' }],
    });
    assert.deepEqual(stillMissing.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: safety, reason: 'required' });

    const visit = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      id: randomUUID(),
      customFields: [{ customFieldId: purpose, value: 'Interview with Helena' }],
      questionnaireFields: [{ customFieldId: safety, value: 'true' }],
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    assert.deepEqual(
      visit.body.customFields.map((f: { id: string; value: string }) => [f.id, f.value]),
      [
        [badge, 'Red'],
        [purpose, 'Interview with Helena'],
      ],
      "the invitation's answer is kept beside the one given at the door",
    );
    assert.equal(visit.body.visitorTypeId, interview.id);
    assert.equal(visit.body.authorizationStatus, 'waiting', "the interview type's approval rule");
    for (const id of [badge, purpose, safety]) await api('DELETE', `/v1/customfield/${id}`);
  });

  test('the front desk may let an invitee in without the missing answers, with a reason the audit log keeps', async () => {
    const nda = await define({ name: 'NDA number', type: 'Text', required: true });
    const invitee = await invite({});
    const tooShort = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      id: randomUUID(),
      waiveReason: ' ',
    });
    assert.deepEqual(tooShort.body, { type: 'INVALID_PARAMETER', field: 'waiveReason' });
    const visitId = randomUUID();
    const visit = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      id: visitId,
      waiveReason: 'Signed the paper form at the desk',
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    assert.equal(visit.body.isInsideCompany, true);
    const audit = await api('GET', `/v1/audit?queryKey=objectId&queryOp===&queryValue=${visitId}`);
    const entry = audit.body.entries.find((e: { action: string }) => e.action === 'visit.requirements.waived');
    assert.ok(entry, JSON.stringify(audit.body));
    assert.deepEqual(entry.details, { reason: 'Signed the paper form at the desk', unanswered: [nda] });
    await api('DELETE', `/v1/customfield/${nda}`);
  });
});

describe('POST /v1/visits/screen', () => {
  test('a blocklisted visitor is stopped and recorded at once; anyone else goes on and nothing is stored', async () => {
    await api('POST', '/v1/blockedlist', { name: 'Igor', cpf: '529.982.247-25', reason: 'Threatened the staff' });
    const cleared = randomUUID();
    const fine = await api('POST', '/v1/visits/screen', {
      visit: { id: cleared, hostId },
      visitor: { name: 'Someone Else', cpf: '111.444.777-35' },
    });
    assert.deepEqual([fine.status, fine.body], [200, { stop: false }]);
    assert.equal((await api('GET', `/v1/visit/${cleared}`)).status, 404, 'nothing recorded');

    const stopped = randomUUID();
    const blocked = await api('POST', '/v1/visits/screen', {
      visit: { id: stopped, hostId },
      visitor: { name: 'Igor B', cpf: '52998224725' },
    });
    assert.deepEqual([blocked.status, blocked.body], [200, { stop: true }], 'no reason, no entry: only "stop"');
    const recorded = (await api('GET', `/v1/visit/${stopped}`)).body;
    assert.deepEqual([recorded.visitorStatus, recorded.isInsideCompany], ['BLOCKED', false]);
    const again = await api('POST', '/v1/visits/screen', { visit: { id: stopped }, visitor: { name: 'Igor B' } });
    assert.deepEqual(again.body, { stop: true }, 'asking again answers the same');
    const finished = await api('POST', '/v1/visits', { visit: { id: stopped }, visitor: { name: 'Igor B' } });
    assert.equal(finished.body.visitorStatus, 'BLOCKED', 'the check-in that follows cannot undo the stop');

    const invitee = await invite({ cpf: '529.982.247-25' });
    const inviteeVisit = randomUUID();
    const screened = await api('POST', '/v1/visits/screen', { visit: { id: inviteeVisit }, inviteeId: invitee.id });
    assert.deepEqual(screened.body, { stop: true });
    assert.equal((await api('GET', `/v1/visit/${inviteeVisit}`)).body.visitorStatus, 'BLOCKED');

    for (const [body, error] of [
      [{ visit: { id: 'not-a-uuid' }, visitor: { name: 'X' } }, 'INVALID_ID'],
      [{ visit: {}, visitor: { name: 'X' } }, 'MISSING_ID'],
      [{ visit: { id: randomUUID() }, inviteeId: 'nobody' }, 'INVITEE_NOT_FOUND'],
      [{ visit: { id: randomUUID() }, visitor: { email: 'not an e-mail' } }, 'INVALID_EMAIL'],
    ] as const) {
      assert.equal((await api('POST', '/v1/visits/screen', body)).body.type, error, JSON.stringify(body));
    }
  });
});

describe('hostNotified', () => {
  test("a check-in says how far its host's message went: none, sending (queued is not told), notified", async () => {
    const company = client(service.url, (await service.company('Told')).apiKey);
    const host = (await company('POST', '/v1/hosts', { name: 'Nina', email: 'nina@told.test' })).body;
    const quiet = (await company('POST', '/v1/hosts', { name: 'Otto', email: 'otto@told.test' })).body;
    await company('PATCH', `/v1/host/${quiet.id}`, { preCheckinNotifications: false });
    const checkIn = (hostId: string | null) =>
      company('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name: 'Vera' } });
    const told = (reply: { body: Record<string, unknown> }) => [reply.body.hostNotification, reply.body.hostNotified];

    const before = await checkIn(host.id);
    assert.deepEqual(told(before), ['none', false], 'no channel is set up: nobody is being told');
    // A channel that is set up: the message is queued, and not yet confirmed by its receiver.
    await company('POST', '/v1/integration/notifications', { webhookUrl: 'http://127.0.0.1:9/hook' });
    const after = await checkIn(host.id);
    assert.deepEqual(told(after), ['sending', false], 'a message queued is not a message delivered');
    assert.equal((await company('GET', `/v1/visit/${before.body.id}`)).body.hostNotification, 'none');
    assert.deepEqual(told(await checkIn(quiet.id)), ['none', false], 'a host who asked not to be told is not');
    assert.deepEqual(told(await checkIn(null)), ['none', false], 'no host, nobody told');
  });
});
