import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accountDelays, afterFailure, signInSubjects, sourceDelays } from '../../local-api/accounts/lockout.ts';
import { hashPassword, passwordMatches, passwordProblem } from '../../local-api/accounts/passwords.ts';
import {
  csrfMatches,
  csrfTokenOf,
  sessionCredentialId,
  sessionIdOf,
  sessionTokenOf,
} from '../../local-api/accounts/sessions.ts';
import { issuerAllowed } from '../../local-api/accounts/settings.ts';
import { consoleLink } from '../../local-api/accounts/tokens.ts';
import { callerRoleOf } from '../../local-api/credentials/caller.ts';

describe('password rules', () => {
  test('a new password is 10 characters or more, not a common one, not the e-mail', () => {
    assert.equal(passwordProblem('short', 'ana@acme.test'), 'tooShort');
    assert.equal(passwordProblem('ninechars', 'ana@acme.test'), 'tooShort');
    assert.equal(passwordProblem('x'.repeat(201), 'ana@acme.test'), 'tooLong');
    assert.equal(passwordProblem('1234567890', 'ana@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('Password123', 'ana@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('aaaaaaaaaaaa', 'ana@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('ANA@acme.test', 'ana@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('anastasia.k', 'anastasia.k@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('correct horse battery staple', 'ana@acme.test'), undefined);
    // Characters, not UTF-16 units: ten ideographs are ten characters.
    assert.equal(passwordProblem('密码密码密码密码密码', 'ana@acme.test'), 'tooCommon');
    assert.equal(passwordProblem('我的密码很长很安全哦', 'ana@acme.test'), undefined);
  });

  test('argon2id hashes verify the right password only; no hash matches nothing', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^\$argon2id\$/);
    assert.equal(await passwordMatches(stored, 'correct horse battery staple'), true);
    assert.equal(await passwordMatches(stored, 'Correct horse battery staple'), false);
    assert.equal(await passwordMatches(null, 'correct horse battery staple'), false);
    assert.equal(await passwordMatches('not a hash', 'anything'), false);
  });
});

describe('sign-in delays', () => {
  test('the first failures are free; then each one doubles the wait, up to 15 minutes', () => {
    let count: ReturnType<typeof afterFailure> | undefined;
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      count = afterFailure(count, 1_000_000, accountDelays);
      waits.push(count.lockedUntil === 0 ? 0 : count.lockedUntil - 1_000_000);
    }
    assert.deepEqual(waits, [0, 0, 0, 0, 15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000]);
  });

  test('a day after the last failure the count starts over', () => {
    let count = afterFailure(undefined, 0, accountDelays);
    for (let i = 0; i < 6; i++) count = afterFailure(count, 0, accountDelays);
    assert.equal(count.failures, 7);
    const later = afterFailure(count, accountDelays.forgetAfterMs, accountDelays);
    assert.deepEqual(later, { failures: 1, lastFailureAt: accountDelays.forgetAfterMs, lockedUntil: 0 });
  });

  test('a source is slowed later than an account, and counted by its IPv6 /64', () => {
    let count: ReturnType<typeof afterFailure> | undefined;
    for (let i = 0; i < 19; i++) count = afterFailure(count, 0, sourceDelays);
    assert.equal(count?.lockedUntil, 0);
    assert.ok(afterFailure(count, 0, sourceDelays).lockedUntil > 0);
    assert.deepEqual(
      signInSubjects('ana@acme.test', '2001:db8:1:2:3:4:5:6').map(([subject]) => subject),
      ['account ana@acme.test', 'source 2001:db8:1:2::/64'],
    );
  });
});

describe('sessions', () => {
  test("a person's role maps onto the company roles the routes grant", () => {
    assert.equal(callerRoleOf('ADMIN'), 'admin');
    assert.equal(callerRoleOf('MANAGER'), 'manager');
    assert.equal(callerRoleOf('SECURITY'), 'security');
    assert.equal(callerRoleOf('FRONTDESK'), 'frontdesk');
    assert.equal(callerRoleOf('HOST'), 'host');
    assert.equal(callerRoleOf('EMPLOYEE'), 'host');
  });

  test('the session cookie is read among others; anything not a token is no session', () => {
    const token = 'A'.repeat(43);
    assert.equal(sessionTokenOf({ headers: { cookie: `a=1; portaria_session=${token}; b=2` } }), token);
    assert.equal(sessionTokenOf({ headers: { cookie: 'portaria_session=<script>' } }), undefined);
    assert.equal(sessionTokenOf({ headers: {} }), undefined);
  });

  test("the CSRF token is the session's own, compared whole", () => {
    const csrf = csrfTokenOf('one session token');
    assert.notEqual(csrf, csrfTokenOf('another session token'));
    assert.equal(csrfMatches('one session token', csrf), true);
    assert.equal(csrfMatches('one session token', csrf.slice(0, -1)), false);
    assert.equal(csrfMatches('one session token', undefined), false);
  });

  test('a session acts with a credential id of its own', () => {
    const id = sessionCredentialId('0123456789abcdef01234567');
    assert.equal(
      sessionIdOf({ companyId: 'c', timeZone: 'UTC', lang: 'en', role: 'host', credentialId: id }),
      '0123456789abcdef01234567',
    );
    assert.equal(
      sessionIdOf({ companyId: 'c', timeZone: 'UTC', lang: 'en', role: 'admin', credentialId: 'abc' }),
      undefined,
    );
    assert.equal(consoleLink('https://v.test', 'reset', 'tok'), 'https://v.test/console/reset/tok');
  });
});

describe('single sign-on', () => {
  test('an issuer is https, or plain http on this machine only', () => {
    assert.equal(issuerAllowed('https://login.acme.test'), true);
    assert.equal(issuerAllowed('http://127.0.0.1:4000'), true);
    assert.equal(issuerAllowed('http://localhost:4000/realm'), true);
    assert.equal(issuerAllowed('http://login.acme.test'), false);
    assert.equal(issuerAllowed('http://10.0.0.5'), false);
    assert.equal(issuerAllowed('ftp://login.acme.test'), false);
    assert.equal(issuerAllowed('not a url'), false);
  });
});
