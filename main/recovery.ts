export interface BackoffPolicy {
  /** Delay after the first failure in a window. */
  baseMs: number;
  maxMs: number;
  /** Failures older than this no longer count. */
  windowMs: number;
}

/**
 * Spacing of automatic recovery (service restarts, renderer reloads): each failure within the window doubles
 * the wait, up to a cap, so a fault that recurs at once cannot spin the CPU or flood the log, while a single
 * failure after a quiet spell is recovered from quickly.
 */
export function backoff(now: () => number, policy: BackoffPolicy): { next(): number } {
  let failures: number[] = [];
  return {
    next() {
      const at = now();
      failures = failures.filter((time) => at - time < policy.windowMs);
      failures.push(at);
      return Math.min(policy.maxMs, policy.baseMs * 2 ** (failures.length - 1));
    },
  };
}
