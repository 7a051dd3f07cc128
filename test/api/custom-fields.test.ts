import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let lists: ReturnType<typeof client>;
let checks: ReturnType<typeof client>;
let hostId: string;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Acme')).apiKey);
  other = client(service.url, (await service.company('Globex')).apiKey);
  lists = client(service.url, (await service.company('Field lists')).apiKey);
  checks = client(service.url, (await service.company('Checks')).apiKey);
  hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@acme.test' })).body.id;
});
after(() => service.stop());

describe('/v1/customfields', () => {
  test('creates the Custom Field Object of docs/api.md, "Custom fields" with its defaults', async () => {
    const { status, body } = await api('POST', '/v1/customfields', {
      name: 'Purpose of visit',
      type: 'dropdown',
      options: ['Meeting', 'Delivery', 'Interview'],
      localizedName: { en: 'Purpose of visit', 'pt-BR': 'Motivo da visita', de: 'Besuchszweck', 'zh-Hans': '来访目的' },
    });
    assert.equal(status, 200);
    assert.match(body.id, /^[a-z0-9]{9}$/);
    assert.equal(body.type, 'Dropdown');
    assert.deepEqual(body.options, ['Meeting', 'Delivery', 'Interview']);
    assert.equal(body.required, false);
    assert.equal(body.sort, 0);
    assert.equal(body.location, 'FIELD');
    assert.equal(body.localizedName['pt-BR'], 'Motivo da visita');
    assert.deepEqual((await api('GET', `/v1/customfield/${body.id}`)).body, body);

    const patched = await api('PATCH', `/v1/customfield/${body.id}`, { required: true, sort: 3, name: 'Purpose' });
    assert.deepEqual([patched.body.required, patched.body.sort, patched.body.name], [true, 3, 'Purpose']);
    assert.deepEqual((await api('DELETE', `/v1/customfield/${body.id}`)).body, { success: true });
    assert.equal((await api('GET', `/v1/customfield/${body.id}`)).status, 404);
  });

  test('checks definitions', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ type: 'Text' }, { type: 'MISSING_NAME' }],
      [{ name: 'X' }, { type: 'INVALID_PARAMETER', field: 'type' }],
      [
        { name: 'X', type: 'Slider' },
        { type: 'INVALID_PARAMETER', field: 'type' },
      ],
      [
        { name: 'X', type: 'Dropdown' },
        { type: 'INVALID_PARAMETER', field: 'options' },
      ],
      [
        { name: 'X', type: 'Text', location: 'LOBBY' },
        { type: 'INVALID_PARAMETER', field: 'location' },
      ],
      [
        { name: 'X', type: 'Text', localizedName: { en: 5 } },
        { type: 'INVALID_PARAMETER', field: 'localizedName.en' },
      ],
    ];
    for (const [body, error] of cases) {
      const reply = await api('POST', '/v1/customfields', body);
      assert.deepEqual([reply.status, reply.body], [400, error], JSON.stringify(body));
    }
    const dropdown = (await api('POST', '/v1/customfields', { name: 'D', type: 'Dropdown', options: ['a'] })).body;
    const emptied = await api('PATCH', `/v1/customfield/${dropdown.id}`, { options: [] });
    assert.deepEqual(emptied.body, { type: 'INVALID_PARAMETER', field: 'options' });
  });

  test('lists in the kiosk’s order and by location; other companies see none', async () => {
    for (const [name, sort, location] of [
      ['Third', 2, 'FIELD'],
      ['First', 0, 'FIELD'],
      ['Survey', 0, 'FEEDBACK'],
      ['Second', 1, 'FIELD'],
    ] as const) {
      await lists('POST', '/v1/customfields', { name, type: 'Text', sort, location });
    }
    const names = (r: { body: { customFields: { name: string }[] } }) => r.body.customFields.map((f) => f.name);
    assert.deepEqual(names(await lists('GET', '/v1/customfields')), ['First', 'Survey', 'Second', 'Third']);
    assert.deepEqual(names(await lists('GET', '/v1/customfields?queryKey=location&queryOp===&queryValue=FIELD')), [
      'First',
      'Second',
      'Third',
    ]);
    assert.equal((await other('GET', '/v1/customfields')).body.size, 0);
    const mine = (await lists('GET', '/v1/customfields')).body.customFields[0].id;
    assert.equal((await other('GET', `/v1/customfield/${mine}`)).status, 404);
    assert.deepEqual((await lists('DELETE', '/v1/customfield/')).body, { type: 'MISSING_ID' });
  });
});

describe('answers are checked against the definitions', () => {
  let host: string;
  const ids: Record<string, string> = {};

  before(async () => {
    host = (await checks('POST', '/v1/hosts', { name: 'Hugo', email: 'hugo@checks.test' })).body.id;
    const definitions: Record<string, Record<string, unknown>> = {
      purpose: { name: 'Purpose', type: 'Dropdown', options: ['Meeting', 'Delivery'], required: true, sort: 1 },
      consent: { name: 'I accept the privacy terms', type: 'Checkbox', required: true, sort: 0 },
      birthday: { name: 'Birthday', type: 'Date', sort: 2 },
      guests: { name: 'Companions', type: 'Number', sort: 3 },
      contact: { name: 'Contact e-mail', type: 'Email', sort: 4 },
      quiz: {
        name: 'Safety quiz',
        type: 'Dropdown',
        options: ['Run', 'Walk'],
        location: 'QUESTIONNAIRE',
        required: true,
      },
      rating: { name: 'How was it?', type: 'Number', location: 'FEEDBACK', required: true },
    };
    for (const [key, definition] of Object.entries(definitions)) {
      ids[key] = (await checks('POST', '/v1/customfields', definition)).body.id;
    }
  });

  const valid = () => ({
    customFields: [
      { customFieldId: ids.purpose, value: 'Meeting' },
      { customFieldId: ids.consent, value: 'true' },
    ],
    questionnaireFields: [{ customFieldId: ids.quiz, value: 'Walk', isCorrect: true }],
  });
  const checkIn = (visit: Record<string, unknown>) =>
    checks('POST', '/v1/visits', { visit: { id: randomUUID(), hostId: host, ...visit }, visitor: { name: 'Vera' } });

  test('a valid check-in shows each answer with its definition’s name and type, in order', async () => {
    const { status, body } = await checkIn({
      ...valid(),
      customFields: [
        { customFieldId: ids.birthday, value: '1990-02-28' },
        ...valid().customFields,
        { customFieldId: ids.guests, value: '2' },
        { customFieldId: ids.contact, value: 'vera@visitor.test' },
      ],
    });
    assert.equal(status, 200);
    assert.deepEqual(
      body.customFields.map((f: { id: string; name: string; type: string; value: string }) => [
        f.name,
        f.type,
        f.value,
      ]),
      [
        ['I accept the privacy terms', 'Checkbox', 'true'],
        ['Purpose', 'Dropdown', 'Meeting'],
        ['Birthday', 'Date', '1990-02-28'],
        ['Companions', 'Number', '2'],
        ['Contact e-mail', 'Email', 'vera@visitor.test'],
      ],
    );
    assert.equal(body.customFields[1].id, ids.purpose);
    assert.equal(body.questionnaireFields[0].name, 'Safety quiz');
    assert.equal(body.questionnaireFields[0].isCorrect, true);
  });

  test('each problem is INVALID_CUSTOM_FIELD naming the field and the reason', async () => {
    const answer = (key: string, value: string) => ({ customFieldId: ids[key], value });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customFields: [...valid().customFields, { customFieldId: 'nosuchone', value: 'x' }] }, 'nosuchone', 'unknown'],
      [{ customFields: [answer('consent', 'true')] }, ids.purpose as string, 'required'],
      [{ customFields: [answer('purpose', 'Meeting'), answer('consent', 'false')] }, ids.consent as string, 'required'],
      [{ customFields: [answer('purpose', 'Party'), answer('consent', 'true')] }, ids.purpose as string, 'option'],
      [{ customFields: [...valid().customFields, answer('birthday', '1990-02-30')] }, ids.birthday as string, 'date'],
      [{ customFields: [...valid().customFields, answer('guests', 'two')] }, ids.guests as string, 'number'],
      [{ customFields: [...valid().customFields, answer('contact', 'vera@')] }, ids.contact as string, 'email'],
      [{ customFields: [answer('purpose', 'Meeting'), answer('consent', 'yes')] }, ids.consent as string, 'checkbox'],
      [{ customFields: [...valid().customFields, answer('quiz', 'Run')] }, ids.quiz as string, 'location'],
      [{ customFields: [...valid().customFields, answer('purpose', 'Delivery')] }, ids.purpose as string, 'duplicate'],
      [{ customFields: valid().customFields, questionnaireFields: [] }, ids.quiz as string, 'required'],
    ];
    for (const [answers, customFieldId, reason] of cases) {
      const reply = await checkIn({ ...valid(), ...answers });
      assert.deepEqual(
        [reply.status, reply.body],
        [400, { type: 'INVALID_CUSTOM_FIELD', customFieldId, reason }],
        JSON.stringify(answers),
      );
    }
  });

  test('feedback comes later: required at update time, not at check-in', async () => {
    const visit = (await checkIn(valid())).body;
    const missing = await checks('PATCH', `/v1/visit/${visit.id}`, { visit: { feedbacks: [] } });
    assert.deepEqual(missing.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: ids.rating, reason: 'required' });
    const rated = await checks('PATCH', `/v1/visit/${visit.id}`, {
      visit: { feedbacks: [{ customFieldId: ids.rating, value: '5' }] },
    });
    assert.equal(rated.body.feedbacks[0].name, 'How was it?');
    assert.equal(rated.body.customFields.length, 2, 'lists not sent stay as they were');
  });

  test('invitee answers are checked too, and carried to the invitee’s check-in', async () => {
    const bad = await checks('POST', '/v1/invitees', {
      name: 'Ian',
      email: 'ian@guest.test',
      hostId: host,
      expectedAt: 1_800_000_000,
      customFields: [{ id: 'nosuchone', value: 'x' }],
    });
    assert.deepEqual(bad.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: 'nosuchone', reason: 'unknown' });
    const invitee = (
      await checks('POST', '/v1/invitees', {
        name: 'Ian',
        email: 'ian@guest.test',
        hostId: host,
        expectedAt: 1_800_000_000,
        customFields: [{ id: ids.purpose, value: 'Delivery' }],
      })
    ).body;
    assert.deepEqual(invitee.customFields, [{ id: ids.purpose, name: 'Purpose', type: 'Dropdown', value: 'Delivery' }]);
    const incomplete = await checks('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {
      questionnaireFields: valid().questionnaireFields,
    });
    assert.deepEqual(incomplete.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: ids.consent, reason: 'required' });
    const done = await checks('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, valid());
    assert.equal(done.status, 200);
    assert.equal(done.body.customFields[1].value, 'Meeting');
  });

  test('a deleted definition: old answers keep its name, new answers to it are refused', async () => {
    const temporary = (await checks('POST', '/v1/customfields', { name: 'Parking spot', type: 'Text' })).body.id;
    const visit = (
      await checkIn({ ...valid(), customFields: [...valid().customFields, { customFieldId: temporary, value: 'B12' }] })
    ).body;
    await checks('DELETE', `/v1/customfield/${temporary}`);
    const read = (await checks('GET', `/v1/visit/${visit.id}`)).body;
    const parking = read.customFields.find((f: { id: string }) => f.id === temporary);
    assert.deepEqual(parking, {
      ...parking,
      id: temporary,
      name: 'Parking spot',
      type: 'Text',
      value: 'B12',
    });
    const again = await checkIn({
      ...valid(),
      customFields: [...valid().customFields, { customFieldId: temporary, value: 'x' }],
    });
    assert.deepEqual(again.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: temporary, reason: 'unknown' });
  });

  test("another company's definitions are unknown here", async () => {
    const reply = await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId, customFields: [{ customFieldId: ids.purpose, value: 'Meeting' }] },
      visitor: { name: 'X' },
    });
    assert.deepEqual(reply.body, { type: 'INVALID_CUSTOM_FIELD', customFieldId: ids.purpose, reason: 'unknown' });
  });
});

describe('every operation that takes answers', () => {
  test('answers INVALID_CUSTOM_FIELD for an answer that fits no definition, as its OpenAPI operation declares', async () => {
    const document = (await api('GET', '/v1/openapi.json')).body;
    const declares = (method: string, path: string) =>
      Object.values(document.paths[path][method].responses as Record<string, unknown>).some((response) =>
        JSON.stringify(response).includes('"INVALID_CUSTOM_FIELD"'),
      );
    const answer = [{ customFieldId: 'nosuchone', value: 'x' }];
    const invitee = async () =>
      (
        await api('POST', '/v1/invitees', {
          name: 'Ines',
          email: 'ines@guest.test',
          hostId,
          expectedAt: 1_800_000_000,
        })
      ).body.id as string;
    const visit = (await api('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Vi' } })).body.id;
    const operations: [string, string, string, unknown][] = [
      [
        'post',
        '/v1/visits',
        '/v1/visits',
        { visit: { id: randomUUID(), customFields: answer }, visitor: { name: 'V' } },
      ],
      [
        'post',
        '/v1/visit/inviteeCheckin/{inviteeId}',
        `/v1/visit/inviteeCheckin/${await invitee()}`,
        { customFields: answer },
      ],
      ['patch', '/v1/visit/{id}', `/v1/visit/${visit}`, { visit: { customFields: answer } }],
      [
        'post',
        '/v1/invitees',
        '/v1/invitees',
        { name: 'I', email: 'i@guest.test', hostId, expectedAt: 1_800_000_000, customFields: [{ id: 'nosuchone' }] },
      ],
      ['patch', '/v1/invitee/{id}', `/v1/invitee/${await invitee()}`, { customFields: [{ id: 'nosuchone' }] }],
    ];
    for (const [method, declared, path, body] of operations) {
      const reply = await api(method.toUpperCase(), path, body);
      assert.deepEqual([reply.status, reply.body.type], [400, 'INVALID_CUSTOM_FIELD'], `${method} ${path}`);
      assert.ok(declares(method, declared), `${method} ${declared} declares INVALID_CUSTOM_FIELD`);
    }
  });
});
