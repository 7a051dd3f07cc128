import type { Clock } from '../context.ts';
import { createFailureLimiter, type FailureLimiterOptions } from './rate-limit.ts';

/**
 * Limits on guessing API keys (docs/reliability.md, "Wrong API keys"). A guess is counted against its source
 * address and against its target, the service's keys as a whole: a wrong key names no company, so every guess aims
 * at all of them. A client rotating through addresses (a host holds all of 127.0.0.0/8) escapes the first count,
 * not the second.
 */
export interface KeyGuessLimits {
  perAddress: FailureLimiterOptions;
  /** Wrong keys from all addresses together; past it, addresses not known to hold a key are locked. */
  perTarget: FailureLimiterOptions;
  /** How long, and how many, addresses that presented a right key are remembered as known. */
  knownForMs: number;
  maxKnown: number;
}

/**
 * 10 wrong keys within a minute lock an address for a minute; 30 from all addresses together lock the addresses
 * that hold no key for a minute. Keys are 256-bit random, so this is not what keeps them secret; it keeps guessing
 * clients from costing CPU and filling the log, and slows the guessing of a short key given with `--api-key`.
 */
export const keyGuessLimits: KeyGuessLimits = {
  perAddress: { maxFailures: 10, windowMs: 60_000, lockMs: 60_000 },
  perTarget: { maxFailures: 30, windowMs: 60_000, lockMs: 60_000 },
  knownForMs: 86_400_000,
  maxKnown: 1_000,
};

export interface KeyGuessLimiter {
  /** Milliseconds until a request from this address may present a key; 0 when it may now. */
  retryAfter(address: string): number;
  recordWrongKey(address: string): void;
  recordRightKey(address: string): void;
}

/**
 * While the target is locked, the addresses that presented a right key lately (the kiosk's screens, a hub's
 * kiosks, an integration) go on working under their own per-address limit: a guesser cannot lock the service's
 * known clients out, only the addresses that never held a key.
 */
export function createKeyGuessLimiter(limits: KeyGuessLimits, clock: Clock): KeyGuessLimiter {
  const perAddress = createFailureLimiter(limits.perAddress, clock);
  const perTarget = createFailureLimiter(limits.perTarget, clock);
  const target = 'keys';
  /** Address → when it last presented a right key; Map order is staleness order. */
  const known = new Map<string, number>();
  const isKnown = (address: string) => {
    const at = known.get(address);
    return at !== undefined && clock.now() - at < limits.knownForMs;
  };
  return {
    retryAfter(address) {
      const own = perAddress.retryAfter(address);
      return isKnown(address) ? own : Math.max(own, perTarget.retryAfter(target));
    },
    recordWrongKey(address) {
      perAddress.recordFailure(address);
      perTarget.recordFailure(target);
    },
    recordRightKey(address) {
      known.delete(address);
      known.set(address, clock.now());
      if (known.size > limits.maxKnown) {
        const stalest = known.keys().next().value;
        if (stalest !== undefined) known.delete(stalest);
      }
    },
  };
}
