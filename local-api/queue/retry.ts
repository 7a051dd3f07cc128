import type { Random } from '../rules/ids.ts';

export const firstRetryMs = 1_000;
export const maxRetryMs = 5 * 60_000;

/**
 * Delay before attempt `attempt + 1`: exponential from 1 s, capped at `capMs` (5 min unless told), with "equal
 * jitter" (half fixed, half random) so kiosks that lost the network together do not retry together.
 */
export function retryDelay(attempt: number, random: Random, capMs = maxRetryMs): number {
  const ceiling = Math.min(capMs, firstRetryMs * 2 ** Math.min(attempt, 20));
  const fraction = random.bytes(4).readUInt32BE(0) / 0x1_0000_0000;
  return Math.round(ceiling / 2 + (fraction * ceiling) / 2);
}
