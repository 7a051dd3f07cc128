import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { prepared } from '../store/rows.ts';
import { isKioskOfCompany } from '../sync/role.ts';
import { publicAddress } from './address.ts';

/**
 * What a link in a message lets its holder do, on a page outside the API (docs/api.md, "Public pages"):
 * - `decide`: allow or deny a visit waiting for its host (single-use);
 * - `register`: an invitee answers the company's questions before the visit;
 * - `pass`: the visitor's live gate code, on their phone.
 */
export const linkPurposes = ['decide', 'register', 'pass'] as const;
export type LinkPurpose = (typeof linkPurposes)[number];

/** What a link stands for: signed with the company's key, so the page trusts it without a stored row. */
export interface LinkClaims {
  companyId: string;
  purpose: LinkPurpose;
  /** The visit or the invitee the link is about. */
  subjectId: string;
  /** Unix milliseconds; the page refuses the link after it. */
  expiresAt: number;
  /** Random: tells apart two links to the same subject (and names a used one). */
  nonce: string;
}

const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

const signature = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

/** The token of a link: the claims, then their HMAC-SHA256 under the company's link key, both base64url. */
export function signLink(key: Buffer, claims: LinkClaims): string {
  const payload = b64(
    JSON.stringify({
      c: claims.companyId,
      p: claims.purpose,
      s: claims.subjectId,
      e: claims.expiresAt,
      n: claims.nonce,
    }),
  );
  return `${payload}.${b64(signature(key, payload))}`;
}

/** The company a token claims, read before its signature can be checked (the key is the company's). */
export function claimedCompany(token: string): string | undefined {
  const claims = decodeClaims(token.split('.')[0] ?? '');
  return claims?.companyId;
}

function decodeClaims(payload: string): LinkClaims | undefined {
  try {
    const raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { c, p, s, e, n } = raw;
    if (typeof c !== 'string' || typeof s !== 'string' || typeof n !== 'string' || typeof e !== 'number') return;
    if (!(linkPurposes as readonly unknown[]).includes(p)) return;
    return { companyId: c, purpose: p as LinkPurpose, subjectId: s, expiresAt: e, nonce: n };
  } catch {
    return undefined;
  }
}

/**
 * The claims of a token whose signature holds under `key` and which has not expired at `now`; otherwise why not:
 * `LINK_INVALID` (altered, forged, another purpose) or `LINK_EXPIRED`.
 */
export function verifyLink(
  key: Buffer,
  token: string,
  purpose: LinkPurpose,
  now: number,
): LinkClaims | 'LINK_INVALID' | 'LINK_EXPIRED' {
  const [payload = '', sig = '', extra] = token.split('.');
  if (extra !== undefined || payload === '' || sig === '') return 'LINK_INVALID';
  const expected = signature(key, payload);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'LINK_INVALID';
  const claims = decodeClaims(payload);
  if (!claims || claims.purpose !== purpose) return 'LINK_INVALID';
  return claims.expiresAt <= now ? 'LINK_EXPIRED' : claims;
}

const linkKeyBytes = 32;

/** The company's link key, opened; undefined where none was made (settings never saved here or at its hub). */
export async function linkKey(ctx: Pick<Context, 'db' | 'secrets'>, companyId: string): Promise<Buffer | undefined> {
  const row = (await prepared(ctx.db, 'SELECT linkKey FROM notification_settings WHERE companyId = ?').get(
    companyId,
  )) as { linkKey: string | null } | undefined;
  return row?.linkKey ? Buffer.from(ctx.secrets.open(row.linkKey), 'base64url') : undefined;
}

/**
 * Gives a link key to each company whose settings have none, where this service owns the company's settings (a
 * kiosk of a hub gets the hub's key with the settings). Run at start: settings saved before links existed.
 */
export async function ensureLinkKeys(ctx: Pick<Context, 'db' | 'secrets' | 'random' | 'runtime'>): Promise<void> {
  const missing = (await prepared(
    ctx.db,
    'SELECT companyId FROM notification_settings WHERE linkKey IS NULL',
  ).all()) as {
    companyId: string;
  }[];
  for (const { companyId } of missing) {
    if (await isKioskOfCompany(ctx, companyId)) continue;
    await prepared(ctx.db, 'UPDATE notification_settings SET linkKey = ? WHERE companyId = ? AND linkKey IS NULL').run(
      newLinkKey(ctx),
      companyId,
    );
  }
}

/** A new key, sealed for storage. */
export const newLinkKey = (ctx: Pick<Context, 'secrets' | 'random'>) =>
  ctx.secrets.seal(ctx.random.bytes(linkKeyBytes).toString('base64url'));

export interface PublicLinkInput {
  purpose: LinkPurpose;
  subjectId: string;
  expiresAt: number;
}

/**
 * The address of a page for a link's holder, `<public address>/p/<purpose>/<token>`; undefined when this service
 * has no public address (the message then carries no link) or the company no link key.
 */
export async function publicLink(
  ctx: Pick<Context, 'db' | 'secrets' | 'random' | 'runtime'>,
  companyId: string,
  input: PublicLinkInput,
): Promise<string | undefined> {
  const base = await publicAddress(ctx, companyId);
  const key = base === undefined ? undefined : await linkKey(ctx, companyId);
  if (base === undefined || key === undefined) return undefined;
  const token = signLink(key, { companyId, ...input, nonce: ctx.random.bytes(9).toString('base64url') });
  return `${base}/p/${input.purpose}/${token}`;
}

/**
 * The claims of a token a page received, checked with its company's key: a token that does not hold is refused as
 * a 404 (`LINK_INVALID`: a page never tells a guesser which part was wrong), an expired one 403 `LINK_EXPIRED`.
 */
export async function openLink(
  ctx: Pick<Context, 'db' | 'secrets' | 'clock'>,
  token: string,
  purpose: LinkPurpose,
): Promise<LinkClaims> {
  const companyId = claimedCompany(token);
  const key = companyId === undefined ? undefined : await linkKey(ctx, companyId);
  const claims = key ? verifyLink(key, token, purpose, ctx.clock.now()) : 'LINK_INVALID';
  if (typeof claims === 'string') throw new ApiError(claims);
  return claims;
}

/** How `used_links` names a link: its purpose and nonce. */
const usedLinkId = (claims: LinkClaims) => `${claims.purpose}:${claims.nonce}`;

/** Whether a single-use link was used already (a page says so before offering its button). */
export async function linkWasUsed(ctx: Pick<Context, 'db'>, claims: LinkClaims): Promise<boolean> {
  return (
    (await prepared(ctx.db, 'SELECT 1 FROM used_links WHERE companyId = ? AND linkId = ?').get(
      claims.companyId,
      usedLinkId(claims),
    )) !== undefined
  );
}

/**
 * Marks a single-use link used, in the caller's transaction: false when it was used already (by this request's
 * twin, or another process of the hub: the primary key decides).
 */
export async function consumeLink(ctx: Pick<Context, 'db' | 'clock'>, claims: LinkClaims): Promise<boolean> {
  const result = await prepared(
    ctx.db,
    'INSERT INTO used_links (companyId, linkId, usedAt) VALUES (?, ?, ?) ON CONFLICT (companyId, linkId) DO NOTHING',
  ).run(claims.companyId, usedLinkId(claims), ctx.clock.now());
  return result.changes > 0;
}
