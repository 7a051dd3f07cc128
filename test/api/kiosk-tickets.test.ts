import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { insertCredential } from '../../local-api/credentials/store.ts';
import { hostSearchLimits, lookupLimits, retryWindowMs } from '../../local-api/kiosk/visitor-routes.ts';
import { hostSearch } from '../../local-api/kiosk/visitor-schema.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

/**
 * What the kiosk credential (which anyone at the lobby's machine can lift from the page) opens with a visit id it
 * did not get from its own check-in: nothing. Tickets are opaque; a visit is read only with its check-in's receipt.
 */
const clock = manualClock(Date.now());
let service: RunningService;
let admin: ReturnType<typeof client>;
let kiosk: ReturnType<typeof client>;
/** A kiosk of the company with a credential of its own (the limits are per credential). */
let screen: () => Promise<ReturnType<typeof client>>;

before(async () => {
  service = await startService({ port: 0, dataDir: tempDir(), logLevel: 'silent', clock });
  const company = await createCompany(service.ctx, { name: 'Acme', timezone: 'UTC' });
  admin = client(service.url, company.apiKey);
  screen = async () =>
    client(
      service.url,
      (await insertCredential(service.ctx, { companyId: company.id, role: 'kiosk', label: 'Lobby' })).key,
    );
  kiosk = await screen();
  const gate = await admin('POST', '/v1/integration/access', {
    enabled: true,
    aesKey: '0123456789abcdef0123456789abcdef',
  });
  assert.equal(gate.status, 200, JSON.stringify(gate.body));
});
after(async () => {
  await service.close();
  removeDir(service.ctx.dataDir);
});

/** A walk-in made at this screen: its id and the receipt its check-in answered. */
async function walkIn(name: string): Promise<{ id: string; receipt: string }> {
  const id = randomUUID();
  const checkin = await kiosk('POST', '/v1/kiosk/walkin', { visit: { id }, visitor: { name } });
  assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
  return { id, receipt: checkin.body.receipt };
}

/** Every way a ticket's bytes could carry an id: as text, as hex, as raw bytes. */
function revealsId(ticket: string, id: string): boolean {
  const decoded = [ticket, Buffer.from(ticket.split('.')[0] ?? '', 'base64url').toString('latin1')];
  const raw = Buffer.from(id.replaceAll('-', ''), 'hex').toString('latin1');
  return decoded.some((text) => text.includes(id) || text.includes(id.replaceAll('-', '')) || text.includes(raw));
}

describe('tickets', () => {
  test('reveal nothing of what they name: no id, no step, no time', async () => {
    const visit = await walkIn('Ines Faria Lopes');
    const found = await kiosk('POST', '/v1/kiosk/checkout/find', { name: 'Ines Faria Lopes' });
    const [{ ticket }] = found.body.visits;
    for (const proof of [ticket, visit.receipt]) {
      assert.ok(!revealsId(proof, visit.id), `${proof} names the visit`);
      assert.doesNotMatch(Buffer.from(proof, 'base64url').toString('latin1'), /visit|checkout|receipt|\d{13}/);
    }
  });
});

describe("another visit's id", () => {
  let other: { id: string; receipt: string };
  let mine: { id: string; receipt: string };
  before(async () => {
    other = await walkIn('Vera Lucia Prado');
    mine = await walkIn('Joao Pedro Reis');
  });

  test('opens neither the visit nor its gate code, with no receipt or with another one', async () => {
    const checkoutTicket = (await kiosk('POST', '/v1/kiosk/checkout/find', { name: 'Vera Lucia Prado' })).body.visits[0]
      .ticket;
    for (const query of ['', `?receipt=${mine.receipt}`, `?receipt=${checkoutTicket}`, '?receipt=x']) {
      for (const path of [`/v1/kiosk/visit/${other.id}${query}`, `/v1/kiosk/visit/${other.id}/qrcode${query}`]) {
        const answer = await kiosk('GET', path);
        assert.deepEqual([answer.status, answer.body], [404, { type: 'NOT_FOUND' }], path);
      }
    }
  });

  test("opens its own visit and gate code with its receipt, for 20 minutes; the answer is the check-in's", async () => {
    const own = await kiosk('GET', `/v1/kiosk/visit/${mine.id}?receipt=${mine.receipt}`);
    assert.deepEqual([own.status, own.body.name, own.body.receipt], [200, 'Joao Pedro Reis', mine.receipt]);
    const code = await kiosk('GET', `/v1/kiosk/visit/${mine.id}/qrcode?receipt=${mine.receipt}`);
    assert.deepEqual([code.status, code.body.subject], [200, 'visitor']);
    clock.advance(20 * 60_000);
    assert.equal((await kiosk('GET', `/v1/kiosk/visit/${mine.id}?receipt=${mine.receipt}`)).status, 404);
    assert.equal((await kiosk('GET', `/v1/kiosk/visit/${mine.id}/qrcode?receipt=${mine.receipt}`)).status, 404);
  });

  test('sent again as a check-in, answers ALREADY_EXISTS and nothing of the visit, unless it is a retry', async () => {
    const made = await admin('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Rita Sales' } });
    const visit = { id: await walkIn('Caio Nunes Melo').then((v) => v.id) };
    assert.equal(
      (await kiosk('POST', '/v1/kiosk/walkin', { visit, visitor: { name: 'Caio Nunes Melo' } })).status,
      200,
      "a retry of the screen's own check-in answers it",
    );
    clock.advance(retryWindowMs);
    for (const id of [made.body.id, visit.id]) {
      for (const [path, body] of [
        ['/v1/kiosk/walkin', { visit: { id }, visitor: { name: 'Anyone' } }],
        ['/v1/kiosk/screen', { visit: { id }, visitor: { name: 'Anyone' } }],
      ] as const) {
        const answer = await kiosk('POST', path, body);
        assert.deepEqual([answer.status, answer.body], [409, { type: 'ALREADY_EXISTS' }], `${path} ${id}`);
      }
    }
  });
});

describe("an invitation's code", () => {
  test("checks its guest in once; later it opens nothing of the guest's visit", async () => {
    const host = await admin('POST', '/v1/hosts', { name: 'Nair Campos', email: 'nair@acme.test', isActive: true });
    const invitee = await admin('POST', '/v1/invitees', {
      name: 'Tales Moura',
      email: 'tales@guest.test',
      hostId: host.body.id,
      expectedAt: Math.floor(clock.now() / 1000),
    });
    const checkIn = async () => {
      const found = await kiosk('POST', '/v1/kiosk/invitees/find', { code: String(invitee.body.cardNumber) });
      const ticket = found.body.invitees[0].ticket;
      return kiosk('POST', '/v1/kiosk/invitee/checkin', { ticket, visitId: randomUUID() });
    };
    const first = await checkIn();
    assert.deepEqual([first.status, first.body.name], [200, 'Tales Moura']);
    assert.equal((await checkIn()).body.id, first.body.id, 'a second tap moments later answers the same visit');
    clock.advance(retryWindowMs);
    const later = await checkIn();
    assert.deepEqual([later.status, later.body], [409, { type: 'ALREADY_EXISTS' }]);
  });
});

describe("the badge's code at check-out", () => {
  test('finds the visit as a first name, initial and a check-out ticket; a second time says it left', async () => {
    const visit = await walkIn('Olga Matos');
    const found = await kiosk('POST', '/v1/kiosk/checkout/find', { code: `portaria:visit:${visit.id}` });
    assert.deepEqual(
      found.body.visits.map(({ ticket, ...shown }: { ticket: string }) => shown),
      [{ firstName: 'Olga', initial: 'M.' }],
    );
    const out = await kiosk('POST', '/v1/kiosk/checkout', { ticket: found.body.visits[0].ticket });
    assert.deepEqual([out.status, out.body.firstName], [200, 'Olga']);
    const again = await kiosk('POST', '/v1/kiosk/checkout/find', { code: `portaria:visit:${visit.id}` });
    assert.deepEqual([again.status, again.body], [409, { type: 'ALREADY_CHECKOUT' }]);
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/checkout/find', { code: randomUUID() })).body, { visits: [] });
  });
});

describe('limits per kiosk credential', () => {
  test(`lookups that find nobody: at most ${lookupLimits.maxFailures} within any ${lookupLimits.windowMs / 60_000} minutes`, async () => {
    const guesser = await screen();
    const miss = () => guesser('POST', '/v1/kiosk/invitees/find', { code: String(Math.floor(Math.random() * 1e9)) });
    for (let i = 0; i < lookupLimits.maxFailures; i++) assert.deepEqual((await miss()).body, { invitees: [] });
    const locked = await miss();
    assert.deepEqual([locked.status, locked.body.type], [429, 'TOO_MANY_REQUESTS']);
    assert.equal(locked.body.retryAfter, lookupLimits.windowMs / 1000, 'until the first miss leaves the window');
    clock.advance(lookupLimits.lockMs);
    assert.equal((await miss()).status, 429, 'the lock ending does not forget the misses in the window');
    clock.advance(lookupLimits.windowMs - lookupLimits.lockMs);
    assert.equal((await miss()).status, 200);
  });

  test('the host type-ahead shows a few hosts per search and cannot be walked to list the staff', async () => {
    const names = ['Abel', 'Bruna', 'Caio', 'Dora', 'Elis', 'Fabio', 'Gil', 'Hugo', 'Iara', 'Joana', 'Lia'];
    const staff = Array.from({ length: 61 }, (_, i) => `${names[i % names.length]} ${names[(i * 7 + 3) % 11]}son${i}`);
    for (const name of staff) {
      const email = `${name.replaceAll(' ', '.')}@acme.test`;
      const created = await admin('POST', '/v1/hosts', { name, email, isActive: true });
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    const harvester = await screen();
    const short = await harvester('GET', `/v1/kiosk/hosts?name=${'a'.repeat(hostSearch.minLength - 1)}`);
    assert.deepEqual(short.body, { type: 'INVALID_PARAMETER', field: 'name' });
    // The whole alphabet, three letters at a time, as fast as the service answers.
    const seen = new Set<string>();
    let searches = 0;
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    walk: for (const a of letters)
      for (const b of letters)
        for (const c of letters) {
          const answer = await harvester('GET', `/v1/kiosk/hosts?name=${a}${b}${c}`);
          if (answer.status === 429) break walk;
          searches++;
          assert.ok(answer.body.hosts.length <= hostSearch.maxResults);
          for (const host of answer.body.hosts) seen.add(host.id);
        }
    assert.equal(searches, hostSearchLimits.maxFailures, 'searches allowed within the window');
    console.log(`host type-ahead: ${seen.size} of ${staff.length} hosts in ${searches} searches per 10 minutes`);
    assert.ok(seen.size < staff.length / 2, `${seen.size} hosts listed`);
    assert.equal((await kiosk('GET', '/v1/kiosk/hosts?name=abe')).status, 200, 'another kiosk searches on');
    clock.advance(hostSearchLimits.windowMs);
    assert.equal((await harvester('GET', '/v1/kiosk/hosts?name=abe')).status, 200);
  });
});
