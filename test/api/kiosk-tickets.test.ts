import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { insertCredential } from '../../local-api/credentials/store.ts';
import { retryWindowMs } from '../../local-api/kiosk/visitor-routes.ts';
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

before(async () => {
  service = await startService({ port: 0, dataDir: tempDir(), logLevel: 'silent', clock });
  const company = createCompany(service.ctx, { name: 'Acme', timezone: 'UTC' });
  admin = client(service.url, company.apiKey);
  kiosk = client(service.url, insertCredential(service.ctx, { companyId: company.id, role: 'kiosk', label: 'Lobby' }).key);
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
    const checkoutTicket = (await kiosk('POST', '/v1/kiosk/checkout/find', { name: 'Vera Lucia Prado' })).body
      .visits[0].ticket;
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

describe("the badge's code at check-out", () => {
  test('finds the visit as a first name, initial and a check-out ticket; a second time says it left', async () => {
    const visit = await walkIn('Olga Matos');
    const found = await kiosk('POST', '/v1/kiosk/checkout/find', { code: `portaria:visit:${visit.id}` });
    assert.deepEqual(found.body.visits.map(({ ticket, ...shown }: { ticket: string }) => shown), [
      { firstName: 'Olga', initial: 'M.' },
    ]);
    const out = await kiosk('POST', '/v1/kiosk/checkout', { ticket: found.body.visits[0].ticket });
    assert.deepEqual([out.status, out.body.firstName], [200, 'Olga']);
    const again = await kiosk('POST', '/v1/kiosk/checkout/find', { code: `portaria:visit:${visit.id}` });
    assert.deepEqual([again.status, again.body], [409, { type: 'ALREADY_CHECKOUT' }]);
    assert.deepEqual((await kiosk('POST', '/v1/kiosk/checkout/find', { code: randomUUID() })).body, { visits: [] });
  });
});
