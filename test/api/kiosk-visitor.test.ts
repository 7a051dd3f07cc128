import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { lookupLimits } from '../../local-api/kiosk/visitor-routes.ts';
import { hostSearch } from '../../local-api/kiosk/visitor-schema.ts';
import { client, runCli, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let company: { id: string; apiKey: string; pin: string };
let admin: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;
let hosts: Record<string, string>;

/** Every field of an answer, nested, as `path=value` lines: what the screen was told. */
function flatten(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [`${path}=${String(value)}`];
  return Object.entries(value).flatMap(([key, inner]) => flatten(inner, path ? `${path}.${key}` : key));
}

const today = () => Math.floor(Date.now() / 1000);

before(async () => {
  service = await startService();
  company = (await service.company('Acme', 'UTC')) as typeof company;
  admin = client(service.url, company.apiKey);
  const session = (await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string };
  kiosk = client(service.url, session.apiKey);
  hosts = {};
  for (const [name, email, sector] of [
    ['Ana Souza', 'ana@acme.test', 'R&D'],
    ['José Álvares', 'jose@acme.test', 'Sales'],
    ['Anaïs Dupont', 'anais@acme.test', null],
  ] as const) {
    const created = await admin('POST', '/v1/hosts', {
      name,
      email,
      sector,
      isActive: true,
      phone: '11999990000',
      countryCode: '+55',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    hosts[name] = created.body.id;
  }
  await admin('POST', '/v1/hosts', { name: 'Ana Hidden', email: 'hidden@acme.test', isActive: false });
  await admin('POST', '/v1/integration/access', {
    enabled: true,
    url: 'https://gate.acme.test',
    username: 'gate',
    password: 'the-gate-password',
    aesKey: '0123456789abcdef0123456789abcdef',
  });
});
after(() => service.stop());

describe('the kiosk credential', () => {
  test('is enrolled with a first PIN that nobody at the screen chose', () => {
    assert.match(company.pin, /^\d{8}$/);
  });

  test("reads the company's face and whether access control is on, never a secret", async () => {
    const face = await kiosk('GET', '/v1/kiosk/company');
    assert.deepEqual(face.body, {
      id: company.id,
      name: 'Acme',
      lang: 'en',
      timezone: 'UTC',
      pictureUrl: null,
      accessControl: true,
      passLinks: false,
      brandColor: null,
      welcomeImageUrl: null,
      localizedWelcomeMessage: {},
      returningCodeChannels: [],
    });
    assert.deepEqual((await kiosk('GET', '/v1/integration/access')).body, { type: 'FORBIDDEN' });
    const settings = await kiosk('GET', '/v1/kiosk/settings');
    assert.equal(settings.body.pinSet, true);
    for (const line of flatten([face.body, settings.body])) assert.doesNotMatch(line, /gate-password|0123456789abcdef/);
  });

  test('cannot set the PIN, list credentials or change settings', async () => {
    for (const [method, path, body] of [
      ['POST', '/v1/kiosk/pin', { pin: '11223344' }],
      ['GET', '/v1/credentials', undefined],
      ['PATCH', '/v1/kiosk/settings', { idleSeconds: 30 }],
      ['PATCH', '/v1/company', { name: 'Mine' }],
      ['GET', '/v1/roster', undefined],
    ] as const) {
      assert.deepEqual((await kiosk(method, path, body)).body, { type: 'FORBIDDEN' }, `${method} ${path}`);
    }
  });
});

describe('GET /v1/kiosk/hosts', () => {
  test('finds active hosts by the start of any name, accents aside: name and sector only', async () => {
    const found = await kiosk('GET', '/v1/kiosk/hosts?name=sou');
    assert.deepEqual(found.body, { hosts: [{ id: hosts['Ana Souza'], name: 'Ana Souza', sector: 'R&D' }] });
    const accents = await kiosk('GET', '/v1/kiosk/hosts?name=jose');
    assert.deepEqual(
      accents.body.hosts.map((h: { name: string }) => h.name),
      ['José Álvares'],
    );
    const ana = await kiosk('GET', '/v1/kiosk/hosts?name=ANA');
    assert.deepEqual(
      ana.body.hosts.map((h: { name: string }) => h.name),
      ['Ana Souza', 'Anaïs Dupont'],
      'not the inactive one',
    );
  });

  test(`needs ${hostSearch.minLength} letters and answers ${hostSearch.maxResults} at most`, async () => {
    assert.deepEqual((await kiosk('GET', '/v1/kiosk/hosts?name=an')).body, {
      type: 'INVALID_PARAMETER',
      field: 'name',
    });
    assert.equal((await kiosk('GET', '/v1/kiosk/hosts')).status, 400);
    for (let i = 0; i < 10; i++) {
      await admin('POST', '/v1/hosts', { name: `Zeca ${i}`, email: `zeca${i}@acme.test`, isActive: true });
    }
    assert.equal((await kiosk('GET', '/v1/kiosk/hosts?name=zeca')).body.hosts.length, hostSearch.maxResults);
  });
});

describe('walk-in and the waiting screen', () => {
  test('checks a walk-in in and follows its own visit: the visitor and the host name, nothing else', async () => {
    const id = randomUUID();
    const body = {
      visit: { id, hostId: hosts['Ana Souza'] },
      visitor: { name: 'Rui Alves', email: 'rui@visitor.test', company: 'Globex' },
    };
    const checkin = await kiosk('POST', '/v1/kiosk/walkin', body);
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    assert.deepEqual(Object.keys(checkin.body).sort(), [
      'authorizationStatus',
      'cardNumber',
      'checkinAt',
      'checkoutAt',
      'company',
      'gateCodeSent',
      'hostName',
      'hostNotification',
      'hostNotified',
      'id',
      'isInsideCompany',
      'name',
      'pictureSignedUrl',
      'receipt',
      'visitorStatus',
      'visitorTypeId',
    ]);
    assert.deepEqual(
      [checkin.body.name, checkin.body.hostName, checkin.body.isInsideCompany],
      ['Rui Alves', 'Ana Souza', true],
    );
    const { receipt, ...shown } = checkin.body;
    const { receipt: retried, ...again } = (await kiosk('POST', '/v1/kiosk/walkin', body)).body;
    assert.deepEqual(again, shown, 'a retry answers the same visit');
    const stored = await admin('GET', `/v1/visit/${id}`);
    assert.equal(stored.body.checkinType, 'IPAD');
    assert.deepEqual((await kiosk('GET', `/v1/kiosk/visit/${id}?receipt=${receipt}`)).body, checkin.body);
    assert.deepEqual((await kiosk('GET', `/v1/kiosk/visit/${id}?receipt=${retried}`)).body.id, id);
    const code = await kiosk('GET', `/v1/kiosk/visit/${id}/qrcode?receipt=${receipt}`);
    assert.equal(code.status, 200);
    assert.equal(code.body.subject, 'visitor');
  });

  test('asks the host when the kiosk requires it, whatever the screen sends; a waiting visit gets no gate code', async () => {
    await admin('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
    try {
      const id = randomUUID();
      const checkin = await kiosk('POST', '/v1/kiosk/walkin', {
        visit: { id, hostId: hosts['Ana Souza'], authorizationStatus: 'ALLOWED', checkinAt: 1 },
        visitor: { name: 'Eva Lima' },
      });
      assert.equal(checkin.body.authorizationStatus, 'waiting');
      const receipt = `?receipt=${checkin.body.receipt}`;
      assert.deepEqual((await kiosk('GET', `/v1/kiosk/visit/${id}/qrcode${receipt}`)).body, { type: 'NOT_ALLOWED' });
      await admin('PATCH', `/v1/visit/allow/${id}`, {});
      assert.equal((await kiosk('GET', `/v1/kiosk/visit/${id}${receipt}`)).body.authorizationStatus, 'allowed');
    } finally {
      await admin('PATCH', '/v1/kiosk/settings', { requireAuthorization: false });
    }
  });

  test('a visit that is not the screen’s to follow is NOT_FOUND', async () => {
    assert.deepEqual((await kiosk('GET', `/v1/kiosk/visit/${randomUUID()}`)).body, { type: 'NOT_FOUND' });
    assert.deepEqual((await kiosk('GET', '/v1/kiosk/visit/not-a-uuid')).body, { type: 'NOT_FOUND' });
  });

  test('the blocklist is asked before the rest, and answers stop, never why', async () => {
    await admin('POST', '/v1/blockedlist', {
      name: 'Mallory Bad',
      email: 'mallory@bad.test',
      reason: 'stole a laptop',
    });
    const screen = await kiosk('POST', '/v1/kiosk/screen', {
      visit: { id: randomUUID() },
      visitor: { name: 'Mallory Bad', email: 'mallory@bad.test' },
    });
    assert.deepEqual(screen.body, { stop: true });
  });

  test('a name on the blocklist with no e-mail or phone waits for the reception, told nothing, with no gate code', async () => {
    await admin('POST', '/v1/blockedlist', {
      name: 'Olga Banned',
      email: 'olga@bad.test',
      phone: '11 91111-2222',
      reason: 'stole a laptop',
    });
    const id = randomUUID();
    const visitor = { name: 'olga  banned' };
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/screen', { visit: { id }, visitor })).body, { stop: false });
    const checkin = await kiosk('POST', '/v1/kiosk/walkin', { visit: { id, hostId: hosts['Ana Souza'] }, visitor });
    assert.equal(checkin.status, 200);
    assert.deepEqual(
      [checkin.body.authorizationStatus, checkin.body.visitorStatus, checkin.body.hostNotified],
      ['waiting', null, false],
      'the waiting screen, which says the reception will confirm the visit',
    );
    assert.doesNotMatch(flatten(checkin.body).join('\n'), /laptop|block/i, 'nothing says why');
    const receipt = `?receipt=${checkin.body.receipt}`;
    assert.deepEqual((await kiosk('GET', `/v1/kiosk/visit/${id}/qrcode${receipt}`)).body, { type: 'NOT_ALLOWED' });
    assert.equal((await admin('GET', `/v1/visit/${id}`)).body.heldAtDoor, true);
  });
});

describe('invited guests', () => {
  let guest: { id: string; cardNumber: number };
  before(async () => {
    const created = await admin('POST', '/v1/invitees', {
      name: 'Beatriz Costa Lima',
      email: 'beatriz@guest.test',
      phone: '+5511988887777',
      hostId: hosts['Ana Souza'],
      expectedAt: today(),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    guest = created.body;
    await admin('POST', '/v1/invitees', {
      name: 'Beatriz Costa Lima',
      email: 'tomorrow@guest.test',
      hostId: hosts['Ana Souza'],
      expectedAt: today() + 3 * 86_400,
    });
  });

  test('by code: first name, initial, host and a ticket; never an id, an e-mail or a phone', async () => {
    for (const code of [guest.id, `portaria:invitee:${guest.id}`, String(guest.cardNumber)]) {
      const found = await kiosk('POST', '/v1/kiosk/invitees/find', { code });
      assert.equal(found.body.invitees.length, 1, code);
      const [shown] = found.body.invitees;
      assert.deepEqual(
        [shown.firstName, shown.initial, shown.hostName, shown.expectedToday],
        ['Beatriz', 'L.', 'Ana Souza', true],
      );
      assert.deepEqual(Object.keys(shown).sort(), [
        'answeredFieldIds',
        'expectedAt',
        'expectedToday',
        'firstName',
        'hasAgreement',
        'hasPicture',
        'hostName',
        'initial',
        'preRegistered',
        'ticket',
        'visitorTypeId',
      ]);
      const text = JSON.stringify(found.body);
      for (const secret of [guest.id, 'beatriz@guest.test', '5511988887777', 'Costa'])
        assert.ok(!text.includes(secret), secret);
    }
  });

  test('by name: only the whole name (give or take a typo) of a guest expected today', async () => {
    const exact = await kiosk('POST', '/v1/kiosk/invitees/find', { name: 'beatriz costa lima' });
    assert.equal(exact.body.invitees.length, 1, 'the one expected today, not the one in three days');
    const typo = await kiosk('POST', '/v1/kiosk/invitees/find', { name: 'Beatriz Costa Lma' });
    assert.equal(typo.body.invitees.length, 1);
    for (const name of ['Bea', 'Beatriz', 'Beatriz Lima', 'Costa Lima']) {
      assert.deepEqual((await kiosk('POST', '/v1/kiosk/invitees/find', { name })).body, { invitees: [] }, name);
    }
  });

  test('the ticket checks the guest in, once; an altered ticket is refused', async () => {
    const [shown] = (await kiosk('POST', '/v1/kiosk/invitees/find', { code: guest.id })).body.invitees;
    // One character of the sealed part changed (the last ones may carry only padding bits, or already read "xx").
    const at = 30;
    const altered = `${shown.ticket.slice(0, at)}${shown.ticket[at] === 'A' ? 'B' : 'A'}${shown.ticket.slice(at + 1)}`;
    const visitId = randomUUID();
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/invitee/checkin', { ticket: altered, visitId })).body, {
      type: 'INVALID_TICKET',
    });
    const checkin = await kiosk('POST', '/v1/kiosk/invitee/checkin', { ticket: shown.ticket, visitId });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    assert.deepEqual(
      [checkin.body.id, checkin.body.name, checkin.body.hostName],
      [visitId, 'Beatriz Costa Lima', 'Ana Souza'],
    );
    const again = await kiosk('POST', '/v1/kiosk/invitee/checkin', { ticket: shown.ticket, visitId });
    assert.equal(again.body.id, visitId, 'a retry answers the same visit');
    assert.equal((await admin('GET', `/v1/invitee/${guest.id}`)).body.status, 'arrived');
  });

  test('a canceled invitation says so', async () => {
    const canceled = await admin('POST', '/v1/invitees', {
      name: 'Caio Prado',
      email: 'caio@guest.test',
      hostId: hosts['Ana Souza'],
      expectedAt: today(),
    });
    await admin('PATCH', `/v1/invitee/${canceled.body.id}`, { status: 'canceled' });
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/invitees/find', { code: canceled.body.id })).body, {
      type: 'INVITEE_CANCELED',
    });
  });
});

describe('check-out', () => {
  test("by the badge's code; a second time says so", async () => {
    const id = randomUUID();
    await kiosk('POST', '/v1/kiosk/walkin', { visit: { id }, visitor: { name: 'Olga Matos' } });
    const out = await kiosk('POST', '/v1/kiosk/checkout', { code: `portaria:visit:${id}` });
    assert.deepEqual([out.body.firstName, out.body.initial], ['Olga', 'M.']);
    assert.equal(typeof out.body.checkoutAt, 'string');
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/checkout', { code: id })).body.type, 'ALREADY_CHECKOUT');
  });

  test('by name: a step that answers only the person named, with a ticket; a few letters reveal nobody', async () => {
    const id = randomUUID();
    await kiosk('POST', '/v1/kiosk/walkin', { visit: { id }, visitor: { name: 'Paulo Mendes Rocha' } });
    for (const name of ['Pau', 'Paulo', 'Mendes Rocha', 'Ana']) {
      assert.deepEqual((await kiosk('POST', '/v1/kiosk/checkout/find', { name })).body, { visits: [] }, name);
    }
    const found = await kiosk('POST', '/v1/kiosk/checkout/find', { name: 'paulo mendes rocha' });
    assert.deepEqual(Object.keys(found.body.visits[0]).sort(), ['firstName', 'initial', 'ticket']);
    assert.ok(!JSON.stringify(found.body).includes(id), 'no visit id');
    const out = await kiosk('POST', '/v1/kiosk/checkout', { ticket: found.body.visits[0].ticket });
    assert.deepEqual([out.status, out.body.firstName], [200, 'Paulo']);
    assert.equal((await admin('GET', `/v1/visit/${id}`)).body.isInsideCompany, false);
    const ticketOfInvitee = (await kiosk('POST', '/v1/kiosk/checkout', { ticket: 'e30.AAAA' })).body;
    assert.deepEqual(ticketOfInvitee, { type: 'INVALID_TICKET' });
  });
});

describe('the front-desk session', () => {
  test('the PIN mints a short-lived frontdesk credential that reaches the roster and settings; ending it ends it', async () => {
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/frontdesk', { pin: '00000000' })).body, { type: 'WRONG_PIN' });
    const opened = await kiosk('POST', '/v1/kiosk/frontdesk', { pin: company.pin });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.deepEqual([opened.body.role, opened.body.idleSeconds], ['frontdesk', 600]);
    const desk = client(service.url, opened.body.token);
    assert.equal((await desk('GET', '/v1/roster')).status, 200);
    assert.equal((await desk('PATCH', '/v1/kiosk/settings', { idleSeconds: 90 })).status, 200);
    const access = await desk('GET', '/v1/integration/access');
    assert.deepEqual([access.body.aesKey, access.body.password], ['********', '********'], 'secrets masked');
    const kept = await desk('POST', '/v1/integration/access', {
      aesKey: '********',
      password: '********',
      qrcodeDuration: 30,
    });
    assert.equal(kept.status, 200);
    assert.equal(
      (await admin('GET', '/v1/integration/access')).body.password,
      'the-gate-password',
      'the mask keeps it',
    );
    assert.deepEqual((await desk('GET', '/v1/credentials')).body, { type: 'FORBIDDEN' });
    assert.deepEqual(
      (await desk('PUT', '/v1/sync/upstream', { url: 'http://hub.test', apiKey: 'x'.repeat(20) })).body,
      {
        type: 'FORBIDDEN',
      },
    );
    const listed = (await admin('GET', '/v1/credentials')).body.credentials;
    assert.ok(listed.some((c: { role: string; expiresAt: string | null }) => c.role === 'frontdesk' && c.expiresAt));
    assert.deepEqual((await desk('DELETE', '/v1/kiosk/frontdesk')).body, { success: true });
    assert.deepEqual((await desk('GET', '/v1/roster')).body, { type: 'UNAUTHORIZED' });
  });

  test("the admin clears a forgotten PIN (ending the desk's sessions) and sets a new one; the screen cannot", async () => {
    const desk = client(service.url, (await kiosk('POST', '/v1/kiosk/frontdesk', { pin: company.pin })).body.token);
    assert.deepEqual((await admin('DELETE', '/v1/kiosk/pin')).body, { success: true });
    assert.equal((await desk('GET', '/v1/roster')).status, 401);
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/frontdesk', { pin: company.pin })).body, { type: 'PIN_NOT_SET' });
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/pin', { pin: '55667788' })).body, { type: 'FORBIDDEN' });
    assert.deepEqual((await admin('POST', '/v1/kiosk/pin', { pin: company.pin })).body, { success: true });
    assert.equal((await kiosk('POST', '/v1/kiosk/frontdesk', { pin: company.pin })).status, 200);
  });
});

describe('lookups that find nobody', () => {
  test(`pause the screen's lookups after ${lookupLimits.maxFailures} within ${lookupLimits.windowMs / 60_000} minutes`, async () => {
    const other = await service.company('Lookups Co');
    const key = JSON.parse(
      await runCli(['keys', 'create', '--data', service.dataDir, '--company', other.id, '--role', 'kiosk']),
    ).key as string;
    const screen = client(service.url, key);
    for (let i = 0; i < lookupLimits.maxFailures; i++) {
      assert.deepEqual((await screen('POST', '/v1/kiosk/invitees/find', { code: String(1000 + i) })).body, {
        invitees: [],
      });
    }
    const locked = await screen('POST', '/v1/kiosk/invitees/find', { code: '999' });
    assert.equal(locked.body.type, 'TOO_MANY_REQUESTS');
    assert.ok(locked.body.retryAfter > 0 && locked.body.retryAfter <= lookupLimits.windowMs / 1000);
    assert.equal(
      (await kiosk('POST', '/v1/kiosk/invitees/find', { code: '999' })).status,
      200,
      'another kiosk goes on',
    );
  });
});
