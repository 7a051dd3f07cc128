import type { Context } from '../../local-api/context.ts';
import type { Random } from '../../local-api/rules/ids.ts';
import { openService } from '../../local-api/server.ts';
import { tempDir } from './service.ts';

/** A clock tests move by hand. */
export function manualClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Deterministic bytes: a counter run through a simple mix, so ids differ but repeat from run to run. */
export function seededRandom(seed = 1): Random {
  let state = seed >>> 0;
  return {
    bytes(length) {
      const out = Buffer.alloc(length);
      for (let i = 0; i < length; i++) {
        state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
        out[i] = state & 0xff;
      }
      return out;
    },
  };
}

/** The service's context on a fresh data folder, in this process: for store and queue tests. */
export async function testContext(
  options: { clock?: Context['clock']; random?: Random; dataDir?: string } = {},
): Promise<Context> {
  return await openService({
    dataDir: options.dataDir ?? tempDir(),
    clock: options.clock,
    random: options.random,
    logLevel: 'silent',
  });
}
