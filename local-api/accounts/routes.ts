import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.ts';
import { type Role, roles } from '../credentials/caller.ts';
import { getHost } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import { email, text } from '../http/fields.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { mayReceiveCredential } from '../kiosk/session.ts';
import { publicAddress } from '../public/address.ts';
import { formatInZone } from '../rules/time.ts';
import { queueAccountMail } from './mail.ts';
import { finishSingleSignOn, startSingleSignOn } from './oidc.ts';
import {
  endSession,
  endSessionsOf,
  personSessions,
  sessionIdOf,
  sessionTokenOf,
  setSessionCookie,
} from './sessions.ts';
import {
  saveSignInSettings,
  signInSettings,
  signInSettingsAnswer,
  signInSettingsInput,
  signInSettingsObject,
} from './settings.ts';
import {
  accountAnswer,
  accountStates,
  changePassword,
  createFirstAdmin,
  firstAdminCompany,
  type Person,
  peopleByEmail,
  personOf,
  setPasswordWithToken,
  signInOptions,
  signInWithLink,
  signInWithPassword,
} from './store.ts';
import { consoleLink, createToken } from './tokens.ts';

const tag = 'Accounts';

/** Everyone signed in to the console: every person's role (docs/console.md, "Roles: who sees what"). */
const people: readonly Role[] = ['admin', 'manager', 'security', 'frontdesk', 'host'];

const password = () => z.string().min(1).max(1000);
const linkToken = () => z.string().trim().min(20).max(200);

const accountObject = z.object({
  account: z.object({
    hostId: z.string(),
    companyId: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.string(),
    lang: z.string(),
  }),
  company: z.object({
    id: z.string(),
    name: z.string(),
    lang: z.string(),
    timeZone: z.string(),
    brandColor: z.string().nullable(),
  }),
  csrfToken: z.string(),
});

const acceptedSchema = z.object({ accepted: z.literal(true) });

/** Sets the new session's cookie and answers the account, as every way of signing in does. */
async function signedIn(
  ctx: Context,
  req: Request,
  res: Response,
  done: { person: Person; session: { token: string } },
): Promise<z.output<typeof accountObject>> {
  setSessionCookie(req, res, done.session.token);
  return await accountAnswer(ctx, done.person, done.session.token);
}

/** The session token of a request authenticated by its cookie (the routes below that need one). */
function presentedSession(req: Request): string {
  const token = sessionTokenOf(req);
  if (!token) throw new ApiError('UNAUTHORIZED');
  return token;
}

export function accountRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/account/sign-in',
      access: 'public',
      tag,
      summary: 'Sign in to the console with an e-mail and password',
      body: z.object({ email: email(), password: password(), companyId: z.string().max(100).optional() }),
      fieldCodes: { email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' } },
      response: accountObject,
      errors: ['INVALID_CREDENTIALS', 'TOO_MANY_REQUESTS', 'MISSING_EMAIL', 'INVALID_EMAIL', 'INVALID_PARAMETER'],
      handle: async ({ req, res, body }) =>
        await signedIn(ctx, req, res, await signInWithPassword(ctx, req, res, body)),
    }),
    route({
      method: 'post',
      path: '/account/sign-out',
      roles: people,
      tag,
      summary: 'Sign out: end this session',
      response: successSchema,
      errors: ['UNAUTHORIZED'],
      handle: async ({ req, res, caller }) => {
        const id = sessionIdOf(caller);
        if (id) await endSession(ctx, caller, id);
        setSessionCookie(req, res, undefined);
        return { success: true };
      },
    }),
    route({
      method: 'get',
      path: '/account/me',
      roles: people,
      tag,
      summary: 'The signed-in person, their company and the CSRF token',
      response: accountObject,
      errors: ['UNAUTHORIZED'],
      handle: async ({ req, caller }) => await accountAnswer(ctx, personOf(caller), presentedSession(req)),
    }),
    route({
      method: 'get',
      path: '/account/sessions',
      roles: people,
      tag,
      summary: "The signed-in person's sessions",
      response: z.object({
        sessions: z.array(
          z.object({
            id: z.string(),
            current: z.boolean(),
            createdAt: z.string(),
            lastSeenAt: z.string(),
            expiresAt: z.string(),
            userAgent: z.string().nullable(),
            address: z.string().nullable(),
          }),
        ),
      }),
      errors: ['UNAUTHORIZED'],
      handle: async ({ caller }) => {
        personOf(caller);
        const current = sessionIdOf(caller);
        const time = (ms: number) => formatInZone(ms, caller.timeZone);
        return {
          sessions: (await personSessions(ctx, caller)).map((session) => ({
            id: session.id,
            current: session.id === current,
            createdAt: time(session.createdAt),
            lastSeenAt: time(session.lastSeenAt),
            expiresAt: time(session.expiresAt),
            userAgent: session.userAgent,
            address: session.address,
          })),
        };
      },
    }),
    route({
      method: 'delete',
      path: '/account/sessions/:id',
      roles: people,
      tag,
      summary: 'End one of the signed-in person’s sessions',
      response: successSchema,
      errors: ['UNAUTHORIZED', 'NOT_FOUND', 'MISSING_ID'],
      handle: async ({ req, res, caller, params }) => {
        personOf(caller);
        if (!(await endSession(ctx, caller, String(params.id)))) throw new ApiError('NOT_FOUND');
        if (params.id === sessionIdOf(caller)) setSessionCookie(req, res, undefined);
        return { success: true };
      },
    }),
    route({
      method: 'delete',
      path: '/account/sessions',
      roles: people,
      tag,
      summary: 'Sign out everywhere else: end every other session of the signed-in person',
      response: successSchema,
      errors: ['UNAUTHORIZED'],
      handle: async ({ caller }) => {
        const person = personOf(caller);
        await endSessionsOf(ctx, person, sessionIdOf(caller));
        return { success: true };
      },
    }),
    route({
      method: 'put',
      path: '/account/password',
      roles: people,
      tag,
      summary: "Change the signed-in person's password (their other sessions end)",
      body: z.object({ currentPassword: password(), newPassword: password() }),
      response: successSchema,
      errors: ['UNAUTHORIZED', 'INVALID_CREDENTIALS', 'WEAK_PASSWORD', 'TOO_MANY_REQUESTS', 'INVALID_PARAMETER'],
      handle: async ({ req, res, caller, body }) => {
        await changePassword(ctx, req, res, caller, body);
        return { success: true };
      },
    }),
    mailedLinkRoute(ctx, '/account/password-reset', 'E-mail a password-reset link', 'reset'),
    mailedLinkRoute(ctx, '/account/sign-in-link', 'E-mail a sign-in link, where the company signs in by link', 'link'),
    route({
      method: 'post',
      path: '/account/set-password',
      access: 'public',
      tag,
      summary: 'Set a password with a welcome or reset link, and sign in',
      body: z.object({ token: linkToken(), password: password() }),
      response: accountObject,
      errors: ['LINK_INVALID', 'LINK_EXPIRED', 'LINK_USED', 'WEAK_PASSWORD', 'INVALID_PARAMETER'],
      handle: async ({ req, res, body }) =>
        await signedIn(ctx, req, res, await setPasswordWithToken(ctx, req, body.token, body.password)),
    }),
    route({
      method: 'post',
      path: '/account/link-sign-in',
      access: 'public',
      tag,
      summary: 'Sign in with a sign-in link',
      body: z.object({ token: linkToken() }),
      response: accountObject,
      errors: ['LINK_INVALID', 'LINK_EXPIRED', 'LINK_USED', 'INVALID_PARAMETER'],
      handle: async ({ req, res, body }) => await signedIn(ctx, req, res, await signInWithLink(ctx, req, body.token)),
    }),
    route({
      method: 'get',
      path: '/account/sign-in-options',
      access: 'public',
      tag,
      summary:
        "How a company's people sign in (`?company=`, else the device's company), and whether this machine may create the first administrator",
      query: z.object({ company: z.string().optional() }),
      response: z.object({
        company: z.object({ id: z.string(), name: z.string() }).nullable(),
        signIn: z.enum(['password', 'link']),
        oidc: z.object({ name: z.string() }).nullable(),
        firstAdmin: z.boolean(),
      }),
      errors: [],
      handle: async ({ req }) => {
        const company = typeof req.query.company === 'string' ? req.query.company : undefined;
        const options = await signInOptions(ctx, company);
        const firstAdmin = mayReceiveCredential(req) && (await firstAdminCompany(ctx)) !== undefined;
        return { ...options, firstAdmin };
      },
    }),
    route({
      method: 'post',
      path: '/account/first-admin',
      access: 'public',
      tag,
      summary: "Create the first administrator of the device's company (from this machine only), and sign in",
      body: z.object({ name: text(200).trim().min(1), email: email(), password: password() }),
      fieldCodes: {
        name: { missing: 'MISSING_NAME', invalid: 'INVALID_PARAMETER' },
        email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' },
      },
      response: accountObject,
      errors: ['FORBIDDEN', 'WEAK_PASSWORD', 'MISSING_NAME', 'MISSING_EMAIL', 'INVALID_EMAIL', 'INVALID_PARAMETER'],
      handle: async ({ req, res, body }) => {
        if (!mayReceiveCredential(req)) throw new ApiError('FORBIDDEN');
        return await signedIn(ctx, req, res, await createFirstAdmin(ctx, req, body));
      },
    }),
    route({
      method: 'get',
      path: '/account/oidc/start',
      access: 'public',
      tag,
      summary: "Sign in with the company's OpenID Connect provider: answers 302 to the provider",
      query: z.object({ company: z.string() }),
      redirects: "the company's OpenID Connect provider",
      errors: ['NOT_FOUND'],
      handle: async ({ req, res }) => {
        const company = typeof req.query.company === 'string' ? req.query.company : '';
        await startSingleSignOn(ctx, req, res, company);
      },
    }),
    route({
      method: 'get',
      path: '/account/oidc/callback',
      access: 'public',
      tag,
      summary: 'Where the provider sends the person back: answers 302 to /console signed in, or to signing in',
      redirects: '`/console`, signed in; or `/console/sign-in?company=<id>&sso=failed`',
      errors: [],
      handle: async ({ req, res }) => await finishSingleSignOn(ctx, req, res),
    }),
    route({
      method: 'post',
      path: '/host/:id/account-link',
      tag,
      summary: "A new set-password link for a host's account, for an administrator to hand over",
      response: z.object({ url: z.string().nullable(), path: z.string(), expiresAt: z.string() }),
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        const host = await getHost(ctx, caller, String(params.id));
        if (!host.isActive) throw new ApiError('NOT_FOUND');
        const made = await createToken(ctx, { companyId: caller.companyId, hostId: host.id }, 'welcome');
        const base = await publicAddress(ctx, caller.companyId);
        return {
          url: base ? consoleLink(base, 'welcome', made.token) : null,
          path: consoleLink('', 'welcome', made.token),
          expiresAt: formatInZone(made.expiresAt, caller.timeZone),
        };
      },
    }),
    route({
      method: 'get',
      path: '/accounts',
      roles: roles.readers,
      tag,
      summary: "The account state of the company's hosts: invited (a set-password link is live) or active",
      response: z.object({
        accounts: z.array(z.object({ hostId: z.string(), state: z.enum(['invited', 'active']) })),
      }),
      errors: [],
      handle: async ({ caller }) => ({ accounts: await accountStates(ctx, caller.companyId) }),
    }),
    route({
      method: 'get',
      path: '/account/sign-in-settings',
      tag,
      summary: "How the company's people sign in (the OIDC client secret write-only)",
      response: signInSettingsObject,
      errors: [],
      handle: async ({ caller }) => signInSettingsAnswer(await signInSettings(ctx, caller.companyId)),
    }),
    route({
      method: 'put',
      path: '/account/sign-in-settings',
      tag,
      summary: "Change how the company's people sign in",
      body: signInSettingsInput,
      response: signInSettingsObject,
      errors: ['INVALID_PARAMETER', 'INVALID_URL', 'DESTINATION_REFUSED'],
      handle: async ({ caller, body }) => signInSettingsAnswer(await saveSignInSettings(ctx, caller, body)),
    }),
  ];
}

/** A public route that e-mails a link of `purpose` to the address: answered 202 whatever the address. */
function mailedLinkRoute(ctx: Context, path: string, summary: string, purpose: 'reset' | 'link'): RouteSpec {
  return route({
    method: 'post',
    path,
    access: 'public',
    tag,
    summary: `${summary} (answered 202 whatever the address)`,
    body: z.object({ email: email(), companyId: z.string().max(100).optional() }),
    fieldCodes: { email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' } },
    response: acceptedSchema,
    errors: ['MISSING_EMAIL', 'INVALID_EMAIL', 'INVALID_PARAMETER'],
    handle: async ({ res, body }) => {
      await mailPeople(ctx, body.email, body.companyId, purpose);
      res.status(202);
      return { accepted: true };
    },
  });
}

/**
 * Queues a reset or sign-in link to the people with an e-mail: only where the service has a public address (a link
 * must reach the console), and a sign-in link only to a company that signs in by link. Whatever it finds, the
 * caller answers the same.
 */
async function mailPeople(ctx: Context, to: string, companyId: string | undefined, purpose: 'reset' | 'link') {
  for (const person of await peopleByEmail(ctx, to, companyId)) {
    if (purpose === 'link' && person.signIn !== 'link') continue;
    if (!(await publicAddress(ctx, person.companyId))) continue;
    await queueAccountMail(ctx, person, purpose);
  }
}
