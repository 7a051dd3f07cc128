import type { Request, Response } from 'express';
import type * as OpenId from 'openid-client';
import { type Context, inTransaction, runtimePart } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { destinationPolicy } from '../outgoing/policy.ts';
import { sendRequest } from '../outgoing/request.ts';
import { publicAddress } from '../public/address.ts';
import { createSession, setSessionCookie } from './sessions.ts';
import { type SignInSettings, signInSettings } from './settings.ts';
import { ensureAccount, peopleByEmail } from './store.ts';

/*
 * Single sign-on with the company's OpenID Connect provider (docs/console.md, "Signing in and accounts"; docs/security.md, "Accounts and sessions"): the authorization
 * code flow with PKCE, state and nonce, by openid-client. Every request to the provider goes through the device's
 * destination policy (outgoing/request.ts). The provider's verified e-mail must be an active host of the company:
 * single sign-on signs people in, it never makes accounts.
 */

const flowCookie = 'portaria_oidc';
/** The time a person has at the provider between leaving and coming back. */
const flowMaxMs = 10 * 60_000;
/** A provider's discovered configuration is kept this long (its keys rotate; its endpoints seldom move). */
const discoveryMs = 10 * 60_000;
const providerDeadlineMs = 10_000;

/** The sign-in in progress, sealed into a short-lived cookie: nothing of it is stored. */
interface Flow {
  companyId: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  at: number;
}

/** A headers object of Node's (values may be lists) as the Fetch API's. */
function fetchHeaders(headers: Record<string, string | string[] | undefined>): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, one);
  }
  return out;
}

/** The Fetch API openid-client calls, made of the service's own outgoing requests under the destination policy. */
function policedFetch(ctx: Pick<Context, 'db' | 'runtime'>) {
  return async (url: string, options: { method: string; headers: Record<string, string>; body?: unknown }) => {
    const answer = await sendRequest(await destinationPolicy(ctx), {
      url,
      method: options.method === 'POST' ? 'POST' : 'GET',
      headers: options.headers,
      ...(typeof options.body === 'string'
        ? { body: options.body }
        : options.body instanceof URLSearchParams
          ? { body: options.body.toString() }
          : {}),
      deadlineMs: providerDeadlineMs,
      maxResponseBytes: 1_000_000,
    });
    return new Response(answer.status === 204 ? null : answer.body, {
      status: answer.status,
      headers: fetchHeaders(answer.headers),
    });
  };
}

interface Discovered {
  key: string;
  at: number;
  config: OpenId.Configuration;
}

/** The provider's configuration for a company's settings, discovered once per `discoveryMs`. */
async function providerOf(ctx: Context, companyId: string, settings: SignInSettings) {
  const client = await import('openid-client');
  const cache = runtimePart(ctx, 'accounts.oidc', () => new Map<string, Discovered>());
  const key = [settings.oidcIssuer, settings.oidcClientId, settings.oidcClientSecret].join('\n');
  const cached = cache.get(companyId);
  if (cached && cached.key === key && ctx.clock.now() - cached.at < discoveryMs)
    return { client, config: cached.config };
  const insecure = new URL(settings.oidcIssuer).protocol === 'http:';
  const config = await client.discovery(
    new URL(settings.oidcIssuer),
    settings.oidcClientId,
    settings.oidcClientSecret || undefined,
    settings.oidcClientSecret ? client.ClientSecretBasic(settings.oidcClientSecret) : client.None(),
    {
      [client.customFetch]: policedFetch(ctx) as unknown as OpenId.CustomFetch,
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
  cache.set(companyId, { key, at: ctx.clock.now(), config });
  return { client, config };
}

/** Where the provider sends the person back: under the service's public address, else the address they used. */
async function redirectUriOf(ctx: Context, req: Request, companyId: string): Promise<string> {
  const base = (await publicAddress(ctx, companyId)) ?? `${req.protocol}://${req.get('host')}`;
  return `${base}/v1/account/oidc/callback`;
}

function setFlowCookie(req: Request, res: Response, value: string | undefined): void {
  const attributes = ['HttpOnly', 'SameSite=Lax', 'Path=/v1/account/oidc', ...(req.secure ? ['Secure'] : [])];
  const age = value === undefined ? 0 : Math.floor(flowMaxMs / 1000);
  res.append('Set-Cookie', [`${flowCookie}=${value ?? ''}`, `Max-Age=${age}`, ...attributes].join('; '));
}

function flowOf(ctx: Pick<Context, 'secrets' | 'clock'>, req: Request): Flow | undefined {
  const raw = /(?:^|;\s*)portaria_oidc=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (!raw) return undefined;
  try {
    const flow = JSON.parse(ctx.secrets.open(decodeURIComponent(raw))) as Flow;
    return ctx.clock.now() - flow.at < flowMaxMs ? flow : undefined;
  } catch {
    return undefined;
  }
}

/** Back to signing in, saying single sign-on failed; why goes to the log only. */
function refuse(ctx: Pick<Context, 'log'>, res: Response, reason: string, companyId: string | undefined): void {
  ctx.log.warn({ companyId, reason }, 'single sign-on refused');
  const company = companyId ? `company=${encodeURIComponent(companyId)}&` : '';
  res.redirect(302, `/console/sign-in?${company}sso=failed`);
}

/**
 * `GET /v1/account/oidc/start`: sends the person to the company's provider (302), the flow in a sealed cookie; a
 * provider that cannot be reached sends them back to signing in.
 */
export async function startSingleSignOn(ctx: Context, req: Request, res: Response, companyId: string): Promise<void> {
  const settings = await signInSettings(ctx, companyId);
  if (!settings.oidcEnabled || !settings.oidcIssuer || !settings.oidcClientId) throw new ApiError('NOT_FOUND');
  let provider: Awaited<ReturnType<typeof providerOf>>;
  try {
    provider = await providerOf(ctx, companyId, settings);
  } catch (error) {
    return refuse(
      ctx,
      res,
      `the provider's configuration: ${error instanceof Error ? error.message : error}`,
      companyId,
    );
  }
  const { client, config } = provider;
  const verifier = client.randomPKCECodeVerifier();
  const flow: Flow = {
    companyId,
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier,
    redirectUri: await redirectUriOf(ctx, req, companyId),
    at: ctx.clock.now(),
  };
  const target = client.buildAuthorizationUrl(config, {
    redirect_uri: flow.redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  setFlowCookie(req, res, encodeURIComponent(ctx.secrets.seal(JSON.stringify(flow))));
  res.redirect(302, target.href);
}

/**
 * `GET /v1/account/oidc/callback`: checks the provider's answer against the flow (state, nonce, PKCE, the ID
 * token's signature), and signs in the active host of the company with the provider's verified e-mail; then to
 * `/console`. Anything else goes back to signing in, `?sso=failed`, with the reason in the log only.
 */
export async function finishSingleSignOn(ctx: Context, req: Request, res: Response): Promise<void> {
  const flow = flowOf(ctx, req);
  setFlowCookie(req, res, undefined);
  const failed = (reason: string, companyId?: string) => refuse(ctx, res, reason, companyId);
  if (!flow) return failed('no sign-in in progress (or it took longer than 10 minutes)');
  try {
    const settings = await signInSettings(ctx, flow.companyId);
    if (!settings.oidcEnabled) return failed('single sign-on is off', flow.companyId);
    const { client, config } = await providerOf(ctx, flow.companyId, settings);
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?'));
    const tokens = await client.authorizationCodeGrant(config, new URL(`${flow.redirectUri}${query}`), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return failed('the provider gave no ID token', flow.companyId);
    // A provider that follows the standard to the letter gives the e-mail at its UserInfo endpoint, not in the ID token.
    const claims =
      typeof idClaims.email === 'string'
        ? idClaims
        : await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    if (!email || claims.email_verified !== true) return failed('the provider gave no verified e-mail', flow.companyId);
    const person = (await peopleByEmail(ctx, email, flow.companyId))[0];
    if (!person) return failed('no active host of the company has this e-mail', flow.companyId);
    const session = await inTransaction(ctx, async () => {
      await ensureAccount(ctx, person);
      return await createSession(ctx, person, req);
    });
    setSessionCookie(req, res, session.token);
    res.redirect(302, '/console');
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error), flow.companyId);
  }
}
