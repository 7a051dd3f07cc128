/**
 * Single sign-on (docs/console.md, "Single sign-on") against a real OpenID Connect provider started here
 * (oidc-provider, whose development login form accepts any login): the code flow with PKCE, state and nonce; the
 * verified e-mail signs in the company's active host of that e-mail, and nobody else. oidc-provider warns about
 * Node 20 ("Unsupported runtime"): it runs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createPerson, sessionClient, sessionCookieOf } from '../helpers/accounts.ts';
import { allowLoopback, client, freePort, startService, type TestService } from '../helpers/service.ts';

interface OidcProvider {
  listen(port: number, host: string): Server;
}

let service: TestService;
let companyId: string;
let admin: ReturnType<typeof client>;
let providerServer: Server;
let issuer: string;

before(async () => {
  service = await startService({ args: allowLoopback });
  const company = await service.company('Acme');
  companyId = company.id;
  admin = client(service.url, company.apiKey);
  // The package has no types of its own: its one class, as this test uses it.
  const { default: Provider } = (await import('oidc-provider' as string)) as {
    default: new (issuer: string, configuration: unknown) => OidcProvider;
  };
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'portaria',
        client_secret: 'provider-secret',
        redirect_uris: [`${service.url}/v1/account/oidc/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { email: ['email', 'email_verified'], profile: ['name'] },
    // The login is the e-mail; `unverified-` ones come without email_verified.
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, email: id.replace(/^unverified-/, ''), email_verified: !id.startsWith('unverified-') }),
    }),
    pkce: { required: () => true },
  });
  providerServer = provider.listen(port, '127.0.0.1');
});

after(async () => {
  providerServer?.close();
  await service?.stop();
});

/** Cookies by origin, as a browser would keep them for this walk. */
type Jar = Map<string, Map<string, string>>;

function keep(jar: Jar, url: string, response: Response) {
  const origin = new URL(url).origin;
  const cookies = jar.get(origin) ?? new Map<string, string>();
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    if (value === '' || /Max-Age=0/i.test(line)) cookies.delete(pair.slice(0, eq));
    else cookies.set(pair.slice(0, eq), value);
  }
  jar.set(origin, cookies);
}

const cookieHeader = (jar: Jar, url: string) =>
  [...(jar.get(new URL(url).origin) ?? new Map()).entries()].map(([name, value]) => `${name}=${value}`).join('; ');

/**
 * A person's walk through single sign-on: the console's start, the provider's login and consent forms (filled in
 * as `login`), back to the service. Answers the service's last answer (its redirect) and the jar.
 */
async function walk(login: string, jar: Jar = new Map()): Promise<{ answer: Response; jar: Jar }> {
  let url = `${service.url}/v1/account/oidc/start?company=${companyId}`;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const answer = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(jar, url),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    keep(jar, url, answer);
    form = undefined;
    const location = answer.headers.get('location');
    if (url.startsWith(`${service.url}/v1/account/oidc/callback`)) return { answer, jar };
    if (location) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await answer.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    assert.ok(action && prompt, `no form at ${url}: ${answer.status} ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    form = new URLSearchParams({ prompt, login, password: 'anything' });
  }
  throw new Error('the walk did not end');
}

describe('the settings', () => {
  test('an issuer must be https (or on this machine), the secret is write-only, and it needs a client id', async () => {
    const insecure = await admin('PUT', '/v1/account/sign-in-settings', {
      oidc: { enabled: true, issuer: 'http://login.acme.test', clientId: 'x' },
    });
    assert.equal(insecure.status, 400);
    assert.equal(insecure.body.type, 'INVALID_URL');
    const noClient = await admin('PUT', '/v1/account/sign-in-settings', { oidc: { enabled: true, issuer } });
    assert.equal(noClient.status, 400);
    const saved = await admin('PUT', '/v1/account/sign-in-settings', {
      oidc: { enabled: true, issuer, clientId: 'portaria', clientSecret: 'provider-secret', name: 'Acme ID' },
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.oidc, {
      enabled: true,
      issuer,
      clientId: 'portaria',
      clientSecretSet: true,
      name: 'Acme ID',
    });
    assert.doesNotMatch(JSON.stringify((await admin('GET', '/v1/account/sign-in-settings')).body), /provider-secret/);
    const options = await client(service.url)('GET', `/v1/account/sign-in-options?company=${companyId}`);
    assert.deepEqual(options.body.oidc, { name: 'Acme ID' });
  });

  test('on a hub shared by companies, an issuer on the hub’s own network is refused', async () => {
    const hub = await startService();
    try {
      const key = (await hub.company('One')).apiKey;
      await hub.company('Two');
      const refused = await client(hub.url, key)('PUT', '/v1/account/sign-in-settings', {
        oidc: { enabled: true, issuer, clientId: 'portaria' },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.type, 'DESTINATION_REFUSED');
    } finally {
      await hub.stop();
    }
  });
});

describe('signing in', () => {
  test("the provider's verified e-mail signs in the company's active host of that e-mail", async () => {
    const person = await createPerson(service.url, (await service.company('Other')).apiKey);
    const acmePerson = await createPerson(service.url, await adminKeyOf());
    const { answer } = await walk(acmePerson.email.toUpperCase());
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('location'), '/console');
    const token = sessionCookieOf(answer);
    assert.ok(token);
    const me = await sessionClient(service.url, token, '')('GET', '/v1/account/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.account.hostId, acmePerson.hostId);
    // A host of another company with that e-mail is not who signs in to Acme.
    const stranger = await walk(person.email);
    assert.match(stranger.answer.headers.get('location') ?? '', /^\/console\/sign-in\?company=\w+&sso=failed$/);
    assert.equal(sessionCookieOf(stranger.answer), undefined);
  });

  test('nobody else: an e-mail no host has, an unverified one, or a callback without its sign-in', async () => {
    const stranger = await walk(`stranger-${randomUUID()}@acme.test`);
    assert.match(stranger.answer.headers.get('location') ?? '', /sso=failed/);
    assert.equal(sessionCookieOf(stranger.answer), undefined);
    const person = await createPerson(service.url, await adminKeyOf());
    const unverified = await walk(`unverified-${person.email}`);
    assert.match(unverified.answer.headers.get('location') ?? '', /sso=failed/);
    const forged = await fetch(`${service.url}/v1/account/oidc/callback?code=abc&state=def`, { redirect: 'manual' });
    assert.equal(forged.status, 302);
    assert.match(forged.headers.get('location') ?? '', /sso=failed/);
    assert.equal(sessionCookieOf(forged), undefined);
  });

  test('a company without single sign-on has no start; one whose provider is down goes back to signing in', async () => {
    const other = await service.company('Plain');
    const answer = await fetch(`${service.url}/v1/account/oidc/start?company=${other.id}`, { redirect: 'manual' });
    assert.equal(answer.status, 404);
    // A provider that does not answer sends the person back to signing in, saying so.
    const down = await client(service.url, other.apiKey)('PUT', '/v1/account/sign-in-settings', {
      oidc: { enabled: true, issuer: `http://127.0.0.1:${await freePort()}`, clientId: 'portaria' },
    });
    assert.equal(down.status, 200);
    const refused = await fetch(`${service.url}/v1/account/oidc/start?company=${other.id}`, { redirect: 'manual' });
    assert.equal(refused.status, 302);
    assert.equal(refused.headers.get('location'), `/console/sign-in?company=${other.id}&sso=failed`);
  });
});

/** The admin key of Acme, as made in `before`. */
async function adminKeyOf(): Promise<string> {
  const made = await admin('POST', '/v1/credentials', { role: 'admin', label: `test ${randomUUID()}` });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.key as string;
}
