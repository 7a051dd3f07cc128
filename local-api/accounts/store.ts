import type { Request } from 'express';
import { deviceOwnerActor, recordAudit } from '../audit/store.ts';
import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { type Caller, deviceOwnerCredentialId } from '../credentials/caller.ts';
import { deviceEnrolment } from '../device.ts';
import { createHost, updateHost } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import { defaultTimeZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { isKioskOfCompany } from '../sync/role.ts';
import { clearFailures, recordFailure, signInSubjects, waitFor } from './lockout.ts';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.ts';
import { createSession, csrfTokenOf, endSessionsOf, type NewSession, sessionIdOf } from './sessions.ts';
import { signInSettings } from './settings.ts';
import { createToken, spendPasswordTokens, useToken } from './tokens.ts';

/** A person who may sign in: an active host of a live company. */
export interface Person {
  companyId: string;
  hostId: string;
}

interface Candidate extends Person {
  passwordHash: string | null;
  signIn: string | null;
}

/**
 * The active hosts with an e-mail (compared without case), of one company or of every company of the service (a
 * hub's people may be hosts of several), the oldest first.
 */
export async function peopleByEmail(
  ctx: Pick<Context, 'db'>,
  email: string,
  companyId: string | undefined,
): Promise<Candidate[]> {
  return (await prepared(
    ctx.db,
    `SELECT h.companyId, h.id AS hostId, a.passwordHash, s.signIn FROM hosts h
     JOIN companies c ON c.id = h.companyId AND c.deletedAt IS NULL
     LEFT JOIN accounts a ON a.hostId = h.id AND a.companyId = h.companyId
     LEFT JOIN account_settings s ON s.companyId = h.companyId
     WHERE lower(h.email) = lower(?) AND h.deletedAt IS NULL AND h.isActive = 1 AND (h.companyId = ? OR ? = '')
     ORDER BY h.createdAt, h.id LIMIT 10`,
  ).all(email, companyId ?? '', companyId ?? '')) as Candidate[];
}

/** Throws 429 TOO_MANY_REQUESTS (with Retry-After) while a sign-in's subjects must wait. */
async function refuseWhileWaiting(ctx: Context, res: SignInResponse, subjects: readonly string[]): Promise<void> {
  const wait = await waitFor(ctx, subjects);
  if (wait > 0) {
    const seconds = Math.ceil(wait / 1000);
    res.setHeader('Retry-After', String(seconds));
    // In the body too: a page's script reads it to say how long to wait.
    throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: seconds });
  }
}

type SignInResponse = { setHeader(name: string, value: string): unknown };

/**
 * Signs in with an e-mail and password (docs/console.md, "Signing in and accounts"). Every way it can fail answers
 * INVALID_CREDENTIALS after the same argon2 work (an unknown e-mail is checked against a dummy hash), and counts
 * against the account and the source (lockout.ts). A company that signs in by link or single sign-on only refuses
 * passwords alike.
 */
export async function signInWithPassword(
  ctx: Context,
  req: Pick<Request, 'ip' | 'headers'>,
  res: SignInResponse,
  input: { email: string; password: string; companyId?: string | undefined },
): Promise<{ person: Person; session: NewSession }> {
  const subjects = signInSubjects(input.email.toLowerCase(), req.ip);
  const names = subjects.map(([subject]) => subject);
  await refuseWhileWaiting(ctx, res, names);
  const candidates = (await peopleByEmail(ctx, input.email, input.companyId)).filter(
    (candidate) => candidate.passwordHash && (candidate.signIn ?? 'password') === 'password',
  );
  let person: Person | undefined;
  if (candidates.length === 0) await passwordMatches(undefined, input.password);
  for (const candidate of candidates) {
    if (await passwordMatches(candidate.passwordHash, input.password)) {
      person = { companyId: candidate.companyId, hostId: candidate.hostId };
      break;
    }
  }
  if (!person) {
    await recordFailure(ctx, subjects);
    throw new ApiError('INVALID_CREDENTIALS');
  }
  const signedIn = person;
  return await inTransaction(ctx, async () => {
    await clearFailures(ctx, names[0] as string);
    return { person: signedIn, session: await createSession(ctx, signedIn, req) };
  });
}

/** Stores a person's password hash (a first one, or a new one); call inside the write. */
async function storePassword(ctx: Context, person: Person, passwordHash: string): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO accounts (hostId, companyId, passwordHash, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (hostId) DO UPDATE SET passwordHash = excluded.passwordHash, updatedAt = excluded.updatedAt`,
  ).run(person.hostId, person.companyId, passwordHash, now, now);
  await spendPasswordTokens(ctx, person);
}

/**
 * Records that a person has an account, for one who signs in without a password (by link, by single sign-on): the
 * company then has someone who can sign in, and the person's account state is `active`.
 */
export async function ensureAccount(ctx: Pick<Context, 'db' | 'clock'>, person: Person): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO accounts (hostId, companyId, passwordHash, createdAt, updatedAt) VALUES (?, ?, NULL, ?, ?)
     ON CONFLICT (hostId) DO NOTHING`,
  ).run(person.hostId, person.companyId, now, now);
}

/** Refuses a new password that breaks the rules (passwords.ts), WEAK_PASSWORD with the reason. */
function checkNewPassword(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new ApiError('WEAK_PASSWORD', { reason: problem });
}

async function emailOf(ctx: Pick<Context, 'db'>, person: Person): Promise<string> {
  const row = (await prepared(ctx.db, 'SELECT email FROM hosts WHERE id = ? AND companyId = ?').get(
    person.hostId,
    person.companyId,
  )) as { email: string } | undefined;
  return row?.email ?? '';
}

/**
 * Sets a password from a welcome or reset link and signs in: the link is spent, and so are the person's other
 * such links; every other session of the person ends (a reset is often because one was lost).
 */
export async function setPasswordWithToken(
  ctx: Context,
  req: Pick<Request, 'ip' | 'headers'>,
  token: string,
  password: string,
): Promise<{ person: Person; session: NewSession }> {
  // The hash first, outside the transaction: it takes a while, and a link it turns out not to work cost nothing.
  const passwordHash = await hashPassword(password);
  return await inTransaction(ctx, async () => {
    const used = await useToken(ctx, token, ['welcome', 'reset']);
    checkNewPassword(password, used.email);
    const person = { companyId: used.companyId, hostId: used.hostId };
    await storePassword(ctx, person, passwordHash);
    await endSessionsOf(ctx, person);
    return { person, session: await createSession(ctx, person, req) };
  });
}

/** Signs in with a sign-in link (a company that signs in by link). */
export async function signInWithLink(
  ctx: Context,
  req: Pick<Request, 'ip' | 'headers'>,
  token: string,
): Promise<{ person: Person; session: NewSession }> {
  return await inTransaction(ctx, async () => {
    const used = await useToken(ctx, token, ['link']);
    const person = { companyId: used.companyId, hostId: used.hostId };
    await ensureAccount(ctx, person);
    return { person, session: await createSession(ctx, person, req) };
  });
}

/** Changes the signed-in person's password; their other sessions end, this one goes on. */
export async function changePassword(
  ctx: Context,
  req: Pick<Request, 'ip'>,
  res: SignInResponse,
  caller: Caller,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const person = personOf(caller);
  const email = await emailOf(ctx, person);
  const subjects = signInSubjects(email.toLowerCase(), req.ip);
  await refuseWhileWaiting(
    ctx,
    res,
    subjects.map(([subject]) => subject),
  );
  const current = (await prepared(ctx.db, 'SELECT passwordHash FROM accounts WHERE hostId = ? AND companyId = ?').get(
    person.hostId,
    person.companyId,
  )) as { passwordHash: string | null } | undefined;
  if (!(await passwordMatches(current?.passwordHash, input.currentPassword))) {
    await recordFailure(ctx, subjects);
    throw new ApiError('INVALID_CREDENTIALS');
  }
  checkNewPassword(input.newPassword, email);
  const passwordHash = await hashPassword(input.newPassword);
  await inTransaction(ctx, async () => {
    await storePassword(ctx, person, passwordHash);
    await endSessionsOf(ctx, person, sessionIdOf(caller));
  });
}

/** The person a console session acts for; other callers (API keys, the front desk's PIN) have none. */
export function personOf(caller: Caller): Person {
  if (!caller.hostId || !sessionIdOf(caller)) throw new ApiError('UNAUTHORIZED');
  return { companyId: caller.companyId, hostId: caller.hostId };
}

/** What `GET /v1/account/me` and every sign-in answer (docs/api.md, "Accounts"). */
export async function accountAnswer(ctx: Pick<Context, 'db'>, person: Person, sessionToken: string) {
  const row = (await prepared(
    ctx.db,
    `SELECT h.name, h.email, h.role, c.name AS companyName, c.lang, c.timezone, c.brandColor FROM hosts h
     JOIN companies c ON c.id = h.companyId WHERE h.id = ? AND h.companyId = ?`,
  ).get(person.hostId, person.companyId)) as
    | {
        name: string;
        email: string;
        role: string;
        companyName: string;
        lang: string;
        timezone: string | null;
        brandColor: string | null;
      }
    | undefined;
  if (!row) throw new ApiError('UNAUTHORIZED');
  return {
    account: {
      hostId: person.hostId,
      companyId: person.companyId,
      name: row.name,
      email: row.email,
      role: row.role,
      lang: row.lang,
    },
    company: {
      id: person.companyId,
      name: row.companyName,
      lang: row.lang,
      timeZone: row.timezone ?? defaultTimeZone(),
      brandColor: row.brandColor,
    },
    csrfToken: csrfTokenOf(sessionToken),
  };
}

/** Whether a company has someone who can sign in: an active host with an account. */
async function hasActiveAccount(ctx: Pick<Context, 'db'>, companyId: string): Promise<boolean> {
  return (
    (await prepared(
      ctx.db,
      `SELECT 1 FROM accounts a JOIN hosts h ON h.id = a.hostId AND h.companyId = a.companyId
       WHERE a.companyId = ? AND h.deletedAt IS NULL AND h.isActive = 1 LIMIT 1`,
    ).get(companyId)) !== undefined
  );
}

export type AccountState = 'invited' | 'active';

/**
 * The account state of the company's hosts that have one (docs/api.md, "Accounts"): `active` once they have an
 * account (a password set, or signed in by link or single sign-on), `invited` while a set-password link of theirs
 * is live. Hosts with neither are left out. One query.
 */
export async function accountStates(
  ctx: Pick<Context, 'db' | 'clock'>,
  companyId: string,
): Promise<{ hostId: string; state: AccountState }[]> {
  return (await prepared(
    ctx.db,
    `SELECT hostId, 'active' AS state FROM accounts WHERE companyId = ?
     UNION
     SELECT DISTINCT hostId, 'invited' AS state FROM account_tokens t
     WHERE t.companyId = ? AND t.purpose = 'welcome' AND t.usedAt IS NULL AND t.expiresAt > ?
       AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.hostId = t.hostId AND a.companyId = t.companyId)
     ORDER BY hostId`,
  ).all(companyId, companyId, ctx.clock.now())) as { hostId: string; state: AccountState }[];
}

/**
 * The company the device's console offers its first administrator account for: the enrolled company, while no one
 * of it has an account (docs/console.md, "Signing in and accounts"), unless the device is a kiosk of a hub.
 * Undefined otherwise.
 */
export async function firstAdminCompany(ctx: Context): Promise<{ id: string; name: string } | undefined> {
  const enrolled = await deviceEnrolment(ctx);
  if (!enrolled || (await hasActiveAccount(ctx, enrolled.companyId))) return undefined;
  // A kiosk of a hub has the hub's hosts: its people sign in at the hub.
  if (await isKioskOfCompany(ctx, enrolled.companyId)) return undefined;
  const row = (await prepared(ctx.db, 'SELECT id, name FROM companies WHERE id = ? AND deletedAt IS NULL').get(
    enrolled.companyId,
  )) as { id: string; name: string } | undefined;
  return row;
}

/**
 * Makes the first administrator of the enrolled company: an ADMIN host with a password, signed in. Refused
 * (FORBIDDEN) once the company has an account; the route lets only this machine ask.
 */
export async function createFirstAdmin(
  ctx: Context,
  req: Pick<Request, 'ip' | 'headers'>,
  input: { name: string; email: string; password: string },
): Promise<{ person: Person; session: NewSession }> {
  checkNewPassword(input.password, input.email);
  const passwordHash = await hashPassword(input.password);
  return await inTransaction(ctx, async () => {
    const company = await firstAdminCompany(ctx);
    if (!company) throw new ApiError('FORBIDDEN');
    const owner = await companyCaller(ctx, company.id);
    if (!owner) throw new ApiError('FORBIDDEN');
    const existing = (await peopleByEmail(ctx, input.email, company.id))[0];
    const hostId = existing
      ? (await updateHost(ctx, owner, existing.hostId, { role: 'ADMIN' })).id
      : (await createHost(ctx, owner, { name: input.name, email: input.email, role: 'ADMIN', isActive: true })).id;
    const person = { companyId: company.id, hostId };
    await storePassword(ctx, person, passwordHash);
    return { person, session: await createSession(ctx, person, req) };
  });
}

/**
 * The company a signed-out console signs in to, without `?company=`: the device's own where the service serves no
 * other, so telling it gives no company away; on a hub of several companies, none (whoever knows a company's id
 * names it).
 */
async function defaultCompany(ctx: Context): Promise<string | undefined> {
  const enrolled = await deviceEnrolment(ctx);
  if (!enrolled) return undefined;
  const others = await prepared(ctx.db, 'SELECT 1 FROM companies WHERE id <> ? AND deletedAt IS NULL LIMIT 1').get(
    enrolled.companyId,
  );
  return others === undefined ? enrolled.companyId : undefined;
}

/** The way a company's people sign in, for the signed-out console (no secret in it). */
export async function signInOptions(ctx: Context, companyId: string | undefined) {
  const id = companyId ?? (await defaultCompany(ctx));
  const company =
    id === undefined
      ? undefined
      : ((await prepared(ctx.db, 'SELECT id, name FROM companies WHERE id = ? AND deletedAt IS NULL').get(id)) as
          | { id: string; name: string }
          | undefined);
  const settings = company ? await signInSettings(ctx, company.id) : undefined;
  return {
    company: company ?? null,
    signIn: settings?.signIn ?? 'password',
    oidc: settings?.oidcEnabled ? { name: settings.oidcName || 'SSO' } : null,
  };
}

/**
 * A set-password link for the device owner to hand over (`portaria account-link`): for the company's active host
 * with the e-mail, made an ADMIN host first when the company has none of that e-mail, so the owner of a headless
 * hub can get in. Audited as the device owner's.
 */
export async function ownerAccountLink(
  ctx: Context,
  companyId: string,
  input: { email: string; name?: string | undefined },
): Promise<{ hostId: string; created: boolean; token: string; expiresAt: number }> {
  return await inTransaction(ctx, async () => {
    const company = await companyCaller(ctx, companyId);
    if (!company) throw new ApiError('NOT_FOUND');
    const owner: Caller = { ...company, credentialId: deviceOwnerCredentialId };
    const existing = (await peopleByEmail(ctx, input.email, companyId))[0];
    const hostId =
      existing?.hostId ??
      (
        await createHost(ctx, owner, {
          name: input.name ?? input.email.split('@')[0] ?? input.email,
          email: input.email,
          role: 'ADMIN',
          isActive: true,
        })
      ).id;
    const made = await createToken(ctx, { companyId, hostId }, 'welcome');
    await recordAudit(ctx, deviceOwnerActor(companyId), {
      action: 'account.link.created',
      objectType: 'host',
      objectId: hostId,
    });
    return { hostId, created: existing === undefined, ...made };
  });
}
