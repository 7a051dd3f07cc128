import { z } from 'zod';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { bool, text } from '../http/fields.ts';
import { requireAllowedDestination } from '../outgoing/policy.ts';
import { prepared } from '../store/rows.ts';

/**
 * How a company's people sign in to the console (docs/console.md, "Signing in and accounts"): with a password, or
 * by a link e-mailed each time (`link`); and, besides either, single sign-on with the company's OpenID Connect
 * provider when it is enabled. The client secret is sealed at rest and never answered (write-only).
 */
export const signInMethods = ['password', 'link'] as const;

export interface SignInSettings {
  signIn: (typeof signInMethods)[number];
  oidcEnabled: boolean;
  oidcIssuer: string;
  oidcClientId: string;
  oidcClientSecret: string;
  oidcName: string;
}

const defaults: SignInSettings = {
  signIn: 'password',
  oidcEnabled: false,
  oidcIssuer: '',
  oidcClientId: '',
  oidcClientSecret: '',
  oidcName: '',
};

/** A company's sign-in settings, the secret opened (defaults when it saved none). */
export async function signInSettings(ctx: Pick<Context, 'db' | 'secrets'>, companyId: string): Promise<SignInSettings> {
  const row = (await prepared(
    ctx.db,
    `SELECT signIn, oidcEnabled, oidcIssuer, oidcClientId, oidcClientSecret, oidcName FROM account_settings
     WHERE companyId = ?`,
  ).get(companyId)) as (Omit<SignInSettings, 'oidcEnabled'> & { oidcEnabled: number }) | undefined;
  if (!row) return defaults;
  return {
    ...row,
    oidcEnabled: row.oidcEnabled === 1,
    oidcClientSecret: row.oidcClientSecret ? ctx.secrets.open(row.oidcClientSecret) : '',
  };
}

export const signInSettingsInput = z
  .object({
    signIn: z.enum(signInMethods),
    oidc: z
      .object({
        enabled: bool(),
        issuer: text(500).trim().url().or(z.literal('')),
        clientId: text(300).trim(),
        /** Omitted: kept as it is; '' removes it. */
        clientSecret: text(500),
        /** The provider's name on the sign-in button ("Sign in with <name>"). */
        name: text(60).trim(),
      })
      .partial(),
  })
  .partial();
export type SignInSettingsInput = z.output<typeof signInSettingsInput>;

export const signInSettingsObject = z.object({
  signIn: z.enum(signInMethods),
  oidc: z.object({
    enabled: z.boolean(),
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.boolean(),
    name: z.string(),
  }),
});

/** The settings as the API answers them: the secret only as whether one is set. */
export const signInSettingsAnswer = (settings: SignInSettings): z.output<typeof signInSettingsObject> => ({
  signIn: settings.signIn,
  oidc: {
    enabled: settings.oidcEnabled,
    issuer: settings.oidcIssuer,
    clientId: settings.oidcClientId,
    clientSecretSet: settings.oidcClientSecret !== '',
    name: settings.oidcName,
  },
});

/** Plain http only for a provider on this machine (a test's, a development setup's); anywhere else https. */
export function issuerAllowed(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

/** Checks an issuer before it is saved: https (or a loopback http), and a destination the policy allows. */
async function checkIssuer(ctx: Pick<Context, 'db' | 'runtime'>, issuer: string): Promise<void> {
  if (!issuerAllowed(issuer)) throw new ApiError('INVALID_URL', { field: 'oidc.issuer' });
  await requireAllowedDestination(ctx, 'oidc.issuer', { url: issuer });
}

/**
 * Saves what the input changes of a company's sign-in settings. Single sign-on on needs an issuer and a client id;
 * a new issuer is checked as every outgoing address is.
 */
export async function saveSignInSettings(
  ctx: Context,
  caller: Caller,
  input: SignInSettingsInput,
): Promise<SignInSettings> {
  return await inTransaction(ctx, async () => {
    const current = await signInSettings(ctx, caller.companyId);
    const oidc = input.oidc ?? {};
    const next: SignInSettings = {
      signIn: input.signIn ?? current.signIn,
      oidcEnabled: oidc.enabled ?? current.oidcEnabled,
      oidcIssuer: oidc.issuer ?? current.oidcIssuer,
      oidcClientId: oidc.clientId ?? current.oidcClientId,
      oidcClientSecret: oidc.clientSecret ?? current.oidcClientSecret,
      oidcName: oidc.name ?? current.oidcName,
    };
    if (next.oidcEnabled && (!next.oidcIssuer || !next.oidcClientId)) {
      throw new ApiError('INVALID_PARAMETER', { field: next.oidcIssuer ? 'oidc.clientId' : 'oidc.issuer' });
    }
    if (next.oidcIssuer && next.oidcIssuer !== current.oidcIssuer) await checkIssuer(ctx, next.oidcIssuer);
    await prepared(
      ctx.db,
      `INSERT INTO account_settings (companyId, signIn, oidcEnabled, oidcIssuer, oidcClientId, oidcClientSecret,
         oidcName, updatedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (companyId) DO UPDATE SET signIn = excluded.signIn, oidcEnabled = excluded.oidcEnabled,
         oidcIssuer = excluded.oidcIssuer, oidcClientId = excluded.oidcClientId,
         oidcClientSecret = excluded.oidcClientSecret, oidcName = excluded.oidcName, updatedAt = excluded.updatedAt`,
    ).run(
      caller.companyId,
      next.signIn,
      next.oidcEnabled ? 1 : 0,
      next.oidcIssuer,
      next.oidcClientId,
      next.oidcClientSecret ? ctx.secrets.seal(next.oidcClientSecret) : '',
      next.oidcName,
      ctx.clock.now(),
    );
    return next;
  });
}
