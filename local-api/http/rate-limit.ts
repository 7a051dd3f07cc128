import type { Clock } from '../context.ts';

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
  retryAfter(key: string): number;
  recordFailure(key: string): void;
  recordSuccess(key: string): void;
}

interface Entry {
  failures: number[];
  lockedUntil: number;
}

/**
 * Limits repeated failures (wrong API keys, wrong front-desk PINs) per key, e.g. per client address. Successes
 * clear the key's record. The clock is injected so the rules can be tested exactly.
 */
export function createFailureLimiter(options: FailureLimiterOptions, clock: Clock): FailureLimiter {
  const entries = new Map<string, Entry>();
  const maxKeys = options.maxKeys ?? 10_000;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    const now = clock.now();
    entry.failures = entry.failures.filter((at) => now - at < options.windowMs);
    if (entry.failures.length === 0 && entry.lockedUntil <= now) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  return {
    retryAfter(key) {
      const entry = live(key);
      return entry ? Math.max(0, entry.lockedUntil - clock.now()) : 0;
    },
    recordFailure(key) {
      const now = clock.now();
      const entry = live(key) ?? { failures: [], lockedUntil: 0 };
      entry.failures.push(now);
      if (entry.failures.length >= options.maxFailures) {
        entry.lockedUntil = now + options.lockMs;
        entry.failures = [];
      }
      entries.delete(key); // re-inserted last: Map order is then staleness order
      entries.set(key, entry);
      if (entries.size > maxKeys) {
        const stalest = entries.keys().next().value;
        if (stalest !== undefined) entries.delete(stalest);
      }
    },
    recordSuccess(key) {
      entries.delete(key);
    },
  };
}
