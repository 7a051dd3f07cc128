import { recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { hexId } from '../rules/ids.ts';
import { defaultTimeZone } from '../rules/time.ts';
import type { Db } from '../store/db.ts';
import { objectToRow, prepared, rowToObject } from '../store/rows.ts';
import { hashKey, keyMatches, newApiKey } from './keys.ts';
import { type CompanyUpdateInput, companyColumns, companySecrets, secretMask } from './schema.ts';

export interface Caller {
  companyId: string;
  timeZone: string;
  lang: string;
  /**
   * Set when a hub replays a write a kiosk already made offline (sync push): the kiosk has done that write's
   * local duties (the gate callback), so listeners that act for the device skip it.
   */
  replayedFor?: string;
  /** The credential that made the request (an API key's id), for the audit log; absent for the service's own work. */
  credentialId?: string;
  /** What the credential may do; absent until credentials carry roles. */
  role?: string;
}

const trialDays = 30;

/**
 * Creates a company and its first API key (generated unless given). Returns the key once: only its hash is kept.
 * The key's making is audited as the operator's (whoever holds the data folder: the command line, the device).
 */
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
    const keyHash = hashKey(apiKey);
    ctx.db.prepare('INSERT INTO api_keys (keyHash, companyId, createdAt) VALUES (?, ?, ?)').run(keyHash, id, now);
    recordAudit(
      ctx,
      { companyId: id, credentialId: null, role: 'operator' },
      { action: 'key.created', objectType: 'apiKey', objectId: keyCredentialId(keyHash) },
    );
  });
  return { id, apiKey };
}

/** An API key's id: the start of its hash, which says nothing of the key and names it in the audit log. */
export const keyCredentialId = (keyHash: Buffer): string => `key_${keyHash.subarray(0, 8).toString('hex')}`;

interface KeyRow {
  keyHash: Buffer;
  companyId: string;
  timezone: string | null;
  lang: string;
}

interface CallerCache {
  /** `PRAGMA data_version` when the entries were read: it changes when another connection commits. */
  dataVersion: number;
  /** Callers by the SHA-256 of their key (never the key itself). */
  callers: Map<string, Caller>;
}

const callerCaches = new WeakMap<Db, CallerCache>();
const maxCachedCallers = 1000;

/**
 * Every request presents its key, so the callers found are kept rather than looked up in SQLite each time. The
 * cache is exact, not timed: a commit by another connection (the CLI, another process) changes
 * `PRAGMA data_version`, read on every use; a write to companies or api_keys on this connection empties it
 * through temporary triggers (connection-local, not part of the schema) that call back into this process.
 */
function callerCache(db: Db): CallerCache {
  let cache = callerCaches.get(db);
  if (!cache) {
    const created: CallerCache = { dataVersion: -1, callers: new Map() };
    db.function('portaria_forget_callers', () => {
      created.callers.clear();
      return null;
    });
    for (const table of ['companies', 'api_keys']) {
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS forget_callers_${table}_${event.toLowerCase()}
          AFTER ${event} ON main.${table} BEGIN SELECT portaria_forget_callers(); END`);
      }
    }
    cache = created;
    callerCaches.set(db, cache);
  }
  const dataVersion = prepared(db, 'PRAGMA data_version').pluck().get() as number;
  if (dataVersion !== cache.dataVersion || cache.callers.size >= maxCachedCallers) {
    cache.callers.clear();
    cache.dataVersion = dataVersion;
  }
  return cache;
}

/**
 * Finds the company a key belongs to. The lookup goes by the key's hash; the final comparison is constant-time
 * so the answer's timing says nothing about how close a wrong key came. Unknown keys are never cached.
 */
export function companyForKey(ctx: Context, key: string): Caller | undefined {
  const hash = hashKey(key);
  const cache = callerCache(ctx.db);
  const cacheKey = hash.toString('base64');
  const cached = cache.callers.get(cacheKey);
  if (cached) return cached;
  const row = prepared(
    ctx.db,
    `SELECT k.keyHash, c.id AS companyId, c.timezone, c.lang
     FROM api_keys k JOIN companies c ON c.id = k.companyId
     WHERE k.keyHash = ? AND k.revokedAt IS NULL AND c.deletedAt IS NULL`,
  ).get(hash) as KeyRow | undefined;
  if (!row || !keyMatches(key, row.keyHash)) return undefined;
  const caller = Object.freeze({
    companyId: row.companyId,
    credentialId: keyCredentialId(hash),
    timeZone: row.timezone ?? defaultTimeZone(),
    lang: row.lang,
  });
  cache.callers.set(cacheKey, caller);
  return caller;
}

function companyRow(ctx: Context, caller: Caller): Record<string, unknown> {
  const row = prepared(ctx.db, 'SELECT * FROM companies WHERE id = ? AND deletedAt IS NULL').get(caller.companyId) as
    | Record<string, unknown>
    | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The caller's company as section 2.1 shows it, secrets masked. */
export function companyObject(ctx: Context, caller: Caller): Record<string, unknown> {
  const row = companyRow(ctx, caller);
  const object = rowToObject(row, companyColumns, caller.timeZone);
  for (const key of companySecrets) object[key] = row[key] ? secretMask : null;
  return object;
}

/**
 * Updates the caller's company. Secrets are sealed before they reach SQLite; the mask leaves one unchanged. The
 * next request reads the new zone and language (`companyForKey` reads them per request).
 */
export function updateCompany(ctx: Context, caller: Caller, input: CompanyUpdateInput): Record<string, unknown> {
  const { plan: _plan, planIsActive: _active, trialUntil: _trial, ...changes } = input;
  const values: Record<string, unknown> = { ...changes };
  for (const key of companySecrets) {
    const value = changes[key];
    if (value === secretMask) delete values[key];
    else if (typeof value === 'string') values[key] = value === '' ? null : ctx.secrets.seal(value);
  }
  const row: Record<string, unknown> = { ...objectToRow(values, companyColumns), updatedAt: ctx.clock.now() };
  const timeZone = changes.timezone === undefined ? caller.timeZone : (changes.timezone ?? defaultTimeZone());
  const updated: Caller = { ...caller, timeZone, lang: changes.lang ?? caller.lang };
  inTransaction(ctx, () => {
    const current = companyRow(ctx, caller);
    // This service keeps no hierarchy of companies: a parent is not the caller's to name (another tenant's id on a
    // shared hub, or its own). The value already stored is accepted back, for clients that send the object back.
    const parent = changes.parentCompanyId;
    if (parent && parent !== current.parentCompanyId) {
      throw new ApiError('INVALID_PARAMETER', { field: 'parentCompanyId' });
    }
    const columns = Object.keys(row);
    prepared(
      ctx.db,
      `UPDATE companies SET ${columns.map((c) => `"${c}" = :${c}`).join(', ')} WHERE id = :__id AND deletedAt IS NULL`,
    ).run({ ...row, __id: caller.companyId });
    ctx.events.publish('company.updated', caller, () => companyObject(ctx, updated));
  });
  return companyObject(ctx, updated);
}

/** The caller a company's own background work (the retention sweep) acts as. */
export function companyCaller(ctx: Context, companyId: string): Caller | undefined {
  const row = ctx.db
    .prepare('SELECT id, timezone, lang FROM companies WHERE id = ? AND deletedAt IS NULL')
    .get(companyId) as { id: string; timezone: string | null; lang: string } | undefined;
  return row && { companyId: row.id, timeZone: row.timezone ?? defaultTimeZone(), lang: row.lang };
}
