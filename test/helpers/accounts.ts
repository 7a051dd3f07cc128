/**
 * People of the console for tests (docs/console.md, "Signing in and accounts"): a host made with its account
 * e-mail, the set-password link taken from that e-mail (at the local SMTP stand-in) or, for a service without a
 * public address, from `POST /v1/host/:id/account-link`; a password set; and signed-in HTTP clients and pages.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { client, type Reply } from './service.ts';
import type { TestSmtp } from './smtp.ts';

export type PersonRole = 'ADMIN' | 'MANAGER' | 'SECURITY' | 'FRONTDESK' | 'HOST' | 'EMPLOYEE';

export interface Person {
  hostId: string;
  name: string;
  email: string;
  password: string;
  role: PersonRole;
}

/** A password that passes the rules (10 characters or more, not a common one). */
export const testPassword = 'correct horse battery staple';

/** The console link of a purpose (`welcome`, `reset`, `link`) in a received e-mail's text, with its token. */
export async function linkInMail(
  raw: string,
  purpose: 'welcome' | 'reset' | 'link',
): Promise<{ url: string; token: string }> {
  const text = (await simpleParser(raw)).text ?? '';
  const match = new RegExp(`(\\S*/console/${purpose}/([A-Za-z0-9_-]+))`).exec(text);
  assert.ok(match?.[1] && match[2], `no ${purpose} link in the mail: ${text}`);
  return { url: match[1], token: match[2] };
}

/**
 * Waits for an e-mail to `to` at the stand-in, past the first `after` mails (those already there count), whose
 * subject matches `subject` when given, and answers it.
 */
export async function mailTo(smtp: TestSmtp, to: string, after = 0, subject?: RegExp, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.mails
      .slice(after)
      .find((mail) => mail.to.includes(to) && (subject === undefined || subject.test(mail.subject)));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await smtp.waitFor(smtp.mails.length + 1, Math.max(1, deadline - Date.now())).catch(() => undefined);
  }
}

/**
 * Makes a person: a host of the admin key's company with `sendInvitationEmail`, active, then their password set
 * through the welcome link. With `smtp` (the company's e-mail set up to it and the service given a public
 * address), the link comes from the account e-mail; otherwise from the admin's copy-link endpoint.
 */
export async function createPerson(
  url: string,
  adminKey: string,
  options: { role?: PersonRole; name?: string; email?: string; password?: string; smtp?: TestSmtp } = {},
): Promise<Person> {
  const admin = client(url, adminKey);
  const email = options.email ?? `person-${randomUUID()}@acme.test`;
  const role = options.role ?? 'HOST';
  const name = options.name ?? `${role[0]}${role.slice(1).toLowerCase()} Person`;
  const password = options.password ?? testPassword;
  const before = options.smtp?.mails.length ?? 0;
  const created = await admin('POST', '/v1/hosts', { name, email, role, isActive: true, sendInvitationEmail: true });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const hostId = created.body.id as string;
  let token: string;
  if (options.smtp) {
    token = (await linkInMail((await mailTo(options.smtp, email, before)).raw, 'welcome')).token;
  } else {
    const link = await admin('POST', `/v1/host/${hostId}/account-link`);
    assert.equal(link.status, 200, JSON.stringify(link.body));
    token = String(link.body.path).split('/').pop() as string;
  }
  const set = await fetch(`${url}/v1/account/set-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  assert.equal(set.status, 200, await set.text());
  return { hostId, name, email, password, role };
}

/** A signed-in console session over HTTP: its cookie and CSRF token, and a client that sends both. */
export interface Session {
  cookie: string;
  token: string;
  csrfToken: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
  account: any;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

/** The session token a response's Set-Cookie gives, if any. */
export function sessionCookieOf(response: Response | Reply): string | undefined {
  for (const line of response.headers.getSetCookie()) {
    const match = /^portaria_session=([^;]*)/.exec(line);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

/** A client of a session: the cookie on every request, the CSRF token on those that change something. */
export function sessionClient(url: string, token: string, csrfToken: string): Session['call'] {
  const call = client(url);
  return (method, path, body, headers = {}) =>
    call(method, path, body, {
      cookie: `portaria_session=${token}`,
      ...(method === 'GET' || method === 'HEAD' ? {} : { 'x-csrf-token': csrfToken }),
      ...headers,
    });
}

/** Signs in with an e-mail and password (`POST /v1/account/sign-in`); fails the test if it is refused. */
export async function signIn(url: string, email: string, password: string, companyId?: string): Promise<Session> {
  const response = await fetch(`${url}/v1/account/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ...(companyId ? { companyId } : {}) }),
  });
  const body = (await response.json()) as { csrfToken: string };
  assert.equal(response.status, 200, JSON.stringify(body));
  const token = sessionCookieOf(response);
  assert.ok(token, 'sign-in set no session cookie');
  return {
    cookie: `portaria_session=${token}`,
    token,
    csrfToken: body.csrfToken,
    account: body,
    call: sessionClient(url, token, body.csrfToken),
  };
}

/** Makes a person and signs them in: the usual start of a console test. */
export async function signedInPerson(
  url: string,
  adminKey: string,
  options: Parameters<typeof createPerson>[2] = {},
): Promise<Person & { session: Session }> {
  const person = await createPerson(url, adminKey, options);
  return { ...person, session: await signIn(url, person.email, person.password) };
}

/** Signs a browser context in as a session (its cookie for the service's address): its pages open the console. */
export async function signInBrowser(context: BrowserContext, url: string, session: Session): Promise<void> {
  await context.addCookies([
    { name: 'portaria_session', value: session.token, url, httpOnly: true, sameSite: 'Strict' },
  ]);
}

/** A console page as a test opens it, and what went wrong in it: script errors and refusals of the CSP. */
export interface OpenedConsole {
  page: Page;
  context: BrowserContext;
  problems: string[];
}

/**
 * Opens `path` of the console at `url` in a browser context of its own at `viewport` (English), signed in as
 * `session` (or signed out), collecting the page's script errors and CSP refusals in `problems`.
 */
export async function openConsole(
  browser: Browser,
  url: string,
  options: {
    path?: string;
    session?: Session;
    viewport: { width: number; height: number };
    acceptDownloads?: boolean;
  },
): Promise<OpenedConsole> {
  const context = await browser.newContext({
    viewport: options.viewport,
    locale: 'en-US',
    acceptDownloads: options.acceptDownloads ?? false,
  });
  if (options.session) await signInBrowser(context, url, options.session);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  if (options.path !== undefined) await page.goto(`${url}${options.path}`);
  return { page, context, problems };
}
