import type { Context } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { prepared } from '../store/rows.ts';
import { tokenHash } from './sessions.ts';

/**
 * The links of account e-mails (docs/console.md, "Signing in and accounts"): a random token, kept only as its
 * SHA-256, used once, within its lifetime. `welcome` sets a first password, `reset` a new one, `link` signs in.
 */
export const tokenPurposes = {
  welcome: { lifetimeMs: 7 * 86_400_000, path: 'welcome' },
  reset: { lifetimeMs: 3_600_000, path: 'reset' },
  link: { lifetimeMs: 15 * 60_000, path: 'link' },
} as const;
export type TokenPurpose = keyof typeof tokenPurposes;

/** The console page a token opens, under the service's public address (or a path, for the console to complete). */
export const consoleLink = (base: string, purpose: TokenPurpose, token: string): string =>
  `${base}/console/${tokenPurposes[purpose].path}/${token}`;

/** Makes a token for a person; call inside the write that calls for it. */
export async function createToken(
  ctx: Pick<Context, 'db' | 'clock' | 'random'>,
  person: { companyId: string; hostId: string },
  purpose: TokenPurpose,
): Promise<{ token: string; expiresAt: number }> {
  const token = ctx.random.bytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = now + tokenPurposes[purpose].lifetimeMs;
  await prepared(
    ctx.db,
    `INSERT INTO account_tokens (tokenHash, companyId, hostId, purpose, createdAt, expiresAt) VALUES (?, ?, ?, ?, ?, ?)`,
  ).run(tokenHash(token), person.companyId, person.hostId, purpose, now, expiresAt);
  // Spent and expired tokens say nothing more: the table keeps the live ones.
  await prepared(ctx.db, 'DELETE FROM account_tokens WHERE expiresAt < ?').run(now - 86_400_000);
  return { token, expiresAt };
}

/**
 * Uses a token of one of `purposes`: answers its person, or throws LINK_INVALID (unknown, or its person is no
 * longer an active host), LINK_EXPIRED or LINK_USED. Call inside the write it leads to.
 */
export async function useToken(
  ctx: Pick<Context, 'db' | 'clock'>,
  token: string,
  purposes: readonly TokenPurpose[],
): Promise<{ companyId: string; hostId: string; purpose: TokenPurpose; email: string }> {
  const row = (await prepared(
    ctx.db,
    `SELECT t.companyId, t.hostId, t.purpose, t.expiresAt, t.usedAt, h.email FROM account_tokens t
     JOIN hosts h ON h.id = t.hostId AND h.companyId = t.companyId AND h.deletedAt IS NULL AND h.isActive = 1
     WHERE t.tokenHash = ?`,
  ).get(tokenHash(token))) as
    | {
        companyId: string;
        hostId: string;
        purpose: TokenPurpose;
        expiresAt: number;
        usedAt: number | null;
        email: string;
      }
    | undefined;
  if (!row || !purposes.includes(row.purpose)) throw new ApiError('LINK_INVALID');
  const now = ctx.clock.now();
  if (row.usedAt !== null) throw new ApiError('LINK_USED');
  if (row.expiresAt <= now) throw new ApiError('LINK_EXPIRED');
  const used = await prepared(
    ctx.db,
    'UPDATE account_tokens SET usedAt = ? WHERE tokenHash = ? AND usedAt IS NULL',
  ).run(now, tokenHash(token));
  if (used.changes === 0) throw new ApiError('LINK_USED');
  return { companyId: row.companyId, hostId: row.hostId, purpose: row.purpose, email: row.email };
}

/** A password set ends the person's other set-password and reset links. */
export async function spendPasswordTokens(
  ctx: Pick<Context, 'db' | 'clock'>,
  person: { companyId: string; hostId: string },
): Promise<void> {
  await prepared(
    ctx.db,
    `UPDATE account_tokens SET usedAt = ? WHERE companyId = ? AND hostId = ? AND purpose IN ('welcome', 'reset')
       AND usedAt IS NULL`,
  ).run(ctx.clock.now(), person.companyId, person.hostId);
}
