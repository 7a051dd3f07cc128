import { type Context, inTransaction } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { hexId } from '../rules/ids.ts';
import { defaultTimeZone, formatInZone } from '../rules/time.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import type { Principal, Role } from './caller.ts';
import { hashKey, keyMatches, keyPrefix, newApiKey } from './keys.ts';

export type CredentialRole = Role | 'owner';

/** A front-desk session ends after this long without a request, and after `maxMs` in any case. */
export const frontDeskSession = { idleMs: 10 * 60_000, maxMs: 12 * 3_600_000 } as const;

/** A credential's last use is written at most this often (a request each time would write on every request). */
const lastUseWriteMs = 60_000;
/**
 * A front-desk session's, more often: hub processes behind a load balancer each see some of its requests, and one
 * that finds it idle in its own memory asks the database for the last use the others wrote (`principalForKey`), so
 * a session in use ends at most this much early on a process that has not seen it lately.
 */
const sessionLastUseWriteMs = 10_000;

export interface NewCredential {
  /** Null for the device owner's tokens. */
  companyId: string | null;
  role: CredentialRole;
  label: string;
  /** Generated unless given (`portaria company create --api-key`). */
  key?: string | undefined;
  expiresAt?: number | undefined;
}

/** Stores a credential; its key is answered once, only its hash is kept. Call inside the caller's transaction. */
export async function insertCredential(ctx: Context, input: NewCredential): Promise<{ id: string; key: string }> {
  const id = hexId(ctx.random, 12);
  const key = input.key ?? newApiKey(ctx.random);
  await prepared(
    ctx.db,
    `INSERT INTO credentials (id, companyId, role, label, prefix, keyHash, createdAt, expiresAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    input.companyId,
    input.role,
    input.label,
    keyPrefix(key),
    hashKey(key),
    ctx.clock.now(),
    input.expiresAt ?? null,
  );
  return { id, key };
}

interface CredentialRow {
  id: string;
  companyId: string | null;
  role: CredentialRole;
  label: string;
  prefix: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A credential as the API lists it: never its key. */
export function credentialObject(row: CredentialRow, timeZone: string) {
  const time = (ms: number | null) => (ms === null ? null : formatInZone(ms, timeZone));
  return {
    id: row.id,
    role: row.role,
    label: row.label,
    prefix: row.prefix,
    createdAt: formatInZone(row.createdAt, timeZone),
    lastUsedAt: time(row.lastUsedAt),
    expiresAt: time(row.expiresAt),
    revokedAt: time(row.revokedAt),
  };
}

const credentialColumns = 'id, companyId, role, label, prefix, createdAt, lastUsedAt, expiresAt, revokedAt';

/** The company's credentials, newest first; revoked ones too (with when), front-desk sessions that ended not. */
export async function companyCredentials(ctx: Context, companyId: string): Promise<CredentialRow[]> {
  return (await prepared(
    ctx.db,
    `SELECT ${credentialColumns} FROM credentials WHERE companyId = ? ORDER BY createdAt DESC, id`,
  ).all(companyId)) as CredentialRow[];
}

export async function credentialRow(ctx: Context, companyId: string, id: string): Promise<CredentialRow> {
  const row = (await prepared(
    ctx.db,
    `SELECT ${credentialColumns} FROM credentials WHERE companyId = ? AND id = ?`,
  ).get(companyId, id)) as CredentialRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The device-owner tokens (`portaria owner token`), newest first, revoked ones too: they belong to no company. */
export async function ownerTokens(ctx: Context): Promise<CredentialRow[]> {
  return (await prepared(
    ctx.db,
    `SELECT ${credentialColumns} FROM credentials WHERE companyId IS NULL AND role = 'owner' ORDER BY createdAt DESC, id`,
  ).all()) as CredentialRow[];
}

async function ownerTokenRow(ctx: Context, id: string): Promise<CredentialRow> {
  const row = (await ownerTokens(ctx)).find((token) => token.id === id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Revokes the credential `current` finds (or throws NOT_FOUND for); revoking twice keeps the first time. */
async function revoke(ctx: Context, id: string, current: () => Promise<CredentialRow>): Promise<CredentialRow> {
  return await inTransaction(ctx, async () => {
    await current();
    await prepared(ctx.db, 'UPDATE credentials SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL').run(
      ctx.clock.now(),
      id,
    );
    return await current();
  });
}

/** Revokes one of the company's credentials; its next request fails. */
export const revokeCredential = async (ctx: Context, companyId: string, id: string): Promise<CredentialRow> =>
  await revoke(ctx, id, async () => await credentialRow(ctx, companyId, id));

/** Revokes a device-owner token; its next request fails. */
export const revokeOwnerToken = async (ctx: Context, id: string): Promise<CredentialRow> =>
  await revoke(ctx, id, async () => await ownerTokenRow(ctx, id));

/** Revokes the credential a key belongs to (a front-desk session ended by its holder, a hub key replaced). */
export async function revokeKey(ctx: Context, key: string): Promise<void> {
  await prepared(ctx.db, 'UPDATE credentials SET revokedAt = ? WHERE keyHash = ? AND revokedAt IS NULL').run(
    ctx.clock.now(),
    hashKey(key),
  );
}

/** Whether a credential can still be used (not revoked, not expired). */
export async function credentialLive(ctx: Context, id: string): Promise<boolean> {
  const row = (await prepared(ctx.db, 'SELECT expiresAt, revokedAt FROM credentials WHERE id = ?').get(id)) as
    | Pick<CredentialRow, 'expiresAt' | 'revokedAt'>
    | undefined;
  return row !== undefined && row.revokedAt === null && (row.expiresAt === null || row.expiresAt > ctx.clock.now());
}

/** Removes the company's front-desk sessions that have ended (they are kept no longer than needed to list them). */
export async function pruneSessions(ctx: Context, companyId: string): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `DELETE FROM credentials WHERE companyId = ? AND role = 'frontdesk'
     AND (revokedAt IS NOT NULL OR expiresAt <= ? OR COALESCE(lastUsedAt, createdAt) <= ?)`,
  ).run(companyId, now, now - frontDeskSession.idleMs);
}

interface FoundRow {
  id: string;
  keyHash: Buffer;
  companyId: string | null;
  role: CredentialRole;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  timezone: string | null;
  lang: string | null;
}

interface CachedPrincipal {
  principal: Principal;
  expiresAt: number | null;
  /** For front-desk sessions: how long without a request ends it. */
  idleMs: number | null;
  lastUsedAt: number;
  /** The last use written to SQLite. */
  savedLastUsedAt: number;
}

interface PrincipalCache {
  /** `PRAGMA data_version` when the entries were read: it changes when another connection commits. */
  dataVersion: number;
  /** Principals by the SHA-256 of their key (never the key itself). */
  entries: Map<string, CachedPrincipal>;
}

const caches = new WeakMap<Db, PrincipalCache>();
const maxCached = 1000;

/**
 * Every request presents its key, so the principals found are kept rather than looked up in SQLite each time. The
 * cache is exact, not timed: a commit by another connection (the CLI, another process) changes
 * `PRAGMA data_version`, read on every use; a write to companies or to a credential's identity, role, expiry or
 * revocation on this connection empties it through temporary triggers (connection-local, not part of the schema)
 * that call back into this process. Writing a credential's last use does not.
 */
async function principalCache(db: Db): Promise<PrincipalCache> {
  let cache = caches.get(db);
  if (!cache) {
    cache = { dataVersion: -1, entries: new Map() };
    if (db.sqlite) forgetOnLocalWrites(db.sqlite, cache);
    caches.set(db, cache);
  }
  const dataVersion = (await prepared(db, db.sqlite ? 'PRAGMA data_version' : callersVersionSql)
    .pluck()
    .get()) as number;
  if (dataVersion !== cache.dataVersion || cache.entries.size >= maxCached) {
    cache.entries.clear();
    cache.dataVersion = dataVersion;
  }
  return cache;
}

/**
 * On PostgreSQL every writer is another connection, often another hub process: the schema's triggers move this
 * version on with each write that changes a caller (migrations/postgres/0014_schema.sql).
 */
const callersVersionSql = "SELECT version FROM cache_versions WHERE name = 'callers'";

/** SQLite's data_version does not move with this connection's own commits: temporary triggers catch those. */
function forgetOnLocalWrites(sqlite: NonNullable<Db['sqlite']>, cache: PrincipalCache): void {
  sqlite.function('portaria_forget_callers', () => {
    cache.entries.clear();
    return null;
  });
  const watched = {
    companies: ['INSERT', 'UPDATE', 'DELETE'],
    credentials: ['INSERT', 'UPDATE OF companyId, role, keyHash, expiresAt, revokedAt', 'DELETE'],
  };
  for (const [table, events] of Object.entries(watched)) {
    for (const event of events) {
      sqlite.exec(`CREATE TEMP TRIGGER IF NOT EXISTS forget_callers_${table}_${event.split(' ')[0]?.toLowerCase()}
        AFTER ${event} ON main.${table} BEGIN SELECT portaria_forget_callers(); END`);
    }
  }
}

function principalOfRow(row: FoundRow): Principal {
  if (row.role === 'owner' || row.companyId === null) return Object.freeze({ role: 'owner', credentialId: row.id });
  return Object.freeze({
    companyId: row.companyId,
    timeZone: row.timezone ?? defaultTimeZone(),
    lang: row.lang ?? 'en',
    role: row.role,
    credentialId: row.id,
  });
}

const ended = (entry: CachedPrincipal, now: number): boolean =>
  (entry.expiresAt !== null && now >= entry.expiresAt) ||
  (entry.idleMs !== null && now - entry.lastUsedAt >= entry.idleMs);

/**
 * Whether an idle-limited credential this process found idle was used since through another process (another hub
 * process on the same database): its entry takes the last use written there.
 */
async function usedElsewhere(ctx: Context, entry: CachedPrincipal, now: number): Promise<boolean> {
  if (entry.expiresAt !== null && now >= entry.expiresAt) return false;
  const saved = (await prepared(ctx.db, 'SELECT lastUsedAt FROM credentials WHERE id = ? AND revokedAt IS NULL')
    .pluck()
    .get(entry.principal.credentialId)) as number | null | undefined;
  if (typeof saved !== 'number' || saved <= entry.lastUsedAt) return false;
  entry.lastUsedAt = saved;
  entry.savedLastUsedAt = saved;
  return !ended(entry, now);
}

/**
 * Finds who a key belongs to: a company's credential or the device owner's token. The lookup goes by the key's
 * hash; the final comparison is constant-time so the answer's timing says nothing about how close a wrong key came.
 * Unknown, revoked and ended keys are never cached. Each use counts as the credential's last use (an idle
 * front-desk session ends `idleMs` after it).
 */
export async function principalForKey(ctx: Context, key: string): Promise<Principal | undefined> {
  const hash = hashKey(key);
  const cache = await principalCache(ctx.db);
  const cacheKey = hash.toString('base64');
  const now = ctx.clock.now();
  let entry = cache.entries.get(cacheKey);
  if (!entry) {
    const row = (await prepared(
      ctx.db,
      `SELECT k.id, k.keyHash, k.companyId, k.role, k.createdAt, k.lastUsedAt, k.expiresAt, c.timezone, c.lang
       FROM credentials k LEFT JOIN companies c ON c.id = k.companyId
       WHERE k.keyHash = ? AND k.revokedAt IS NULL AND (k.companyId IS NULL OR c.deletedAt IS NULL)`,
    ).get(hash)) as FoundRow | undefined;
    if (!row || !keyMatches(key, row.keyHash)) return undefined;
    const lastUsedAt = row.lastUsedAt ?? row.createdAt;
    entry = {
      principal: principalOfRow(row),
      expiresAt: row.expiresAt,
      idleMs: row.role === 'frontdesk' ? frontDeskSession.idleMs : null,
      lastUsedAt,
      savedLastUsedAt: row.lastUsedAt ?? 0,
    };
    if (ended(entry, now)) return undefined;
    cache.entries.set(cacheKey, entry);
  } else if (ended(entry, now) && !(await usedElsewhere(ctx, entry, now))) {
    cache.entries.delete(cacheKey);
    return undefined;
  }
  entry.lastUsedAt = now;
  if (now - entry.savedLastUsedAt >= (entry.idleMs === null ? lastUseWriteMs : sessionLastUseWriteMs)) {
    await prepared(ctx.db, 'UPDATE credentials SET lastUsedAt = ? WHERE id = ?').run(now, entry.principal.credentialId);
    entry.savedLastUsedAt = now;
  }
  return entry.principal;
}
