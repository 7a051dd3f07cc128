import { hash, timingSafeEqual } from 'node:crypto';
import { recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { insertCredential } from '../credentials/store.ts';
import { ApiError } from '../http/errors.ts';
import { hexId } from '../rules/ids.ts';
import { newPairingCode, normalPairingCode } from '../rules/pairing-code.ts';
import { prepared } from '../store/rows.ts';

/*
 * Enrolment by pairing code (docs/sync.md, "Pairing"). A fresh kiosk asks its hub for a pairing: the hub answers a
 * short code, which the kiosk shows on its screen, and a secret, which only the kiosk holds. An administrator types
 * the code into the console's Kiosks page; the hub then issues a `sync` credential of the administrator's company
 * and keeps it, sealed, for the holder of the secret, which fetches it once. So the code enrols the device that shows
 * it, to the company of whoever typed it, once; a code is worth nothing without the secret, and the secret nothing
 * until an administrator typed its code.
 */

/** How long a code can be typed in. */
export const pairingLifetimeMs = 10 * 60_000;

/** Wrong codes a company may type per window; past it, 429 until the window ends. */
export const pairingGuessLimit = { failures: 10, windowMs: 10 * 60_000 };

/**
 * Codes one address may ask for per window: a kiosk asks one per 10 minutes (and one per restart), so a flood from
 * one address cannot fill the hub's open codes.
 */
export const pairingOpenLimits = { maxFailures: 20, windowMs: 10 * 60_000, lockMs: 10 * 60_000 } as const;

/** Codes open at once on a hub, whoever asked: past it new ones wait for old ones to expire. */
export const maxOpenPairings = 1000;

const sha256 = (text: string): string => hash('sha256', text, 'hex');

interface PairingRow {
  id: string;
  deviceId: string;
  secretHash: string;
  expiresAt: number;
  companyId: string | null;
  credentialKey: string | null;
  claimedAt: number | null;
  deliveredAt: number | null;
}

export interface NewPairing {
  pairingId: string;
  secret: string;
  code: string;
  expiresAt: number;
}

/** A new pairing for a fresh kiosk (public: the kiosk has no credential yet). Its previous open ones go. */
export async function openPairing(ctx: Context, deviceId: string): Promise<NewPairing> {
  return await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    await prepared(
      ctx.db,
      'DELETE FROM kiosk_pairings WHERE expiresAt < ? OR (deviceId = ? AND claimedAt IS NULL)',
    ).run(now, deviceId);
    const open = (await prepared(ctx.db, 'SELECT COUNT(*) AS n FROM kiosk_pairings').get()) as { n: number };
    if (Number(open.n) >= maxOpenPairings) throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: 60 });
    const pairing: NewPairing = {
      pairingId: hexId(ctx.random, 16),
      secret: ctx.random.bytes(32).toString('base64url'),
      code: newPairingCode(ctx.random),
      expiresAt: now + pairingLifetimeMs,
    };
    await prepared(
      ctx.db,
      `INSERT INTO kiosk_pairings (id, deviceId, codeHash, secretHash, createdAt, expiresAt)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(pairing.pairingId, deviceId, sha256(pairing.code), sha256(pairing.secret), now, pairing.expiresAt);
    return pairing;
  });
}

/**
 * Counts a claim against the company's window before the code is looked at, in one statement (concurrent claims
 * queue on the window's row): answers the claims the window holds, this one included. A right code takes its count
 * back (`forgiveClaim`), so only wrong ones stay counted.
 */
async function countClaim(ctx: Context, companyId: string, windowStart: number): Promise<number> {
  const row = (await prepared(
    ctx.db,
    `INSERT INTO kiosk_pairing_guesses (companyId, windowStart, failures) VALUES (?, ?, 1)
     ON CONFLICT (companyId, windowStart) DO UPDATE SET failures = kiosk_pairing_guesses.failures + 1
     RETURNING failures`,
  ).get(companyId, windowStart)) as { failures: number };
  await prepared(ctx.db, 'DELETE FROM kiosk_pairing_guesses WHERE companyId = ? AND windowStart < ?').run(
    companyId,
    windowStart,
  );
  return Number(row.failures);
}

async function forgiveClaim(ctx: Context, companyId: string, windowStart: number): Promise<void> {
  await prepared(
    ctx.db,
    'UPDATE kiosk_pairing_guesses SET failures = failures - 1 WHERE companyId = ? AND windowStart = ?',
  ).run(companyId, windowStart);
}

/**
 * An administrator's claim of the code a kiosk shows: the kiosk is enrolled to the caller's company with a `sync`
 * credential of its own. A code unknown, expired or used answers INVALID_PAIRING_CODE, all alike, and stays counted
 * as a wrong guess: the refusal is answered after its transaction, the count included, commits.
 */
export async function claimPairing(
  ctx: Context,
  caller: Caller,
  input: { code: string; name?: string | undefined },
): Promise<{ deviceId: string }> {
  const outcome = await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    const windowStart = now - (now % pairingGuessLimit.windowMs);
    if ((await countClaim(ctx, caller.companyId, windowStart)) > pairingGuessLimit.failures) {
      const retryAfter = Math.ceil((windowStart + pairingGuessLimit.windowMs - now) / 1000);
      return { refused: new ApiError('TOO_MANY_REQUESTS', { retryAfter }) };
    }
    const code = normalPairingCode(input.code);
    // Found by the code's hash: how long the lookup takes says nothing of the code.
    const row =
      code === undefined
        ? undefined
        : ((await prepared(ctx.db, 'SELECT * FROM kiosk_pairings WHERE codeHash = ?').get(sha256(code))) as
            | PairingRow
            | undefined);
    if (!row || row.claimedAt !== null || row.expiresAt <= now)
      return { refused: new ApiError('INVALID_PAIRING_CODE') };
    await forgiveClaim(ctx, caller.companyId, windowStart);
    const name = input.name?.trim() || null;
    const { id, key } = await insertCredential(ctx, {
      companyId: caller.companyId,
      role: 'sync',
      label: `Kiosk ${name ?? row.deviceId.slice(0, 8)}`,
    });
    await recordAudit(ctx, caller, { action: 'key.created', objectType: 'credential', objectId: id });
    await prepared(
      ctx.db,
      'UPDATE kiosk_pairings SET companyId = ?, credentialKey = ?, claimedAt = ? WHERE id = ? AND claimedAt IS NULL',
    ).run(caller.companyId, ctx.secrets.seal(key), now, row.id);
    await prepared(
      ctx.db,
      `INSERT INTO kiosk_devices (companyId, deviceId, name, credentialId, enrolledAt)
       VALUES (:companyId, :deviceId, :name, :credentialId, :now)
       ON CONFLICT (companyId, deviceId) DO UPDATE SET name = excluded.name, credentialId = excluded.credentialId,
         enrolledAt = excluded.enrolledAt`,
    ).run({ companyId: caller.companyId, deviceId: row.deviceId, name, credentialId: id, now });
    return { deviceId: row.deviceId };
  });
  if ('refused' in outcome) throw outcome.refused;
  return outcome;
}

export type PairingStatus =
  | { status: 'waiting'; expiresAt: number }
  | { status: 'expired' }
  | { status: 'paired'; companyId: string; apiKey: string };

/**
 * What the kiosk that holds the secret learns of its pairing: still waiting for its code to be typed, expired, or
 * paired, with the credential, answered once (then forgotten here: a second ask finds nothing).
 */
export async function pairingStatus(ctx: Context, pairingId: string, secret: string): Promise<PairingStatus> {
  return await inTransaction(ctx, async () => {
    const row = (await prepared(ctx.db, 'SELECT * FROM kiosk_pairings WHERE id = ?').get(pairingId)) as
      | PairingRow
      | undefined;
    const presented = Buffer.from(sha256(secret), 'hex');
    const stored = Buffer.from(row?.secretHash ?? '', 'hex');
    if (!row || stored.length !== presented.length || !timingSafeEqual(presented, stored)) {
      throw new ApiError('NOT_FOUND');
    }
    if (row.claimedAt === null) {
      return row.expiresAt <= ctx.clock.now()
        ? { status: 'expired' as const }
        : { status: 'waiting' as const, expiresAt: row.expiresAt };
    }
    if (row.credentialKey === null || row.companyId === null) throw new ApiError('NOT_FOUND');
    await prepared(ctx.db, 'UPDATE kiosk_pairings SET credentialKey = NULL, deliveredAt = ? WHERE id = ?').run(
      ctx.clock.now(),
      row.id,
    );
    return { status: 'paired' as const, companyId: row.companyId, apiKey: ctx.secrets.open(row.credentialKey) };
  });
}
