import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  actsForGuestsOf,
  type Caller,
  personHostId,
  type Role,
  readsGuestsOf,
} from '../../local-api/credentials/caller.ts';
import { guestsScope, meetingsScope, requireOwnGuest } from '../../local-api/credentials/guests.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { mayCall, type RouteSpec } from '../../local-api/http/routes.ts';

const caller = (role: Role, hostId?: string): Caller => ({
  companyId: 'c1',
  timeZone: 'UTC',
  lang: 'en',
  role,
  credentialId: 'session-1',
  ...(hostId ? { hostId } : {}),
});

test("a people's-role caller without its host is refused, never given the company's view", () => {
  for (const role of ['host', 'manager'] as const) {
    assert.throws(() => personHostId(caller(role)), /without its host/);
    assert.throws(() => actsForGuestsOf(caller(role), 'invite'), /without its host/);
  }
  assert.throws(() => readsGuestsOf(caller('host')), /without its host/);
  assert.equal(personHostId(caller('host', 'h1')), 'h1');
  // At the gate of every route, whatever the route does with the caller.
  const spec = { method: 'get', path: '/company', roles: ['admin', 'host'] } as unknown as RouteSpec;
  assert.throws(() => mayCall(spec, caller('host')), /without its host/);
  assert.equal(mayCall(spec, caller('host', 'h1')), true);
  assert.equal(mayCall(spec, caller('admin')), true);
});

test('only a host person reads their own guests alone', () => {
  assert.equal(readsGuestsOf(caller('host', 'h1')), 'h1');
  for (const role of ['admin', 'readonly', 'frontdesk', 'manager', 'security', 'kiosk', 'sync'] as const) {
    assert.equal(readsGuestsOf(caller(role, 'h1')), undefined, role);
  }
  assert.deepEqual(guestsScope(caller('host', 'h1'), 'e.hostId'), {
    sql: 'e.hostId = :guestsOf',
    params: { guestsOf: 'h1' },
  });
  assert.equal(guestsScope(caller('admin', 'h1')), undefined);
});

test("a meeting is a host person's when they host it or are one of its co-hosts", () => {
  const scope = meetingsScope({ sqlite: true } as never, caller('host', 'h1'));
  assert.deepEqual(scope, {
    sql: '(hostId = :guestsOf OR instr(coHosts, :coHostOf) > 0)',
    params: { guestsOf: 'h1', coHostOf: '"h1"' },
  });
});

test('who invites and decides for which hosts', () => {
  const table: [Role, string | undefined, string | undefined][] = [
    // role, invites only for, decides only for
    ['admin', undefined, undefined],
    ['frontdesk', undefined, undefined],
    ['security', 'h1', undefined],
    ['manager', 'h1', 'h1'],
    ['host', 'h1', 'h1'],
  ];
  for (const [role, invites, decides] of table) {
    const who = caller(role, 'h1');
    assert.equal(actsForGuestsOf(who, 'invite'), invites, `${role} invites`);
    assert.equal(actsForGuestsOf(who, 'decide'), decides, `${role} decides`);
  }
  assert.doesNotThrow(() => requireOwnGuest(caller('host', 'h1'), 'invite', 'h1'));
  assert.doesNotThrow(() => requireOwnGuest(caller('frontdesk'), 'invite', 'h2'));
  assert.doesNotThrow(() => requireOwnGuest(caller('security', 'h1'), 'decide', 'h2'));
  for (const [role, work] of [
    ['host', 'invite'],
    ['manager', 'decide'],
    ['security', 'invite'],
  ] as const) {
    assert.throws(
      () => requireOwnGuest(caller(role, 'h1'), work, 'h2'),
      (error: unknown) => error instanceof ApiError && error.type === 'FORBIDDEN',
      `${role} ${work}`,
    );
  }
});
