import type { Context } from '../context.ts';
import { guessSource } from '../http/client-address.ts';
import { prepared } from '../store/rows.ts';

/**
 * Slowing the guessing of passwords (docs/security.md, "Accounts and sessions"). Failed sign-ins are counted against the
 * account they aimed at and against their source (its address, or IPv6 /64, as wrong API keys are: `guessSource`).
 * Past a subject's free failures each further one makes it wait, twice as long as the last time, up to `maxDelayMs`:
 * while it waits, a sign-in is answered 429 with Retry-After without its password being checked; after the wait the
 * right password gets in as ever. Nothing is ever locked for good, so a guesser cannot lock its victim out.
 */
export interface DelayRules {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  /** A subject whose last failure is this old starts counting afresh. */
  forgetAfterMs: number;
}

/** An account is slowed after 5 failures; a source, which may be a whole office behind one address, after 20. */
export const accountDelays: DelayRules = {
  freeFailures: 5,
  firstDelayMs: 15_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 3_600_000,
};
export const sourceDelays: DelayRules = { ...accountDelays, freeFailures: 20 };

export interface FailureCount {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/** A subject's count after one more failure at `now`. */
export function afterFailure(count: FailureCount | undefined, now: number, rules: DelayRules): FailureCount {
  const remembered = count !== undefined && now - count.lastFailureAt < rules.forgetAfterMs;
  const failures = (remembered ? count.failures : 0) + 1;
  const over = failures - rules.freeFailures;
  const delay = over < 0 ? 0 : Math.min(rules.maxDelayMs, rules.firstDelayMs * 2 ** Math.min(over, 30));
  return { failures, lastFailureAt: now, lockedUntil: delay === 0 ? 0 : now + delay };
}

/** The subjects a sign-in is counted against, with their rules. */
export function signInSubjects(accountKey: string, address: string | undefined): [string, DelayRules][] {
  return [
    [`account ${accountKey}`, accountDelays],
    [`source ${guessSource(address)}`, sourceDelays],
  ];
}

/** How long the subjects must still wait (0: they may try now). */
export async function waitFor(ctx: Pick<Context, 'db' | 'clock'>, subjects: readonly string[]): Promise<number> {
  const rows = (await prepared(ctx.db, 'SELECT lockedUntil FROM account_failures WHERE subject IN (?, ?)').all(
    subjects[0],
    subjects[1] ?? subjects[0],
  )) as { lockedUntil: number }[];
  return Math.max(0, ...rows.map((row) => row.lockedUntil - ctx.clock.now()));
}

/** Counts a failed sign-in against its subjects. */
export async function recordFailure(
  ctx: Pick<Context, 'db' | 'clock'>,
  subjects: readonly [string, DelayRules][],
): Promise<void> {
  const now = ctx.clock.now();
  const names = subjects.map(([subject]) => subject);
  const rows = (await prepared(
    ctx.db,
    'SELECT subject, failures, lastFailureAt, lockedUntil FROM account_failures WHERE subject IN (?, ?)',
  ).all(names[0], names[1] ?? names[0])) as (FailureCount & { subject: string })[];
  for (const [subject, rules] of subjects) {
    const next = afterFailure(
      rows.find((row) => row.subject === subject),
      now,
      rules,
    );
    await prepared(
      ctx.db,
      `INSERT INTO account_failures (subject, failures, lastFailureAt, lockedUntil) VALUES (?, ?, ?, ?)
       ON CONFLICT (subject) DO UPDATE SET failures = excluded.failures, lastFailureAt = excluded.lastFailureAt,
         lockedUntil = excluded.lockedUntil`,
    ).run(subject, next.failures, next.lastFailureAt, next.lockedUntil);
  }
  // The table holds only subjects that failed within the last day.
  await prepared(ctx.db, 'DELETE FROM account_failures WHERE lastFailureAt < ?').run(now - accountDelays.forgetAfterMs);
}

/** A right password clears its account's count (not its source's: one's own account must not wipe a guesser's). */
export async function clearFailures(ctx: Pick<Context, 'db'>, accountSubject: string): Promise<void> {
  await prepared(ctx.db, 'DELETE FROM account_failures WHERE subject = ?').run(accountSubject);
}
