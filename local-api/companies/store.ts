import { type Context, inTransaction } from '../context.ts';
import { hexId } from '../rules/ids.ts';
import { defaultTimeZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { hashKey, keyMatches, newApiKey } from './keys.ts';

export interface Caller {
  companyId: string;
  timeZone: string;
  lang: string;
}

const trialDays = 30;

/** Creates a company and its first API key (generated unless given). Returns the key once: only its hash is kept. */
export function createCompany(
  ctx: Context,
  input: { name: string; apiKey?: string | undefined; timezone?: string | undefined },
): { id: string; apiKey: string } {
  const id = hexId(ctx.random, 16);
  const apiKey = input.apiKey ?? newApiKey(ctx.random);
  const now = ctx.clock.now();
  inTransaction(ctx, () => {
    ctx.db
      .prepare(
        `INSERT INTO companies (id, createdAt, updatedAt, name, trialUntil, timezone)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(id, now, now, input.name, now + trialDays * 86_400_000, input.timezone ?? null);
    ctx.db
      .prepare('INSERT INTO api_keys (keyHash, companyId, createdAt) VALUES (?, ?, ?)')
      .run(hashKey(apiKey), id, now);
  });
  return { id, apiKey };
}

interface KeyRow {
  keyHash: Buffer;
  companyId: string;
  timezone: string | null;
  lang: string;
}

/**
 * Finds the company a key belongs to. The lookup goes by the key's hash; the final comparison is constant-time
 * so the answer's timing says nothing about how close a wrong key came.
 */
export function companyForKey(ctx: Context, key: string): Caller | undefined {
  const row = prepared(
    ctx.db,
    `SELECT k.keyHash, c.id AS companyId, c.timezone, c.lang
     FROM api_keys k JOIN companies c ON c.id = k.companyId
     WHERE k.keyHash = ? AND k.revokedAt IS NULL AND c.deletedAt IS NULL`,
  ).get(hashKey(key)) as KeyRow | undefined;
  if (!row || !keyMatches(key, row.keyHash)) return undefined;
  return { companyId: row.companyId, timeZone: row.timezone ?? defaultTimeZone(), lang: row.lang };
}
