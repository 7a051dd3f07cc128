import { hash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Context } from '../context.ts';
import { type Caller, callerRoleOf } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { hexId } from '../rules/ids.ts';
import { defaultTimeZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';

/**
 * Console sessions (docs/console.md, "Signing in and accounts"; docs/security.md, "Accounts and sessions"): a random token in
 * the HttpOnly cookie `portaria_session`, of which the database keeps only the SHA-256. A session ends after
 * `idleMs` without a request and `maxMs` after sign-in in any case; its person's role is read on every request, so
 * a role change applies at once, and a deactivated or deleted person's sessions end (accounts/events.ts).
 */
export const sessionLimits = { idleMs: 12 * 3_600_000, maxMs: 30 * 86_400_000 } as const;

export const sessionCookie = 'portaria_session';

/** A session's last request is written at most this often. */
const lastSeenWriteMs = 60_000;

export const tokenHash = (token: string): string => hash('sha256', token, 'hex');

/** The CSRF token of a session: derived from its secret token, so only the holder of the cookie can know it. */
export const csrfTokenOf = (token: string): string =>
  hash('sha256', `csrf\n${token}`, 'buffer').subarray(0, 24).toString('base64url');

export function csrfMatches(token: string, presented: string | undefined): boolean {
  const expected = Buffer.from(csrfTokenOf(token));
  const given = Buffer.from(presented ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The session token a request's Cookie header carries, if any. */
export function sessionTokenOf(req: Pick<Request, 'headers'>): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === sessionCookie) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** Sets (or, with token undefined, clears) the session cookie; `Secure` when the request came over TLS. */
export function setSessionCookie(req: Request, res: Response, token: string | undefined): void {
  const attributes = ['HttpOnly', 'SameSite=Strict', 'Path=/', ...(req.secure ? ['Secure'] : [])];
  const value = token ?? '';
  const age = token === undefined ? 0 : Math.floor(sessionLimits.maxMs / 1000);
  res.append('Set-Cookie', [`${sessionCookie}=${value}`, `Max-Age=${age}`, ...attributes].join('; '));
}

export interface NewSession {
  id: string;
  token: string;
}

/** Starts a session for a person; call inside the sign-in's transaction. */
export async function createSession(
  ctx: Pick<Context, 'db' | 'clock' | 'random'>,
  person: { companyId: string; hostId: string },
  req: Pick<Request, 'ip' | 'headers'>,
): Promise<NewSession> {
  const id = hexId(ctx.random, 12);
  const token = ctx.random.bytes(32).toString('base64url');
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO account_sessions (id, tokenHash, companyId, hostId, createdAt, lastSeenAt, expiresAt, userAgent,
       address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    tokenHash(token),
    person.companyId,
    person.hostId,
    now,
    now,
    now + sessionLimits.maxMs,
    (req.headers['user-agent'] ?? '').slice(0, 300) || null,
    req.ip ?? null,
  );
  // Ended sessions say nothing more: each sign-in clears them, so the table holds the live ones.
  await prepared(ctx.db, 'DELETE FROM account_sessions WHERE expiresAt <= ? OR lastSeenAt <= ?').run(
    now,
    now - sessionLimits.idleMs,
  );
  return { id, token };
}

/** The credential id a session acts with in the audit log: distinct from API keys' ids. */
export const sessionCredentialId = (sessionId: string) => `session:${sessionId}`;

interface LiveSessionRow {
  id: string;
  companyId: string;
  hostId: string;
  lastSeenAt: number;
  expiresAt: number;
  role: string;
  timezone: string | null;
  lang: string;
}

/**
 * The caller a session token stands for, in one query: its person must still be an active host of a live
 * company, and the session within its idle and absolute limits.
 */
export async function sessionCaller(ctx: Pick<Context, 'db' | 'clock'>, token: string): Promise<Caller | undefined> {
  const row = (await prepared(
    ctx.db,
    `SELECT s.id, s.companyId, s.hostId, s.lastSeenAt, s.expiresAt, h.role, c.timezone, c.lang
     FROM account_sessions s
     JOIN hosts h ON h.id = s.hostId AND h.companyId = s.companyId AND h.deletedAt IS NULL AND h.isActive = 1
     JOIN companies c ON c.id = s.companyId AND c.deletedAt IS NULL
     WHERE s.tokenHash = ?`,
  ).get(tokenHash(token))) as LiveSessionRow | undefined;
  const now = ctx.clock.now();
  if (!row || row.expiresAt <= now || row.lastSeenAt + sessionLimits.idleMs <= now) return undefined;
  if (now - row.lastSeenAt >= lastSeenWriteMs) {
    await prepared(ctx.db, 'UPDATE account_sessions SET lastSeenAt = ? WHERE id = ?').run(now, row.id);
  }
  return {
    companyId: row.companyId,
    timeZone: row.timezone ?? defaultTimeZone(),
    lang: row.lang,
    role: callerRoleOf(row.role),
    credentialId: sessionCredentialId(row.id),
    hostId: row.hostId,
  };
}

/** The session id of a caller that is a console session. */
export const sessionIdOf = (caller: Caller): string | undefined =>
  caller.credentialId.startsWith('session:') ? caller.credentialId.slice('session:'.length) : undefined;

/**
 * Whether a session is still one: not ended, within its idle and absolute limits, its person still an active host.
 * Asked by a held-open stream at its heartbeats (docs/api.md, "Console events"), so it does not count as use: a tab
 * left open is not a person at work, and its session still idles out.
 */
export async function sessionLive(ctx: Pick<Context, 'db' | 'clock'>, id: string): Promise<boolean> {
  const now = ctx.clock.now();
  const row = await prepared(
    ctx.db,
    `SELECT 1 AS live FROM account_sessions s
     JOIN hosts h ON h.id = s.hostId AND h.companyId = s.companyId AND h.deletedAt IS NULL AND h.isActive = 1
     WHERE s.id = ? AND s.expiresAt > ? AND s.lastSeenAt > ?`,
  ).get(id, now, now - sessionLimits.idleMs);
  return row !== undefined;
}

export interface SessionRow {
  id: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  userAgent: string | null;
  address: string | null;
}

/** A person's live sessions, the latest used first. */
export async function personSessions(ctx: Pick<Context, 'db' | 'clock'>, caller: Caller): Promise<SessionRow[]> {
  const now = ctx.clock.now();
  return (await prepared(
    ctx.db,
    `SELECT id, createdAt, lastSeenAt, expiresAt, userAgent, address FROM account_sessions
     WHERE companyId = ? AND hostId = ? AND expiresAt > ? AND lastSeenAt > ? ORDER BY lastSeenAt DESC, id`,
  ).all(caller.companyId, caller.hostId, now, now - sessionLimits.idleMs)) as SessionRow[];
}

/** Ends one of a person's sessions; false when they have none of that id. */
export async function endSession(ctx: Pick<Context, 'db'>, caller: Caller, id: string): Promise<boolean> {
  const result = await prepared(
    ctx.db,
    'DELETE FROM account_sessions WHERE id = ? AND companyId = ? AND hostId = ?',
  ).run(id, caller.companyId, caller.hostId);
  return result.changes > 0;
}

/** Ends every session of a person but `keep` (a password changed or reset: the other devices sign in again). */
export async function endSessionsOf(
  ctx: Pick<Context, 'db'>,
  person: { companyId: string; hostId: string },
  keep?: string,
): Promise<void> {
  await prepared(ctx.db, 'DELETE FROM account_sessions WHERE companyId = ? AND hostId = ? AND id <> ?').run(
    person.companyId,
    person.hostId,
    keep ?? '',
  );
}

/** Methods that change nothing: the only ones a session's request may make without its CSRF token. */
const safeMethods = new Set(['GET', 'HEAD']);

/**
 * The caller a request's session cookie stands for (`authenticate`'s `findSession`), undefined without a live
 * session. A request that would change something must send the session's CSRF token in `X-CSRF-Token`, else it
 * is refused 403 INVALID_CSRF_TOKEN: a page elsewhere can make a browser send the cookie, never read the token.
 */
export function sessionFromCookie(ctx: Pick<Context, 'db' | 'clock'>) {
  return async (req: Request): Promise<Caller | undefined> => {
    const token = sessionTokenOf(req);
    if (!token) return undefined;
    const caller = await sessionCaller(ctx, token);
    if (!caller) return undefined;
    const presented = req.headers['x-csrf-token'];
    if (!safeMethods.has(req.method) && !csrfMatches(token, typeof presented === 'string' ? presented : undefined)) {
      throw new ApiError('INVALID_CSRF_TOKEN');
    }
    return caller;
  };
}
