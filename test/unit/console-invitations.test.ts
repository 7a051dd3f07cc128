/**
 * The Invitations page's pure rules (docs/console.md, "Invitations"): a CSV's columns recognised in any of the
 * console's languages, its records made into rows of POST /v1/invitees/bulk, and times in the company's zone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bulkRow, csvTable } from '../../renderer/src/console/invitations/csv.ts';
import { localInput, nextHour, startOfDay } from '../../renderer/src/console/invitations/when.ts';

test('columns are known by their names in any language, case and accents aside; others are named as ignored', () => {
  const table = csvTable([
    ['Nome', 'E-MAIL', 'Telefon', 'Shoe size', '接待人', 'Data'],
    ['Ana Souza', 'ana@guest.test', '+55 11 91234-5678', '38', 'helena@acme.test', '2026-12-01 09:30'],
    ['', '', '', '', '', ''],
    ['Bruno', '', '', '44', '', ''],
  ]);
  assert.deepEqual(table.columns, ['name', 'email', 'phone', null, 'host', 'expected']);
  assert.deepEqual(table.ignored, ['Shoe size']);
  assert.deepEqual(table.records, [
    {
      line: 2,
      values: {
        name: 'Ana Souza',
        email: 'ana@guest.test',
        phone: '+55 11 91234-5678',
        host: 'helena@acme.test',
        expected: '2026-12-01 09:30',
      },
    },
    { line: 4, values: { name: 'Bruno' } },
  ]);
});

test("a record's host is found by e-mail or name; one found nowhere is sent as written, for the service to refuse", () => {
  const hosts = [
    { id: 'h1', name: 'Helena Dias', email: 'helena@acme.test' },
    { id: 'h2', name: 'Ítalo Reis', email: 'italo@acme.test' },
  ];
  const defaults = { hostId: 'h1', expected: '2026-12-01T10:00', sendInvitationEmail: false };
  assert.deepEqual(bulkRow({ name: 'Ana', email: 'ana@guest.test', host: 'HELENA@acme.test' }, hosts, defaults), {
    name: 'Ana',
    email: 'ana@guest.test',
    expectedAt: '2026-12-01T10:00',
    hostId: 'h1',
    sendInvitationEmail: false,
  });
  assert.equal(bulkRow({ name: 'Bia', host: 'italo reis' }, hosts, defaults).hostId, 'h2');
  assert.equal(bulkRow({ name: 'Caio', host: 'Nobody' }, hosts, defaults).hostId, 'Nobody');
  assert.equal(bulkRow({ name: 'Dora' }, hosts, { ...defaults, hostId: 'h2' }).hostId, 'h2');
  assert.equal(bulkRow({ name: 'Eva', expected: '2026-12-02 08:15' }, hosts, defaults).expectedAt, '2026-12-02T08:15');
});

test("times are shown and read in the company's zone", () => {
  const at = new Date('2026-12-01T12:30:00Z');
  assert.equal(localInput('America/Sao_Paulo', at), '2026-12-01T09:30');
  assert.equal(localInput('Asia/Shanghai', at), '2026-12-01T20:30');
  assert.equal(new Date(startOfDay('America/Sao_Paulo', '2026-12-01')).toISOString(), '2026-12-01T03:00:00.000Z');
  assert.equal(new Date(startOfDay('Europe/Berlin', '2026-07-01')).toISOString(), '2026-06-30T22:00:00.000Z');
  assert.equal(nextHour(at).toISOString(), '2026-12-01T13:00:00.000Z');
});
