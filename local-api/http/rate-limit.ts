import { type Clock, type Context, inTransaction } from '../context.ts';
import { prepared } from '../store/rows.ts';

export interface FailureLimiterOptions {
  /** Failures allowed within `windowMs` before the key is locked. */
  maxFailures: number;
  windowMs: number;
  /** How long a key stays locked once it reached `maxFailures`. */
  lockMs: number;
  /** Keys remembered at most; the stalest are forgotten first, so an attacker cannot grow memory without bound. */
  maxKeys?: number;
}

export interface FailureLimiter {
  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  recordSuccess(key: string): Promise<void>;
  /**
   * Counts an attempt as a failure unless the key is locked, in one step: attempts sent all at once cannot all pass
   * the check before the first is counted. Answers the milliseconds to wait (nothing counted), or 0 (counted: a
   * success forgives it with `recordSuccess`).
   */
  takeAttempt(key: string): Promise<number>;
}

interface Entry {
  failures: number[];
  lockedUntil: number;
}

/** The key's record with the failures outside the window left out; undefined when nothing of it holds any more. */
function liveEntry(entry: Entry | undefined, now: number, options: FailureLimiterOptions): Entry | undefined {
  if (!entry) return undefined;
  const failures = entry.failures.filter((at) => now - at < options.windowMs);
  if (failures.length === 0 && entry.lockedUntil <= now) return undefined;
  return { failures, lockedUntil: entry.lockedUntil };
}

/**
 * The record after one more failure. The `maxFailures`th within the window locks the key for `lockMs`, and longer
 * if need be: until the first of those failures leaves the window. The failures stay counted through the lock, so
 * no window ever holds more than `maxFailures` (a lock that forgot them would let as many again once it ended).
 */
function withFailure(entry: Entry | undefined, now: number, options: FailureLimiterOptions): Entry {
  const failures = [...(entry?.failures ?? []), now].slice(-options.maxFailures);
  const lockedUntil = entry?.lockedUntil ?? 0;
  const first = failures[0] ?? now;
  if (failures.length < options.maxFailures) return { failures, lockedUntil };
  return { failures, lockedUntil: Math.max(lockedUntil, now + options.lockMs, first + options.windowMs) };
}

/**
 * Limits repeated failures (wrong front-desk PINs, kiosk lookups that find nobody) per key, in this
 * process's memory. Successes clear the key's record. The clock is injected so the rules can be tested exactly.
 */
export function createFailureLimiter(options: FailureLimiterOptions, clock: Clock): FailureLimiter {
  const entries = new Map<string, Entry>();
  const maxKeys = options.maxKeys ?? 10_000;

  const live = (key: string): Entry | undefined => {
    const entry = liveEntry(entries.get(key), clock.now(), options);
    if (entry) entries.set(key, entry);
    else entries.delete(key);
    return entry;
  };

  const waitOf = (key: string): number => {
    const entry = live(key);
    return entry ? Math.max(0, entry.lockedUntil - clock.now()) : 0;
  };
  const fail = (key: string): void => {
    const entry = withFailure(live(key), clock.now(), options);
    entries.delete(key); // re-inserted last: Map order is then staleness order
    entries.set(key, entry);
    if (entries.size > maxKeys) {
      const stalest = entries.keys().next().value;
      if (stalest !== undefined) entries.delete(stalest);
    }
  };

  // Asynchronous only to share the interface with the limiter kept in the database; each call is one step.
  return {
    retryAfter: async (key) => waitOf(key),
    recordFailure: async (key) => fail(key),
    recordSuccess: async (key) => void entries.delete(key),
    async takeAttempt(key) {
      const wait = waitOf(key);
      if (wait === 0) fail(key);
      return wait;
    },
  };
}

/**
 * The same limits kept in the database (`failure_limits`, one row per scope and key), which every process reads:
 * hub processes behind a load balancer count a key's failures together, so N processes do not give a guesser N
 * times the attempts. Keys are bounded by what exists (companies, credentials); rows whose failures have left the
 * window and whose lock has ended are deleted as others are written.
 */
export function createStoredFailureLimiter(
  ctx: Pick<Context, 'db' | 'clock'>,
  scope: string,
  options: FailureLimiterOptions,
): FailureLimiter {
  const read = async (key: string, now: number): Promise<Entry | undefined> => {
    const row = (await prepared(
      ctx.db,
      'SELECT failures, lockedUntil FROM failure_limits WHERE scope = ? AND subject = ?',
    ).get(scope, key)) as { failures: string; lockedUntil: number } | undefined;
    return liveEntry(
      row && { failures: JSON.parse(row.failures) as number[], lockedUntil: row.lockedUntil },
      now,
      options,
    );
  };
  /** Stores the key's record; and deletes the records whose failures left the window and whose lock ended. */
  const writeFailure = async (key: string, entry: Entry, now: number): Promise<void> => {
    await prepared(
      ctx.db,
      `INSERT INTO failure_limits (scope, subject, failures, lockedUntil, updatedAt) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (scope, subject) DO UPDATE SET failures = excluded.failures, lockedUntil = excluded.lockedUntil,
         updatedAt = excluded.updatedAt`,
    ).run(scope, key, JSON.stringify(entry.failures), entry.lockedUntil, now);
    await prepared(
      ctx.db,
      'DELETE FROM failure_limits WHERE scope = ? AND updatedAt <= ? AND lockedUntil <= ? AND subject <> ?',
    ).run(scope, now - options.windowMs, now, key);
  };
  return {
    async retryAfter(key) {
      const now = ctx.clock.now();
      return Math.max(0, ((await read(key, now))?.lockedUntil ?? 0) - now);
    },
    async recordFailure(key) {
      const now = ctx.clock.now();
      await inTransaction(
        ctx,
        async () => await writeFailure(key, withFailure(await read(key, now), now, options), now),
      );
    },
    async recordSuccess(key) {
      await prepared(ctx.db, 'DELETE FROM failure_limits WHERE scope = ? AND subject = ?').run(scope, key);
    },
    async takeAttempt(key) {
      const now = ctx.clock.now();
      return await inTransaction(ctx, async () => {
        const entry = await read(key, now);
        const wait = Math.max(0, (entry?.lockedUntil ?? 0) - now);
        if (wait === 0) await writeFailure(key, withFailure(entry, now, options), now);
        return wait;
      });
    },
  };
}
/**
 * The limiter a service uses for failures that must be counted across its processes. On SQLite one process holds
 * the data folder (its lock), sees every attempt, and keeps the count in memory: a lookup that finds nobody costs no
 * write (an fsync on a kiosk's flash). On PostgreSQL, hub processes share the count through the database.
 */
export function sharedFailureLimiter(
  ctx: Pick<Context, 'db' | 'clock'>,
  scope: string,
  options: FailureLimiterOptions,
): FailureLimiter {
  return ctx.db.sqlite ? createFailureLimiter(options, ctx.clock) : createStoredFailureLimiter(ctx, scope, options);
}
