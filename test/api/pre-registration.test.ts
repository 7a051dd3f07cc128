import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { jpegBytes, pdfBytes } from '../helpers/files.ts';
import { signedLink } from '../helpers/links.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { withServiceDb } from '../helpers/store.ts';

/*
 * The register page's endpoints (docs/api.md, "Public pages"): the link is the guest's credential, the window and
 * the invitation's state decide whether it takes answers, and what it stores completes the check-in at the kiosk.
 */

let service: TestService;
let company: { id: string; apiKey: string };
let admin: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;
let hostId: string;
const fields: Record<string, string> = {};
const day = 86_400_000;

before(async () => {
  service = await startService({ args: ['--public-url', 'https://visitors.acme.test'] });
  company = (await service.company('Acme', 'UTC')) as typeof company;
  admin = client(service.url, company.apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
  hostId = (await admin('POST', '/v1/hosts', { name: 'Helena Prado', email: 'helena@acme.test' })).body.id;
  // The settings make the company's link key.
  assert.equal((await admin('POST', '/v1/integration/notifications', { additionalEmails: [] })).status, 200);
  for (const [key, definition] of Object.entries({
    plate: { name: 'Vehicle plate', type: 'Text', required: true, sort: 0 },
    group: { name: 'People in your group', type: 'Number', sort: 1 },
    safety: { name: 'I will follow the safety rules', type: 'Checkbox', required: true, location: 'QUESTIONNAIRE' },
  })) {
    const reply = await admin('POST', '/v1/customfields', definition);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    fields[key] = reply.body.id;
  }
  const settings = await admin('PATCH', '/v1/kiosk/settings', {
    pictureMode: 'required',
    ndaText: 'I will keep what I see confidential.',
  });
  assert.equal(settings.status, 200, JSON.stringify(settings.body));
});
after(() => service.stop());

async function invitee(extra: Record<string, unknown> = {}) {
  const reply = await admin('POST', '/v1/invitees', {
    name: 'Otto Brandt',
    email: `otto.${randomUUID().slice(0, 8)}@guest.test`,
    expectedAt: new Date(Date.now() + 3_600_000).toISOString(),
    hostId,
    ...extra,
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
}

const link = (subjectId: string, options: { purpose?: 'register' | 'decide'; expiresAt?: number } = {}) =>
  signedLink(service, company.id, {
    purpose: options.purpose ?? 'register',
    subjectId,
    expiresAt: options.expiresAt ?? Date.now() + day,
  });

/** A JSON call of the page's, as its script makes it. */
async function call(url: string, body?: unknown) {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { type?: string } };
}

const page = async (url: string) => {
  const response = await fetch(url, { headers: { accept: 'text/html', 'accept-language': 'en' } });
  return { status: response.status, text: await response.text(), csp: response.headers.get('content-security-policy') };
};

const complete = async () => ({
  customFields: [
    { customFieldId: fields.plate, value: 'ABC-1234' },
    { customFieldId: fields.group, value: '3' },
  ],
  questionnaireFields: [{ customFieldId: fields.safety, value: 'true' }],
  picture: jpegBytes().toString('base64'),
  nda: (await pdfBytes('I will keep what I see confidential. Signed: Otto Brandt')).toString('base64'),
  ndaSignature: 'DRAWN',
});

describe('a register link', () => {
  test('opens the page (its own script, under the kiosk pages’ CSP) and its form', async () => {
    const guest = await invitee();
    const url = await link(guest.id);
    const shown = await page(url);
    assert.equal(shown.status, 200);
    assert.match(shown.text, /<script type="module" crossorigin src="\/assets\/guest-[\w-]+\.js">/);
    assert.match(shown.csp ?? '', /script-src 'self'/);
    const form = await call(`${url}/form`);
    assert.equal(form.status, 200, JSON.stringify(form.body));
    const asked = form.body as unknown as {
      fields: { id: string }[];
      questions: { id: string }[];
      pictureMode: string;
      ndaText: string;
      guest: { firstName: string; hostName: string };
      registration: { registeredAt: string | null };
    };
    // The required fields and the questionnaire, as the kiosk would ask them; an optional field is not asked.
    assert.deepEqual(
      asked.fields.map((f) => f.id),
      [fields.plate],
    );
    assert.deepEqual(
      asked.questions.map((f) => f.id),
      [fields.safety],
    );
    assert.equal(asked.pictureMode, 'required');
    assert.equal(asked.ndaText, 'I will keep what I see confidential.');
    assert.deepEqual(asked.guest.firstName, 'Otto');
    assert.equal(asked.guest.hostName, 'Helena Prado');
    assert.equal(asked.registration.registeredAt, null);
  });

  test('refuses a forged, altered, expired or other-purpose token, as a page and as JSON', async () => {
    const guest = await invitee();
    const good = await link(guest.id);
    const [payload, signature = ''] = good.split('/').at(-1)?.split('.') ?? [];
    const altered = good.replace(
      signature,
      `${signature.slice(0, 5)}${signature[5] === 'A' ? 'B' : 'A'}${signature.slice(6)}`,
    );
    const forged = `${service.url}/p/register/${Buffer.from(
      JSON.stringify({ c: company.id, p: 'register', s: guest.id, e: Date.now() + day, n: 'x' }),
    ).toString('base64url')}.${signature}`;
    const otherPurpose = (await link(guest.id, { purpose: 'decide' })).replace('/p/decide/', '/p/register/');
    for (const url of [altered, forged, otherPurpose, `${service.url}/p/register/${payload}`]) {
      assert.deepEqual(await call(`${url}/form`), { status: 404, body: { type: 'LINK_INVALID' } }, url);
      assert.deepEqual(await call(`${url}/registration`, await complete()), {
        status: 404,
        body: { type: 'LINK_INVALID' },
      });
      const shown = await page(url);
      assert.equal(shown.status, 404);
      assert.match(shown.text, /This link cannot be used/);
    }
    const expired = await link(guest.id, { expiresAt: Date.now() - 1000 });
    assert.deepEqual(await call(`${expired}/form`), { status: 403, body: { type: 'LINK_EXPIRED' } });
    assert.match((await page(expired)).text, /The link has expired/);
  });

  test('refuses answers that do not hold, as JSON errors, and stores nothing', async () => {
    const guest = await invitee();
    const url = `${await link(guest.id)}/registration`;
    const whole = await complete();
    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [
        { ...whole, customFields: [] },
        400,
        { type: 'INVALID_CUSTOM_FIELD', customFieldId: fields.plate, reason: 'required' },
      ],
      [
        { ...whole, customFields: [{ customFieldId: fields.group, value: 'three' }] },
        400,
        { type: 'INVALID_CUSTOM_FIELD', customFieldId: fields.group, reason: 'number' },
      ],
      [
        { ...whole, customFields: [{ customFieldId: 'no-such-field', value: 'x' }] },
        400,
        { type: 'INVALID_CUSTOM_FIELD', customFieldId: 'no-such-field', reason: 'unknown' },
      ],
      [
        { ...whole, questionnaireFields: [] },
        400,
        { type: 'INVALID_CUSTOM_FIELD', customFieldId: fields.safety, reason: 'required' },
      ],
      [{ ...whole, picture: undefined }, 400, { type: 'MISSING_PICTURE', field: 'picture' }],
      [
        { ...whole, picture: Buffer.from('not a picture').toString('base64') },
        400,
        { type: 'INVALID_PICTURE', field: 'picture' },
      ],
      [{ ...whole, nda: undefined }, 400, { type: 'MISSING_NDA', field: 'nda' }],
      [{ ...whole, nda: jpegBytes().toString('base64') }, 400, { type: 'INVALID_NDA', field: 'nda' }],
      [{ ...whole, ndaSignature: 'SCRIBBLED' }, 400, { type: 'INVALID_PARAMETER', field: 'ndaSignature' }],
    ];
    for (const [body, status, answer] of cases) {
      assert.deepEqual(await call(url, body), { status, body: answer }, JSON.stringify(answer));
    }
    assert.deepEqual(await call(url, '{"customFields": ['), { status: 400, body: { type: 'INVALID_BODY' } });
    const deep = `{"customFields": ${'['.repeat(500)}${']'.repeat(500)}}`;
    assert.deepEqual(await call(url, deep), { status: 400, body: { type: 'INVALID_BODY' } });
    const large = { ...whole, picture: 'A'.repeat(4 * 1024 * 1024) };
    assert.deepEqual(await call(url, large), {
      status: 413,
      body: { type: 'PAYLOAD_TOO_LARGE', maxBytes: 3 * 1024 * 1024 },
    });
    assert.equal((await admin('GET', `/v1/invitee/${guest.id}`)).body.registeredAt, null);
  });

  test('stores the registration on the invitee, audited, editable until the visit', async () => {
    const guest = await invitee();
    const url = await link(guest.id);
    const saved = await call(`${url}/registration`, await complete());
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const stored = (await admin('GET', `/v1/invitee/${guest.id}`)).body;
    assert.equal(stored.registeredAt, saved.body.registeredAt);
    assert.deepEqual(
      stored.customFields.map((f: { id: string; value: string }) => [f.id, f.value]),
      [
        [fields.plate, 'ABC-1234'],
        [fields.group, '3'],
      ],
    );
    // Shown again, the form holds what was registered; a change sends only what changes.
    const form = (await call(`${url}/form`)).body as { registration: Record<string, unknown> };
    assert.equal(form.registration.signed, true);
    assert.match(String(form.registration.picture), /^data:image\/jpeg;base64,/);
    assert.deepEqual((form.registration.answers as Record<string, string>)[fields.plate ?? ''], 'ABC-1234');
    const again = await call(`${url}/registration`, {
      customFields: [{ customFieldId: fields.plate, value: 'XYZ-9876' }],
      questionnaireFields: [{ customFieldId: fields.safety, value: 'true' }],
    });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    const audit = (await admin('GET', '/v1/audit?limit=1000')).body.entries.filter(
      (entry: { action: string; objectId: string }) =>
        entry.action === 'invitee.registered' && entry.objectId === guest.id,
    );
    assert.equal(audit.length, 2);
    assert.equal(audit[0].actorRole, 'guest');
    assert.deepEqual(
      audit.map((entry: { details: { again: boolean; picture: boolean; nda: boolean } }) => entry.details),
      [
        { again: false, answers: 3, picture: true, nda: true },
        { again: true, answers: 3, picture: true, nda: true },
      ],
    );

    // At the kiosk: nothing more to ask, and the check-in carries the answers, the picture and the agreement.
    const found = await kiosk('POST', '/v1/kiosk/invitees/find', { code: `portaria:invitee:${guest.id}` });
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const shown = found.body.invitees[0];
    assert.equal(shown.preRegistered, true);
    assert.equal(shown.hasAgreement, true);
    assert.equal(shown.hasPicture, true);
    assert.deepEqual(new Set(shown.answeredFieldIds), new Set([fields.plate, fields.group, fields.safety]));
    const checkin = await kiosk('POST', '/v1/kiosk/invitee/checkin', { ticket: shown.ticket, visitId: randomUUID() });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    const visit = (await admin('GET', `/v1/visit/${checkin.body.id}`)).body;
    assert.deepEqual(
      visit.customFields.map((f: { id: string; value: string }) => [f.id, f.value]),
      [
        [fields.plate, 'XYZ-9876'],
        [fields.group, '3'],
      ],
    );
    assert.deepEqual(
      visit.questionnaireFields.map((f: { customFieldId: string; value: string }) => [f.customFieldId, f.value]),
      [[fields.safety, 'true']],
    );
    assert.equal(visit.ndaSignature, 'DRAWN');
    const picture = await admin('GET', visit.pictureUrl);
    assert.equal(picture.status, 200);
    const nda = await fetch(`${service.url}${visit.ndaSignedUrl}`);
    assert.match(Buffer.from(await nda.arrayBuffer()).toString('latin1'), /^%PDF-/);

    // Once the guest has arrived, the link shows so and takes nothing more.
    assert.match((await page(url)).text, /You have already checked in for this visit/);
    assert.deepEqual(await call(`${url}/registration`, await complete()), {
      status: 409,
      body: { type: 'INVITEE_ARRIVED' },
    });
  });

  test('is open in the meeting’s registration window, else from the invitation to the end of the visit’s day', async () => {
    const meeting = async (window: Record<string, string>) => {
      const start = new Date(Date.now() + 2 * day).toISOString();
      const email = `guest.${randomUUID().slice(0, 8)}@guest.test`;
      const reply = await admin('POST', '/v1/meetings', {
        title: 'Plant tour',
        guests: [email],
        start,
        end: new Date(Date.now() + 2 * day + 3_600_000).toISOString(),
        location: 'Gate 2',
        type: 'MEETING',
        hostId,
        ...window,
      });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const list = (await admin('GET', '/v1/invitees?limit=1000')).body.invitees as { id: string; email: string }[];
      const found = list.find((i) => i.email === email);
      assert.ok(found);
      return found.id;
    };
    const early = await link(await meeting({ startRegistrationAt: new Date(Date.now() + day).toISOString() }));
    const opening = await page(early);
    assert.equal(opening.status, 200);
    assert.match(opening.text, /Registration opens on/);
    assert.deepEqual(await call(`${early}/form`), { status: 409, body: { type: 'REGISTRATION_NOT_OPEN' } });
    assert.deepEqual(await call(`${early}/registration`, await complete()), {
      status: 409,
      body: { type: 'REGISTRATION_NOT_OPEN' },
    });

    const closed = await link(await meeting({ endRegistrationAt: new Date(Date.now() - 60_000).toISOString() }));
    assert.match((await page(closed)).text, /Registration for this visit has closed/);
    assert.deepEqual(await call(`${closed}/registration`, await complete()), {
      status: 409,
      body: { type: 'REGISTRATION_CLOSED' },
    });

    const open = await link(
      await meeting({
        startRegistrationAt: new Date(Date.now() - day).toISOString(),
        endRegistrationAt: new Date(Date.now() + day).toISOString(),
      }),
    );
    assert.equal((await call(`${open}/form`)).status, 200);

    // Without a meeting's window: yesterday's guest can no longer register.
    const yesterday = await link(
      (await invitee({ expectedAt: new Date(Date.now() - day - 3_600_000).toISOString() })).id,
    );
    assert.deepEqual(await call(`${yesterday}/form`), { status: 409, body: { type: 'REGISTRATION_CLOSED' } });
  });

  test('of a canceled or deleted invitation says so and takes nothing', async () => {
    const canceled = await invitee();
    assert.equal((await admin('PATCH', `/v1/invitee/${canceled.id}`, { status: 'canceled' })).status, 200);
    const deleted = await invitee();
    assert.equal((await admin('DELETE', `/v1/invitee/${deleted.id}`)).status, 200);
    for (const id of [canceled.id, deleted.id]) {
      const url = await link(id);
      assert.match((await page(url)).text, /This invitation was canceled/);
      assert.deepEqual(await call(`${url}/registration`, await complete()), {
        status: 409,
        body: { type: 'INVITEE_CANCELED' },
      });
    }
  });

  test('leaves the door its say: the blocklist and the approval still apply at the one-scan check-in', async () => {
    await admin('POST', '/v1/blockedlist', { name: 'Mallory Blocked', email: 'mallory@guest.test', reason: 'Theft' });
    const blocked = await invitee({ name: 'Mallory Blocked', email: 'mallory@guest.test' });
    const approval = await invitee({ requiresAuthorization: true });
    const visits: Record<string, { visitorStatus: string | null; authorizationStatus: string | null }> = {};
    for (const [name, guest] of Object.entries({ blocked, approval })) {
      assert.equal((await call(`${await link(guest.id)}/registration`, await complete())).status, 200);
      const found = await kiosk('POST', '/v1/kiosk/invitees/find', { code: guest.id });
      const checkin = await kiosk('POST', '/v1/kiosk/invitee/checkin', {
        ticket: found.body.invitees[0].ticket,
        visitId: randomUUID(),
      });
      assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
      visits[name] = checkin.body;
    }
    assert.equal(visits.blocked?.visitorStatus, 'BLOCKED');
    assert.equal(visits.approval?.authorizationStatus, 'waiting');
  });

  test('is erased with the invitee: the answers, the picture and the agreement', async () => {
    const guest = await invitee({ email: 'erase.me@guest.test' });
    assert.equal((await call(`${await link(guest.id)}/registration`, await complete())).status, 200);
    assert.equal((await admin('POST', '/v1/privacy/erasure', { email: 'erase.me@guest.test' })).status, 200);
    const row = await withServiceDb(service.dataDir, async (db) =>
      db
        .prepare(
          'SELECT registrationPicture, registrationNda, ndaSignature, questionnaireFields, customFields FROM invitees WHERE id = ?',
        )
        .get(guest.id),
    );
    assert.deepEqual(row, {
      registrationPicture: null,
      registrationNda: null,
      ndaSignature: null,
      questionnaireFields: '[]',
      customFields: '[]',
    });
  });
});
