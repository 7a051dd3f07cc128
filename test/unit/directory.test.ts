/**
 * The directory's pure rules: pairing codes (docs/sync.md, "Pairing"), the visit log's filters and cursor
 * (docs/api.md, "Front desk") and the Hosts page's reading of a spreadsheet (docs/console.md, "Hosts").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../local-api/http/errors.ts';
import {
  newPairingCode,
  normalPairingCode,
  pairingAlphabet,
  shownPairingCode,
} from '../../local-api/rules/pairing-code.ts';
import { formatVisitLogCursor, parseVisitLogCursor, visitLogFilter } from '../../local-api/visit-log/store.ts';
import { fieldOfHeader, parseHostsCsv } from '../../renderer/src/console/hosts/csv.ts';

/** Randomness that deals the given bytes, over and over. */
const dealt = (bytes: number[]) => {
  let at = 0;
  return { bytes: (n: number) => Buffer.from(Array.from({ length: n }, () => bytes[at++ % bytes.length] ?? 0)) };
};

test('a pairing code is 8 characters of the alphabet, bytes that would favour some drawn again', () => {
  assert.equal(pairingAlphabet.length, 30);
  assert.doesNotMatch(pairingAlphabet, /[01ILOU]/);
  // 240 and above would favour the first 16 characters: skipped.
  assert.equal(newPairingCode(dealt([255, 240, 0, 1, 29, 30, 59, 239])), '23Z2ZZ23');
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const code = newPairingCode({
      bytes: (n) => Buffer.from(Array.from({ length: n }, (_, j) => (i * 7 + j * 31) % 256)),
    });
    assert.match(code, /^[2-9A-HJKMNP-TV-Z]{8}$/);
    seen.add(code);
  }
  assert.ok(seen.size > 1);
});

test('a typed code is read in any case, with spaces or a dash; anything else is no code', () => {
  assert.equal(normalPairingCode('k7qm-3xhd'), 'K7QM3XHD');
  assert.equal(normalPairingCode(' K7QM 3XHD '), 'K7QM3XHD');
  assert.equal(shownPairingCode('K7QM3XHD'), 'K7QM-3XHD');
  for (const typed of ['K7QM3XH', 'K7QM3XHDD', 'K7QM3XH0', 'K7QM3XHI', 'K7QM_3XHD', '']) {
    assert.equal(normalPairingCode(typed), undefined, typed);
  }
});

test('the visit log reads its filters and its cursor, and refuses what it cannot be', () => {
  const now = Date.parse('2026-11-26T15:00:00Z');
  const filter = visitLogFilter({ host: 'h1', visitorType: 't1', kiosk: 'k1', status: 'out' }, 'UTC', now);
  assert.deepEqual(
    [filter.hostId, filter.visitorTypeId, filter.kioskId, filter.state, filter.from],
    ['h1', 't1', 'k1', 'out', Date.parse('2026-11-26T00:00:00Z')],
  );
  assert.deepEqual(visitLogFilter({ host: ' ', status: '' }, 'UTC', now).hostId, undefined);
  const refused = (query: Record<string, unknown>) =>
    assert.throws(
      () => visitLogFilter(query, 'UTC', now),
      (e: unknown) => e instanceof ApiError,
    );
  refused({ status: 'gone' });
  refused({ kiosk: 'k'.repeat(65) });
  refused({ host: ['a', 'b'] });
  const cursor = { checkinAt: 1764169200000, row: 42 };
  assert.deepEqual(parseVisitLogCursor(formatVisitLogCursor(cursor)), cursor);
  assert.equal(parseVisitLogCursor(undefined), undefined);
  for (const bad of ['', '1', '1.2.3', 'a.b', '-1.2', ['1.2']]) {
    assert.throws(
      () => parseVisitLogCursor(bad),
      (e: unknown) => e instanceof ApiError,
      String(bad),
    );
  }
});

test("a hosts spreadsheet's columns are named in any language; empty cells are left out; yes and no are read", () => {
  assert.equal(fieldOfHeader(' E-mail '), 'email');
  assert.equal(fieldOfHeader('Função'), 'role');
  assert.equal(fieldOfHeader('Abteilung'), 'sector');
  assert.equal(fieldOfHeader('部门'), 'sector');
  assert.equal(fieldOfHeader('Favourite colour'), undefined);
  const parsed = parseHostsCsv(
    '\uFEFFNome;E-mail;Setor;Ativo;Favourite colour\r\nAna Souza;ana@acme.test;;sim;blue\r\n"Lima; Bia";bia@acme.test;Vendas;não;\r\n\r\nCaio;caio@acme.test;;maybe;\r\n',
  );
  assert.deepEqual(parsed.ignored, ['Favourite colour']);
  assert.deepEqual(parsed.rows, [
    { name: 'Ana Souza', email: 'ana@acme.test', isActive: true },
    { name: 'Lima; Bia', email: 'bia@acme.test', sector: 'Vendas', isActive: false },
    { name: 'Caio', email: 'caio@acme.test', isActive: 'maybe' },
  ]);
});
