/**
 * The console's directory pages over HTTP (docs/console.md, "Visit log", "Hosts", "Kiosks"): the visit log's
 * filters and cursor paging, the host import (dry run, all or nothing, upsert by e-mail), the kiosks a hub knows
 * and enrolment by pairing code (docs/sync.md, "Pairing").
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { pairingGuessLimit } from '../../local-api/kiosks/pairing.ts';
import { prepared } from '../../local-api/store/rows.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { withServiceDb } from '../helpers/store.ts';

let service: TestService;
type Api = ReturnType<typeof client>;
let api: Api;
let acmeKey: string;
let other: Api;
let otherCompanyId: string;
let anonymous: Api;
let hostA: string;
let hostB: string;

before(async () => {
  service = await startService();
  acmeKey = (await service.company('Acme', 'America/Sao_Paulo')).apiKey;
  api = client(service.url, acmeKey);
  const second = await service.company('Other', 'UTC');
  other = client(service.url, second.apiKey);
  otherCompanyId = second.id;
  anonymous = client(service.url);
  hostA = (await api('POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).body.id;
  hostB = (await api('POST', '/v1/hosts', { name: 'Igor Lima', email: 'igor@acme.test' })).body.id;
});
after(async () => {
  await service?.stop();
});

const walkIn = async (name: string, visit: Record<string, unknown> = {}) => {
  const reply = await api('POST', '/v1/visits', { visit: { id: randomUUID(), ...visit }, visitor: { name } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string };
};

const names = (body: { visits: { name: string }[] }) => body.visits.map((v) => v.name);

describe('the visit log', () => {
  test('filters by host, visitor type, kiosk and status, and pages by cursor without gaps or repeats', async () => {
    const type = (await api('POST', '/v1/visitortypes', { kind: 'delivery' })).body.id as string;
    await walkIn('Ana Host A', { hostId: hostA, checkinByIpadId: 'kiosk-north' });
    await walkIn('Bia Host B', { hostId: hostB, visitorTypeId: type });
    const waiting = await walkIn('Caio Waits', { hostId: hostA, authorizationStatus: 'AWAITING' });
    const left = await walkIn('Dora Left', { hostId: hostB, checkinByIpadId: 'kiosk-north' });
    assert.equal((await api('PATCH', `/v1/visit/checkout/${left.id}`, {})).status, 200);
    const denied = await walkIn('Eli Denied', { authorizationStatus: 'AWAITING' });
    assert.equal((await api('PATCH', `/v1/visit/deny/${denied.id}`, {})).status, 200);

    const log = async (query: string) => {
      const reply = await api('GET', `/v1/visits/history?${query}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    assert.deepEqual(names(await log(`host=${hostA}`)).sort(), ['Ana Host A', 'Caio Waits']);
    assert.deepEqual(names(await log(`visitorType=${type}`)), ['Bia Host B']);
    assert.deepEqual(names(await log('kiosk=kiosk-north')).sort(), ['Ana Host A', 'Dora Left']);
    assert.deepEqual(names(await log('status=waiting')), ['Caio Waits']);
    assert.deepEqual(names(await log('status=out')), ['Dora Left']);
    assert.deepEqual(names(await log('status=denied')), ['Eli Denied']);
    assert.deepEqual(names(await log('status=inside')).sort(), ['Ana Host A', 'Bia Host B']);
    assert.deepEqual(names(await log(`status=inside&host=${hostA}&kiosk=kiosk-north`)), ['Ana Host A']);
    assert.equal((await log(`host=${waiting.id}`)).size, 0, 'an id of something else finds nothing');

    for (const bad of ['status=gone', 'cursor=nonsense', 'cursor=1.2.3', `kiosk=${'k'.repeat(65)}`]) {
      const reply = await api('GET', `/v1/visits/history?${bad}`);
      assert.equal(reply.status, 400, bad);
      assert.equal(reply.body.type, 'INVALID_PARAMETER', bad);
    }

    const all = await log('limit=1000');
    assert.equal(all.nextCursor, null, 'one page holds them all');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { visits: { id: string }[]; nextCursor: string | null } = await log(
        `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...page.visits.map((v) => v.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    assert.deepEqual(
      seen,
      all.visits.map((v: { id: string }) => v.id),
      'the pages are the whole log, in its order',
    );
    assert.equal(pages, Math.ceil(all.size / 2));
    assert.equal((await other('GET', `/v1/visits/history?host=${hostA}`)).body.size, 0, 'scoped to the company');
  });

  test('the export follows the filters', async () => {
    const response = await fetch(`${service.url}/v1/visits/export?kiosk=kiosk-north&status=out`, {
      headers: { authorization: `Bearer ${acmeKey}` },
    });
    assert.equal(response.status, 200);
    const lines = (await response.text()).trim().split('\r\n');
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[1] ?? '', /"Dora Left"/);
    assert.match(lines[1] ?? '', /"checked out"/);
  });
});

describe('host import', () => {
  const rows = [
    { name: 'Joana Prado', email: 'joana@acme.test', role: 'manager', position: 'Finance' },
    { name: 'Helena Dias Souza', email: 'HELENA@acme.test', sector: 'Reception' },
    { name: 'Kleber Nunes', email: 'kleber@acme.test', role: 'frontDesk' },
  ];

  test('a dry run says what each row would do and writes nothing', async () => {
    const { status, body } = await api('POST', '/v1/host/import', { dryRun: true, hosts: rows });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(
      { applied: body.applied, created: body.created, updated: body.updated, invalid: body.invalid },
      { applied: false, created: 2, updated: 1, invalid: 0 },
    );
    assert.deepEqual(
      body.rows.map((r: { action: string; hostId?: string }) => [r.action, r.hostId ?? null]),
      [
        ['create', null],
        ['update', hostA],
        ['create', null],
      ],
    );
    const listed = (await api('GET', '/v1/hosts')).body.hosts.map((h: { email: string }) => h.email);
    assert.ok(!listed.includes('joana@acme.test'), 'nothing written');
  });

  test('a bad row is reported with its field, and the import then writes no row at all', async () => {
    const bad = [
      ...rows,
      { name: 'No Mail' },
      { name: 'Bad Role', email: 'bad.role@acme.test', role: 'king' },
      { name: 'Twice', email: 'joana@ACME.test' },
      { name: 'Phone', email: 'phone@acme.test', phone: '11 99999-0000' },
    ];
    const dry = await api('POST', '/v1/host/import', { dryRun: true, hosts: bad });
    assert.equal(dry.status, 200);
    assert.equal(dry.body.invalid, 4);
    assert.deepEqual(
      dry.body.rows.slice(3).map((r: { row: number; error: { type: string } }) => [r.row, r.error.type]),
      [
        [3, 'MISSING_EMAIL'],
        [4, 'INVALID_ROLE'],
        [5, 'DUPLICATE_ROW'],
        [6, 'MISSING_COUNTRY_CODE'],
      ],
    );
    const applied = await api('POST', '/v1/host/import', { hosts: bad });
    assert.equal(applied.status, 400);
    assert.equal(applied.body.type, 'INVALID_ROWS');
    assert.equal(applied.body.rows.length, bad.length);
    const listed = (await api('GET', '/v1/hosts')).body.hosts.map((h: { email: string }) => h.email);
    assert.ok(!listed.includes('joana@acme.test'), 'the good rows were not written either');
  });

  test('an import creates the new hosts and updates the known ones by e-mail, in one go', async () => {
    const { status, body } = await api('POST', '/v1/host/import', { hosts: rows });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual([body.applied, body.created, body.updated], [true, 2, 1]);
    const hosts = (await api('GET', '/v1/hosts')).body.hosts as {
      id: string;
      email: string;
      name: string;
      role: string;
      sector: string | null;
    }[];
    const joana = hosts.find((h) => h.email === 'joana@acme.test');
    assert.equal(joana?.role, 'MANAGER');
    assert.equal(joana?.id, body.rows[0].hostId);
    const helena = hosts.find((h) => h.id === hostA);
    assert.deepEqual(
      [helena?.name, helena?.sector, helena?.email],
      ['Helena Dias Souza', 'Reception', 'helena@acme.test'],
    );
    assert.equal(hosts.filter((h) => h.email.toLowerCase() === 'helena@acme.test').length, 1, 'no second Helena');
    assert.equal((await other('GET', '/v1/hosts')).body.size, 0, 'the other company has none of them');
  });

  test('only an admin imports; a malformed body is refused', async () => {
    const readonly = (await api('POST', '/v1/credentials', { role: 'readonly', label: 'reports' })).body.key;
    const reader = client(service.url, readonly);
    assert.equal((await reader('POST', '/v1/host/import', { dryRun: true, hosts: rows })).status, 403);
    assert.equal((await api('POST', '/v1/host/import', { hosts: [] })).status, 400);
    assert.equal((await api('POST', '/v1/host/import', { hosts: 'x' })).status, 400);
  });
});

describe('kiosks and pairing', () => {
  const deviceId = 'a1b2c3d4e5f6a7b8';
  const openPairing = async (device = deviceId) => {
    const reply = await anonymous('POST', `/v1/kiosks/pairing?deviceId=${device}`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.match(reply.body.code, /^[2-9A-HJKMNP-TV-Z]{8}$/);
    return reply.body as { pairingId: string; secret: string; code: string };
  };
  const status = (pairing: { pairingId: string; secret: string }, secret = pairing.secret) =>
    anonymous('GET', `/v1/kiosks/pairing/${pairing.pairingId}`, undefined, { 'x-pairing-secret': secret });

  test('a code typed by an admin enrols the device that shows it, to that admin company, once', async () => {
    const pairing = await openPairing();
    assert.equal((await status(pairing)).body.status, 'waiting');
    assert.equal((await status(pairing, 'not-the-secret')).status, 404, 'the secret is needed');

    const typed = `${pairing.code.slice(0, 4).toLowerCase()} - ${pairing.code.slice(4)}`;
    const paired = await api('POST', '/v1/kiosks/pair', { code: typed, name: 'Lobby north' });
    assert.equal(paired.status, 200, JSON.stringify(paired.body));
    assert.deepEqual([paired.body.deviceId, paired.body.name, paired.body.state], [deviceId, 'Lobby north', 'paired']);

    const again = await api('POST', '/v1/kiosks/pair', { code: pairing.code });
    assert.equal(again.body.type, 'INVALID_PAIRING_CODE', 'a code is used once');
    const elsewhere = await other('POST', '/v1/kiosks/pair', { code: pairing.code });
    assert.equal(elsewhere.body.type, 'INVALID_PAIRING_CODE', 'nor by another company');

    const delivered = await status(pairing);
    assert.equal(delivered.body.status, 'paired');
    assert.notEqual(delivered.body.companyId, otherCompanyId);
    assert.equal((await status(pairing)).status, 404, 'the credential is handed over once');

    // The kiosk pulls with it, saying how it stands; the Kiosks page shows that.
    const kiosk = client(service.url, delivered.body.apiKey);
    const query = `clientId=c1d2e3f4a5b6c7d8&deviceId=${deviceId}&pending=3&clockSkewMs=-1200&appVersion=9.8.7`;
    const pulled = await kiosk('GET', `/v1/sync/changes?${query}`);
    assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
    assert.equal(pulled.body.companyId, delivered.body.companyId);
    assert.equal((await kiosk('GET', '/v1/hosts')).status, 403, 'a sync credential reaches the feed alone');

    const listed = await api('GET', '/v1/kiosks');
    assert.equal(listed.status, 200);
    const entry = listed.body.kiosks.find((k: { deviceId: string }) => k.deviceId === deviceId);
    assert.deepEqual(
      [entry.name, entry.state, entry.pending, entry.clockSkewMs, entry.appVersion, entry.ownCredential],
      ['Lobby north', 'online', 3, -1200, '9.8.7', true],
    );
    const issued = (await api('GET', '/v1/credentials')).body.credentials.find(
      (c: { label: string }) => c.label === 'Kiosk Lobby north',
    );
    assert.equal(entry.checkinById, issued.id, "its visits carry its credential's id");
    assert.ok(entry.lastSeenAt);
    assert.ok(
      !(await other('GET', '/v1/kiosks')).body.kiosks.some((k: { deviceId: string }) => k.deviceId === deviceId),
    );
    const bad = await kiosk('GET', `/v1/sync/changes?deviceId=${deviceId}&pending=-1`);
    assert.equal(bad.body.type, 'INVALID_PARAMETER');
  });

  test('an expired code enrols nothing, and its kiosk is told to ask for a new one', async () => {
    const pairing = await openPairing('b1b2c3d4e5f6a7b8');
    await withServiceDb(
      service.dataDir,
      async (db) => await prepared(db, 'UPDATE kiosk_pairings SET expiresAt = 1 WHERE id = ?').run(pairing.pairingId),
      { readonly: false },
    );
    const claimed = await api('POST', '/v1/kiosks/pair', { code: pairing.code });
    assert.equal(claimed.status, 400);
    assert.equal(claimed.body.type, 'INVALID_PAIRING_CODE');
    assert.equal((await status(pairing)).body.status, 'expired');
  });

  test('wrong codes are counted per company: past the limit even the right one waits', async () => {
    const guesser = client(service.url, (await service.company('Guesser', 'UTC')).apiKey);
    const pairing = await openPairing('c1b2c3d4e5f6a7b8');
    const wrong = pairing.code.startsWith('2') ? `3${pairing.code.slice(1)}` : `2${pairing.code.slice(1)}`;
    for (let i = 0; i < pairingGuessLimit.failures; i++) {
      const reply = await guesser('POST', '/v1/kiosks/pair', { code: i % 2 ? wrong : 'not a code' });
      assert.equal(reply.body.type, 'INVALID_PAIRING_CODE');
    }
    const limited = await guesser('POST', '/v1/kiosks/pair', { code: pairing.code });
    assert.equal(limited.status, 429);
    assert.ok(limited.body.retryAfter > 0);
    assert.equal((await status(pairing)).body.status, 'waiting', 'the kiosk was not enrolled');
    const paired = await api('POST', '/v1/kiosks/pair', { code: pairing.code });
    assert.equal(paired.status, 200, "another company's guesses do not hold this one back");
  });

  test('only an admin sees the kiosks or pairs one', async () => {
    const readonly = (await api('POST', '/v1/credentials', { role: 'readonly', label: 'reports 2' })).body.key;
    const reader = client(service.url, readonly);
    assert.equal((await reader('GET', '/v1/kiosks')).status, 403);
    assert.equal((await reader('POST', '/v1/kiosks/pair', { code: 'ABCDEFGH' })).status, 403);
    assert.equal((await anonymous('POST', '/v1/kiosks/pairing?deviceId=x')).status, 400);
  });

  test('one address asks for 20 codes per 10 minutes at most', async () => {
    // The tests above asked for 3 from this address.
    let opened = 3;
    for (let i = 0; i < 25; i++) {
      const reply = await anonymous('POST', `/v1/kiosks/pairing?deviceId=f${String(i).padStart(15, '0')}`);
      if (reply.status !== 200) {
        assert.deepEqual([reply.status, reply.body.type], [429, 'TOO_MANY_REQUESTS']);
        assert.ok(reply.body.retryAfter > 0);
        break;
      }
      opened++;
    }
    assert.equal(opened, 20);
  });
});
