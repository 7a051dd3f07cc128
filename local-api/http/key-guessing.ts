import type { Clock, Context } from '../context.ts';
import { keyPrefix } from '../credentials/keys.ts';
import { prepared } from '../store/rows.ts';

/**
 * Limits on guessing API keys (docs/reliability.md, "Wrong API keys"). A wrong key is counted against its source
 * (the client's address) and against the prefix of the key it presented (the credential it aims at, if it aims at
 * one). Past the limit, further wrong keys from that source or aimed at that prefix are answered 429: the limit only
 * ever answers a request that presented no valid credential, so a guesser cannot lock a right key out, whoever
 * shares its address (every client of a kiosk is 127.0.0.1; every client behind an undeclared proxy is the proxy).
 */
export interface KeyGuessLimits {
  /** Wrong keys within `windowMs` of a subject's first one that lock it. */
  maxFailures: number;
  windowMs: number;
  lockMs: number;
  /** Subjects kept in a process's memory (SQLite) at most: the stalest are forgotten first. */
  maxSubjects: number;
}

/**
 * 10 wrong keys within a minute lock a source or a prefix for a minute. Keys are 256-bit random, so this is not what
 * keeps them secret; it keeps guessing clients from costing CPU and filling the log, and slows the guessing of a
 * short key given with `--api-key`.
 */
export const keyGuessLimits: KeyGuessLimits = {
  maxFailures: 10,
  windowMs: 60_000,
  lockMs: 60_000,
  maxSubjects: 10_000,
};

/**
 * What a wrong key is counted against: its source, and the prefix of each key the request presented, in Base64URL
 * (a key decoded from Basic may hold any character, a NUL too, which a PostgreSQL text value cannot).
 */
export function guessSubjects(source: string, keys: readonly string[]): string[] {
  const prefixes = keys.map((key) => `prefix ${Buffer.from(keyPrefix(key)).toString('base64url')}`);
  return [`source ${source}`, ...new Set(prefixes)];
}

export interface GuessVerdict {
  /** Above 0 when a subject was locked already: the attempt is answered 429 and not counted. */
  retryAfterMs: number;
  /** The subjects this attempt locked. */
  lockedNow: string[];
}

export interface KeyGuessCounter {
  recordWrongKey(subjects: readonly string[]): Promise<GuessVerdict>;
}

interface GuessCount {
  windowStart: number;
  failures: number;
  lockedUntil: number;
}

/**
 * A subject's count after one more wrong key: a window opens at its first failure and lasts `windowMs`; the
 * `maxFailures`th within it locks the subject for `lockMs` and starts the count over. The stored counter's SQL
 * (`storedKeyGuessCounter`) says the same.
 */
export function afterWrongKey(count: GuessCount | undefined, now: number, limits: KeyGuessLimits): GuessCount {
  const inWindow = count !== undefined && now - count.windowStart < limits.windowMs;
  const failures = inWindow ? count.failures + 1 : 1;
  if (failures >= limits.maxFailures) return { windowStart: now, failures: 0, lockedUntil: now + limits.lockMs };
  return { windowStart: inWindow ? count.windowStart : now, failures, lockedUntil: 0 };
}

/** The counts in this process's memory: on SQLite one process owns the data folder and sees every request. */
export function memoryKeyGuessCounter(limits: KeyGuessLimits, clock: Clock): KeyGuessCounter {
  /** Map order is staleness order: a subject is re-inserted at each failure. */
  const counts = new Map<string, GuessCount>();
  // Asynchronous only to share the interface with the counts kept in the database.
  return {
    async recordWrongKey(subjects) {
      const now = clock.now();
      const lockedUntil = Math.max(0, ...subjects.map((subject) => counts.get(subject)?.lockedUntil ?? 0));
      if (lockedUntil > now) return { retryAfterMs: lockedUntil - now, lockedNow: [] };
      const lockedNow: string[] = [];
      for (const subject of subjects) {
        const count = afterWrongKey(counts.get(subject), now, limits);
        counts.delete(subject);
        counts.set(subject, count);
        if (count.lockedUntil > now) lockedNow.push(subject);
      }
      for (const stalest of counts.keys()) {
        if (counts.size <= limits.maxSubjects) break;
        counts.delete(stalest);
      }
      return { retryAfterMs: 0, lockedNow };
    },
  };
}

/**
 * The counts in the database (`key_guesses`), which every hub process on one PostgreSQL database shares: N
 * processes do not give a guesser N times the attempts. One statement per wrong key reads the subjects' locks and,
 * when none holds, counts the failure in each (the data-modifying CTE sees the rows as they were before it); a
 * second, at most once a window per process, deletes the rows whose window and lock have ended, so the table holds
 * only the last window's subjects. A right key costs no statement.
 */
export function storedKeyGuessCounter(ctx: Pick<Context, 'db' | 'clock'>, limits: KeyGuessLimits): KeyGuessCounter {
  const next = 'CASE WHEN g.windowStart > :windowOpen THEN g.failures + 1 ELSE 1 END';
  const sql = (subjects: number) => `
    WITH attempt (subject) AS (VALUES ${Array.from({ length: subjects }, (_, i) => `(CAST(:s${i} AS TEXT))`).join(', ')}),
    held AS (
      SELECT g.subject, g.lockedUntil FROM key_guesses g JOIN attempt a ON a.subject = g.subject
      WHERE g.lockedUntil > :now
    ),
    counted AS (
      INSERT INTO key_guesses AS g (subject, windowStart, failures, lockedUntil)
      SELECT subject, CAST(:now AS BIGINT), CAST(:first AS INTEGER), CAST(:firstLockedUntil AS BIGINT) FROM attempt
      WHERE NOT EXISTS (SELECT 1 FROM held)
      ON CONFLICT (subject) DO UPDATE SET
        failures = CASE WHEN ${next} >= :maxFailures THEN 0 ELSE ${next} END,
        windowStart = CASE WHEN ${next} >= :maxFailures OR ${next} = 1 THEN :now ELSE g.windowStart END,
        lockedUntil = CASE WHEN ${next} >= :maxFailures THEN :lockedUntil ELSE g.lockedUntil END
      RETURNING g.subject, g.lockedUntil
    )
    SELECT 1 AS held, subject, lockedUntil FROM held
    UNION ALL SELECT 0, subject, lockedUntil FROM counted`;
  let prunedAt = 0;
  return {
    async recordWrongKey(subjects) {
      const now = ctx.clock.now();
      const first = afterWrongKey(undefined, now, limits);
      const rows = (await prepared(ctx.db, sql(subjects.length)).all({
        ...Object.fromEntries(subjects.map((subject, i) => [`s${i}`, subject])),
        now,
        windowOpen: now - limits.windowMs,
        maxFailures: limits.maxFailures,
        lockedUntil: now + limits.lockMs,
        first: first.failures,
        firstLockedUntil: first.lockedUntil,
      })) as { held: number; subject: string; lockedUntil: number }[];
      if (now - prunedAt >= limits.windowMs) {
        prunedAt = now;
        await prepared(ctx.db, 'DELETE FROM key_guesses WHERE lockedUntil <= ? AND windowStart <= ?').run(
          now,
          now - limits.windowMs,
        );
      }
      const held = rows.filter((row) => row.held === 1);
      if (held.length > 0)
        return { retryAfterMs: Math.max(...held.map((row) => row.lockedUntil)) - now, lockedNow: [] };
      return { retryAfterMs: 0, lockedNow: rows.filter((row) => row.lockedUntil > now).map((row) => row.subject) };
    },
  };
}

/** The counter a service uses: in memory on SQLite, in the database on PostgreSQL (see the two above). */
export function keyGuessCounter(ctx: Pick<Context, 'db' | 'clock'>, limits = keyGuessLimits): KeyGuessCounter {
  return ctx.db.sqlite ? memoryKeyGuessCounter(limits, ctx.clock) : storedKeyGuessCounter(ctx, limits);
}
