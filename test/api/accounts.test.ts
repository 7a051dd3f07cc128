import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import {
  createPerson,
  linkInMail,
  mailTo,
  type Session,
  sessionClient,
  sessionCookieOf,
  signIn,
  testPassword,
} from '../helpers/accounts.ts';
import { allowLoopback, cli, client, startService, type TestService } from '../helpers/service.ts';
import { smtpSettings, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { withServiceDb } from '../helpers/store.ts';
import { startKiosk } from '../helpers/sync-service.ts';

type Api = ReturnType<typeof client>;

let smtp: TestSmtp;
/** With a public address: e-mails carry links. */
let linked: TestService;
let linkedKey: string;
let linkedCompanyId: string;
let admin: Api;
/** Without one: a fresh device whose company has no account yet. */
let bare: TestService;
let bareAdmin: Api;

async function withMail(target: Api) {
  const saved = await target('POST', '/v1/integration/notifications', smtpSettings(smtp));
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

before(async () => {
  smtp = await startSmtp();
  [linked, bare] = await Promise.all([
    startService({ args: [...allowLoopback, '--public-url', 'https://visitors.acme.test/'] }),
    startService({ args: [...allowLoopback, '--trust-proxy', '127.0.0.0/8'] }),
  ]);
  const company = await linked.company('Acme', 'America/Sao_Paulo');
  linkedKey = company.apiKey;
  linkedCompanyId = company.id;
  admin = client(linked.url, linkedKey);
  bareAdmin = client(bare.url, (await bare.company('Bare', 'Europe/Berlin')).apiKey);
  await withMail(admin);
  await withMail(bareAdmin);
});

after(async () => {
  await Promise.all([linked?.stop(), bare?.stop()]);
  await smtp?.close();
});

describe('the account e-mail and the first password', () => {
  test('a host made with sendInvitationEmail gets a single-use set-password link that signs in', async () => {
    const email = `ana-${randomUUID()}@acme.test`;
    const before = smtp.mails.length;
    const created = await admin('POST', '/v1/hosts', {
      name: 'Ana Souza',
      email,
      role: 'HOST',
      isActive: true,
      sendInvitationEmail: true,
    });
    assert.equal(created.status, 200);
    const mail = await mailTo(smtp, email, before);
    assert.match(mail.subject, /Acme/);
    const link = await linkInMail(mail.raw, 'welcome');
    assert.match(link.url, /^https:\/\/visitors\.acme\.test\/console\/welcome\/[A-Za-z0-9_-]{43}$/);
    // The HTML part: the company's name and the link as its button.
    const html = String((await simpleParser(mail.raw)).html);
    assert.match(html, /Acme/);
    assert.ok(html.includes(`href="${link.url}"`));

    const weak = await post(linked.url, '/v1/account/set-password', { token: link.token, password: 'short' });
    assert.equal(weak.status, 400);
    assert.deepEqual(await weak.json(), { type: 'WEAK_PASSWORD', reason: 'tooShort' });
    const common = await post(linked.url, '/v1/account/set-password', { token: link.token, password: email });
    assert.equal(((await common.json()) as { reason: string }).reason, 'tooCommon');

    const set = await post(linked.url, '/v1/account/set-password', { token: link.token, password: testPassword });
    assert.equal(set.status, 200);
    const body = (await set.json()) as Session['account'];
    assert.equal(body.account.email, email);
    assert.equal(body.account.role, 'HOST');
    assert.equal(body.company.name, 'Acme');
    assert.ok(sessionCookieOf(set));

    const again = await post(linked.url, '/v1/account/set-password', { token: link.token, password: testPassword });
    assert.equal(again.status, 409);
    assert.deepEqual(await again.json(), { type: 'LINK_USED' });
    const unknown = await post(linked.url, '/v1/account/set-password', {
      token: 'x'.repeat(43),
      password: testPassword,
    });
    assert.equal(unknown.status, 404);
  });

  test('resendInvitationEmail sends another link; without a public address the e-mail has none and an admin copies it', async () => {
    const person = await createPerson(linked.url, linkedKey, { smtp });
    const before = smtp.mails.length;
    assert.equal((await admin('PATCH', `/v1/host/${person.hostId}`, { resendInvitationEmail: true })).status, 200);
    await linkInMail((await mailTo(smtp, person.email, before)).raw, 'welcome');

    const email = `bo-${randomUUID()}@bare.test`;
    const beforeBare = smtp.mails.length;
    const created = await bareAdmin('POST', '/v1/hosts', {
      name: 'Bo',
      email,
      isActive: true,
      sendInvitationEmail: true,
    });
    const mail = await mailTo(smtp, email, beforeBare);
    assert.doesNotMatch(mail.raw, /\/console\/welcome\//);
    assert.match(mail.text + mail.raw, /administrator/);
    const copied = await bareAdmin('POST', `/v1/host/${created.body.id}/account-link`);
    assert.equal(copied.status, 200);
    assert.equal(copied.body.url, null);
    assert.match(copied.body.path, /^\/console\/welcome\/[A-Za-z0-9_-]{43}$/);
    const stateOf = async () =>
      (await bareAdmin('GET', '/v1/accounts')).body.accounts.find(
        (a: { hostId: string }) => a.hostId === created.body.id,
      )?.state;
    assert.equal(await stateOf(), 'invited');
    const token = String(copied.body.path).split('/').pop();
    assert.equal((await post(bare.url, '/v1/account/set-password', { token, password: testPassword })).status, 200);
    assert.equal(await stateOf(), 'active');
    const linkedCopy = await admin('POST', `/v1/host/${person.hostId}/account-link`);
    assert.match(linkedCopy.body.url, /^https:\/\/visitors\.acme\.test\/console\/welcome\//);
  });
});

describe('sessions', () => {
  test('sign-in sets an HttpOnly SameSite=Strict cookie, Secure only over TLS', async () => {
    const person = await createPerson(linked.url, linkedKey);
    const response = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: person.password });
    assert.equal(response.status, 200);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('portaria_session='));
    assert.ok(cookie);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\//);
    assert.doesNotMatch(cookie, /Secure/);

    const barePerson = await createPerson(bare.url, (await bare.company('Proxied')).apiKey);
    const proxied = await post(
      bare.url,
      '/v1/account/sign-in',
      { email: barePerson.email, password: barePerson.password },
      { 'x-forwarded-proto': 'https' },
    );
    assert.equal(proxied.status, 200);
    assert.match(proxied.headers.getSetCookie().join('\n'), /; Secure/);
  });

  test('the e-mail is matched without case; a wrong password and an unknown e-mail answer alike', async () => {
    const person = await createPerson(linked.url, linkedKey);
    await signIn(linked.url, person.email.toUpperCase(), person.password);
    const wrong = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: 'not the password' });
    const unknown = await post(linked.url, '/v1/account/sign-in', {
      email: `nobody-${randomUUID()}@acme.test`,
      password: 'not the password',
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.deepEqual(await wrong.json(), { type: 'INVALID_CREDENTIALS' });
    assert.deepEqual(await unknown.json(), { type: 'INVALID_CREDENTIALS' });
  });

  test('GET /v1/account/me answers the person, their company and the CSRF token; nothing without a session', async () => {
    const person = await createPerson(linked.url, linkedKey, { role: 'SECURITY', name: 'Sam' });
    const session = await signIn(linked.url, person.email, person.password);
    const me = await session.call('GET', '/v1/account/me');
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.account, {
      hostId: person.hostId,
      companyId: linkedCompanyId,
      name: 'Sam',
      email: person.email,
      role: 'SECURITY',
      lang: 'en',
    });
    assert.equal(me.body.company.timeZone, 'America/Sao_Paulo');
    assert.equal(me.body.csrfToken, session.csrfToken);
    assert.equal((await client(linked.url)('GET', '/v1/account/me')).status, 401);
    assert.equal((await admin('GET', '/v1/account/me')).status, 401);
    const forged = await client(linked.url)('GET', '/v1/account/me', undefined, {
      cookie: `portaria_session=${'a'.repeat(43)}`,
    });
    assert.equal(forged.status, 401);
  });

  test('a change needs the CSRF token; a request with an API key ignores cookies', async () => {
    const person = await createPerson(linked.url, linkedKey, { role: 'HOST' });
    const session = await signIn(linked.url, person.email, person.password);
    const bare = client(linked.url);
    const cookie = { cookie: session.cookie };
    const missing = await bare('POST', '/v1/account/sign-out', {}, cookie);
    assert.equal(missing.status, 403);
    assert.deepEqual(missing.body, { type: 'INVALID_CSRF_TOKEN' });
    const wrong = await bare('POST', '/v1/account/sign-out', {}, { ...cookie, 'x-csrf-token': 'x'.repeat(32) });
    assert.equal(wrong.status, 403);
    // A host's session may not read the sign-in settings; the admin key with the host's cookie may, without CSRF.
    assert.equal((await session.call('GET', '/v1/account/sign-in-settings')).status, 403);
    const withKey = await admin('GET', '/v1/account/sign-in-settings', undefined, cookie);
    assert.equal(withKey.status, 200);
    const keyWrite = await admin('PUT', '/v1/account/sign-in-settings', {}, cookie);
    assert.equal(keyWrite.status, 200);
    // A wrong key is judged by its key, not rescued by the cookie.
    const badKey = await client(linked.url, 'prt_wrong')('GET', '/v1/account/me', undefined, cookie);
    assert.equal(badKey.status, 401);
    const out = await session.call('POST', '/v1/account/sign-out');
    assert.equal(out.status, 200);
    assert.match(out.headers.getSetCookie().join('\n'), /portaria_session=; Max-Age=0/);
    assert.equal((await session.call('GET', '/v1/account/me')).status, 401);
  });

  test('a person lists their sessions and ends one, or every other', async () => {
    const person = await createPerson(linked.url, linkedKey);
    const first = await signIn(linked.url, person.email, person.password);
    const second = await signIn(linked.url, person.email, person.password);
    const third = await signIn(linked.url, person.email, person.password);
    const list = await first.call('GET', '/v1/account/sessions', undefined, { 'user-agent': 'Test Browser' });
    assert.equal(list.status, 200);
    // And the one setting the password started.
    assert.equal(list.body.sessions.length, 4);
    assert.equal(list.body.sessions.filter((s: { current: boolean }) => s.current).length, 1);
    const secondId = (await second.call('GET', '/v1/account/sessions')).body.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id;
    assert.equal((await first.call('DELETE', `/v1/account/sessions/${secondId}`)).status, 200);
    assert.equal((await second.call('GET', '/v1/account/me')).status, 401);
    assert.equal((await first.call('DELETE', `/v1/account/sessions/${secondId}`)).status, 404);
    // Another person's session is not theirs to end.
    const other = await createPerson(linked.url, linkedKey);
    const otherSession = await signIn(linked.url, other.email, other.password);
    const otherId = (await otherSession.call('GET', '/v1/account/sessions')).body.sessions[0].id;
    assert.equal((await first.call('DELETE', `/v1/account/sessions/${otherId}`)).status, 404);
    assert.equal((await first.call('DELETE', '/v1/account/sessions')).status, 200);
    assert.equal((await third.call('GET', '/v1/account/me')).status, 401);
    assert.equal((await first.call('GET', '/v1/account/me')).status, 200);
  });

  test('a role change applies to the next request; deactivation and deletion end the sessions at once', async () => {
    const person = await createPerson(linked.url, linkedKey, { role: 'ADMIN' });
    const session = await signIn(linked.url, person.email, person.password);
    assert.equal((await session.call('GET', '/v1/account/sign-in-settings')).status, 200);
    await admin('PATCH', `/v1/host/${person.hostId}`, { role: 'EMPLOYEE' });
    assert.equal((await session.call('GET', '/v1/account/sign-in-settings')).status, 403);
    assert.equal((await session.call('GET', '/v1/account/me')).body.account.role, 'EMPLOYEE');

    await admin('PATCH', `/v1/host/${person.hostId}`, { isActive: false });
    assert.equal((await session.call('GET', '/v1/account/me')).status, 401);
    await admin('PATCH', `/v1/host/${person.hostId}`, { isActive: true });
    assert.equal((await session.call('GET', '/v1/account/me')).status, 401, 'an old session does not come back');
    const again = await signIn(linked.url, person.email, person.password);
    await admin('DELETE', `/v1/host/${person.hostId}`);
    assert.equal((await again.call('GET', '/v1/account/me')).status, 401);
    const gone = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: person.password });
    assert.equal(gone.status, 401);
    const kept = await withServiceDb(linked.dataDir, async (db) => ({
      accounts: await db.prepare('SELECT 1 FROM accounts WHERE hostId = ?').get(person.hostId),
      sessions: await db.prepare('SELECT 1 FROM account_sessions WHERE hostId = ?').get(person.hostId),
    }));
    assert.deepEqual(kept, { accounts: undefined, sessions: undefined }, "a deleted host's account goes");
  });

  test('what a session does is audited with the session and the person', async () => {
    const person = await createPerson(linked.url, linkedKey, { role: 'ADMIN' });
    const session = await signIn(linked.url, person.email, person.password);
    const made = await session.call('POST', '/v1/hosts', {
      name: 'Made by a person',
      email: `${randomUUID()}@acme.test`,
    });
    assert.equal(made.status, 200);
    const audit = await admin('GET', '/v1/audit?limit=1000');
    const entry = audit.body.entries.find(
      (e: { action: string; objectId: string }) => e.action === 'host.created' && e.objectId === made.body.id,
    );
    assert.ok(entry);
    assert.equal(entry.actorHostId, person.hostId);
    assert.match(entry.actorCredentialId, /^session:[0-9a-f]{24}$/);
    assert.equal(entry.actorRole, 'admin');
  });
});

describe('passwords', () => {
  test('guessing is slowed: after 5 failures 429 with Retry-After, and the right password works after the wait', async () => {
    const person = await createPerson(linked.url, linkedKey);
    for (let i = 1; i <= 5; i++) {
      const wrong = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: `wrong ${i}` });
      assert.equal(wrong.status, 401, `failure ${i}`);
    }
    const held = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: person.password });
    assert.equal(held.status, 429);
    const retryAfter = Number(held.headers.get('retry-after'));
    assert.deepEqual(await held.json(), { type: 'TOO_MANY_REQUESTS', retryAfter });
    assert.ok(retryAfter > 0 && retryAfter <= 15, String(retryAfter));
    // Another account from the same address is not held (a source is held only after 20 failures).
    const other = await createPerson(linked.url, linkedKey);
    await signIn(linked.url, other.email, other.password);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200));
    await signIn(linked.url, person.email, person.password);
  });

  test('changing the password needs the current one and ends the other sessions', async () => {
    const person = await createPerson(linked.url, linkedKey);
    const session = await signIn(linked.url, person.email, person.password);
    const other = await signIn(linked.url, person.email, person.password);
    const wrong = await session.call('PUT', '/v1/account/password', {
      currentPassword: 'not it at all',
      newPassword: 'a brand new password',
    });
    assert.equal(wrong.status, 401);
    const weak = await session.call('PUT', '/v1/account/password', {
      currentPassword: person.password,
      newPassword: '1234567890',
    });
    assert.deepEqual(weak.body, { type: 'WEAK_PASSWORD', reason: 'tooCommon' });
    const changed = await session.call('PUT', '/v1/account/password', {
      currentPassword: person.password,
      newPassword: 'a brand new password',
    });
    assert.equal(changed.status, 200);
    assert.equal((await session.call('GET', '/v1/account/me')).status, 200);
    assert.equal((await other.call('GET', '/v1/account/me')).status, 401);
    await signIn(linked.url, person.email, 'a brand new password');
  });

  test('a reset e-mails a one-hour link (202 whatever the address); using it signs in and ends every other session', async () => {
    const person = await createPerson(linked.url, linkedKey);
    const old = await signIn(linked.url, person.email, person.password);
    const before = smtp.mails.length;
    const nobody = await post(linked.url, '/v1/account/password-reset', { email: `nobody-${randomUUID()}@acme.test` });
    assert.equal(nobody.status, 202);
    const asked = await post(linked.url, '/v1/account/password-reset', { email: person.email });
    assert.equal(asked.status, 202);
    assert.deepEqual(await asked.json(), { accepted: true });
    // Asked twice more at once: one e-mail a minute (a stranger cannot flood the mailbox).
    for (let i = 0; i < 2; i++) {
      assert.equal((await post(linked.url, '/v1/account/password-reset', { email: person.email })).status, 202);
    }
    const resets = await withServiceDb(
      linked.dataDir,
      async (db) =>
        (await db
          .prepare(`SELECT COUNT(*) AS n FROM jobs WHERE kind = 'account-email' AND idempotencyKey LIKE ?`)
          .get(`${person.hostId}:reset:%`)) as { n: number },
    );
    assert.ok(Number(resets.n) <= 2, 'one reset a minute (two if the minute turned between the three requests)');
    const mail = await mailTo(smtp, person.email, before, /^Reset/);
    const link = await linkInMail(mail.raw, 'reset');
    assert.match(link.url, /^https:\/\/visitors\.acme\.test\/console\/reset\//);
    const reset = await post(linked.url, '/v1/account/set-password', {
      token: link.token,
      password: 'my reset password',
    });
    assert.equal(reset.status, 200);
    const fresh = sessionCookieOf(reset) as string;
    const csrf = ((await reset.json()) as { csrfToken: string }).csrfToken;
    assert.equal((await sessionClient(linked.url, fresh, csrf)('GET', '/v1/account/me')).status, 200);
    assert.equal((await old.call('GET', '/v1/account/me')).status, 401);
    assert.equal(
      (await post(linked.url, '/v1/account/sign-in', { email: person.email, password: person.password })).status,
      401,
    );
    assert.equal(smtp.mails.slice(before).filter((m) => m.to.some((to) => to.includes('nobody-'))).length, 0);
  });
});

describe('signing in by link', () => {
  test('a company that signs in by link e-mails a 15-minute single-use link, and refuses passwords', async () => {
    const company = await linked.company('Linky');
    const linky = client(linked.url, company.apiKey);
    await withMail(linky);
    const person = await createPerson(linked.url, company.apiKey);
    const before = smtp.mails.length;
    // A company that signs in by password sends no sign-in link.
    assert.equal((await post(linked.url, '/v1/account/sign-in-link', { email: person.email })).status, 202);
    const saved = await linky('PUT', '/v1/account/sign-in-settings', { signIn: 'link' });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.signIn, 'link');
    assert.equal((await post(linked.url, '/v1/account/sign-in-link', { email: person.email })).status, 202);
    const mail = await mailTo(smtp, person.email, before, /^Sign in/);
    const link = await linkInMail(mail.raw, 'link');
    assert.equal(
      smtp.mails.slice(before).filter((m) => m.to.includes(person.email) && /^Sign in/.test(m.subject)).length,
      1,
    );
    const options = await client(linked.url)('GET', `/v1/account/sign-in-options?company=${company.id}`);
    assert.equal(options.body.signIn, 'link');
    const signedIn = await post(linked.url, '/v1/account/link-sign-in', { token: link.token });
    assert.equal(signedIn.status, 200);
    assert.ok(sessionCookieOf(signedIn));
    const again = await post(linked.url, '/v1/account/link-sign-in', { token: link.token });
    assert.equal(again.status, 409);
    const password = await post(linked.url, '/v1/account/sign-in', { email: person.email, password: person.password });
    assert.equal(password.status, 401);
  });
});

describe('the first administrator', () => {
  test('only this machine, and only while the company has no account, creates the first administrator', async () => {
    const fresh = await startService({ args: allowLoopback });
    try {
      await fresh.company('Fresh');
      const anonymous = client(fresh.url);
      const options = await anonymous('GET', '/v1/account/sign-in-options');
      assert.equal(options.status, 200);
      assert.equal(options.body.firstAdmin, true);
      assert.equal(options.body.company.name, 'Fresh');
      const input = { name: 'Owner', email: 'owner@fresh.test', password: testPassword };
      const elsewhere = await post(fresh.url, '/v1/account/first-admin', input, {
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      assert.equal(elsewhere.status, 403);
      const made = await post(fresh.url, '/v1/account/first-admin', input);
      assert.equal(made.status, 200);
      assert.equal(((await made.json()) as Session['account']).account.role, 'ADMIN');
      assert.ok(sessionCookieOf(made));
      assert.equal((await anonymous('GET', '/v1/account/sign-in-options')).body.firstAdmin, false);
      const second = await post(fresh.url, '/v1/account/first-admin', { ...input, email: 'second@fresh.test' });
      assert.equal(second.status, 403);
      await signIn(fresh.url, input.email, input.password);
    } finally {
      await fresh.stop();
    }
  });

  test('a kiosk of a hub offers no first administrator: its people sign in at the hub', async () => {
    const hub = await startService();
    try {
      const company = await hub.company('Hub');
      const kiosk = await startKiosk(hub.url, company.apiKey);
      try {
        const options = await client(kiosk.url)('GET', '/v1/account/sign-in-options');
        assert.equal(options.body.firstAdmin, false);
        const refused = await post(kiosk.url, '/v1/account/first-admin', {
          name: 'Owner',
          email: 'owner@hub.test',
          password: testPassword,
        });
        assert.equal(refused.status, 403);
      } finally {
        await kiosk.stop();
      }
    } finally {
      await hub.stop();
    }
  });

  test('portaria account-link prints a set-password link, making a new person an administrator', async () => {
    const company = await bare.company('Headless');
    const run = (email: string) =>
      cli([
        'account-link',
        '--data',
        bare.dataDir,
        '--company',
        company.id,
        '--email',
        email,
        '--url',
        'https://hub.test/',
      ]);
    const made = await run('owner@headless.test');
    assert.equal(made.status, 0, made.stderr);
    const printed = JSON.parse(made.stdout);
    assert.equal(printed.created, true);
    assert.match(printed.url, /^https:\/\/hub\.test\/console\/welcome\/[A-Za-z0-9_-]{43}$/);
    const token = String(printed.path).split('/').pop();
    assert.equal((await post(bare.url, '/v1/account/set-password', { token, password: testPassword })).status, 200);
    const session = await signIn(bare.url, 'owner@headless.test', testPassword);
    assert.equal(session.account.account.role, 'ADMIN');
    const again = JSON.parse((await run('owner@headless.test')).stdout);
    assert.equal(again.created, false);
    assert.equal(again.hostId, printed.hostId);
    const unknown = await cli(['account-link', '--data', bare.dataDir, '--company', 'nope', '--email', 'a@b.test']);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no such company/);
  });
});
