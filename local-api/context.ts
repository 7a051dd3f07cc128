import { randomBytes, randomFillSync } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventBus } from './events.ts';
import type { Random } from './rules/ids.ts';
import type { SecretBox } from './secrets/box.ts';
import type { Db } from './store/db.ts';
import type { Pokes } from './sync/pokes.ts';

export interface Clock {
  now(): number;
}

/** What every handler and store function needs: injected so tests can fix the clock and randomness. */
export interface Context {
  db: Db;
  clock: Clock;
  random: Random;
  secrets: SecretBox;
  log: Logger;
  dataDir: string;
  events: EventBus;
  /** The kiosks subscribed to this service's change feed, told when it moves (sync/pokes.ts). */
  pokes: Pokes;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Random bytes from the system's CSPRNG, drawn 4 KiB at a time (as `crypto.randomUUID` does): ids and card numbers
 * take a few bytes per request, and each separate draw is a call into OpenSSL.
 */
function pooledRandom(poolSize = 4096): Random {
  const pool = Buffer.alloc(poolSize);
  let used = poolSize;
  return {
    bytes(n) {
      if (n > poolSize) return randomBytes(n);
      if (used + n > poolSize) {
        randomFillSync(pool);
        used = 0;
      }
      used += n;
      return Buffer.from(pool.subarray(used - n, used));
    },
  };
}

export const systemRandom: Random = pooledRandom();

/** Runs `work` in one write transaction: a request that writes commits all of it or none. */
export async function inTransaction<T>(ctx: Pick<Context, 'db'>, work: () => Promise<T>): Promise<T> {
  return await ctx.db.transaction(work);
}
