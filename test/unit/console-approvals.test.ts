/** Whose waiting visitors a person decides for on Approvals and Today (docs/console.md, "Approvals"). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decidesFor } from '../../renderer/src/console/approvals/waiting.ts';
import { type ConsoleSession, personRoles } from '../../renderer/src/console/session.ts';

const sessionOf = (role: ConsoleSession['account']['role']): ConsoleSession => ({
  account: { hostId: 'h1', companyId: 'c1', name: 'Ana', email: 'ana@acme.test', role, lang: null },
  company: { id: 'c1', name: 'Acme', lang: 'en', timeZone: 'UTC', brandColor: null },
  csrfToken: 'x',
});

test('the desk decides for every host; managers, hosts and employees for their own visitors', () => {
  assert.deepEqual(
    personRoles.map((role) => [role, decidesFor(sessionOf(role))]),
    [
      ['ADMIN', undefined],
      ['MANAGER', 'h1'],
      ['SECURITY', undefined],
      ['FRONTDESK', undefined],
      ['HOST', 'h1'],
      ['EMPLOYEE', 'h1'],
    ],
  );
});
