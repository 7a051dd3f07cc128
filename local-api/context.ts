import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventBus } from './events.ts';
import type { Random } from './rules/ids.ts';
import type { SecretBox } from './secrets/box.ts';
import type { Db } from './store/db.ts';

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
}

export const systemClock: Clock = { now: () => Date.now() };
export const systemRandom: Random = { bytes: (n) => randomBytes(n) };

/** Runs `work` in one write transaction: a request that writes commits all of it or none. */
export function inTransaction<T>(ctx: Pick<Context, 'db'>, work: () => T): T {
  return ctx.db.transaction(work).immediate();
}
