import { randomBytes, randomInt, scryptSync, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../local-api/context.ts';
import { createFailureLimiter, type FailureLimiterOptions } from '../local-api/http/rate-limit.ts';
import type { ExitKioskResult } from '../preload/api.ts';

/**
 * The front-desk PIN that lets staff leave the kiosk. The service has no PIN store yet (front-desk settings will
 * hold one), so the shell checks PINs through this small interface and keeps its own store meanwhile: a scrypt
 * hash in `<userData>/kiosk-pin.json`. Swapping in the service's check changes only what main/index.ts passes.
 */
export interface PinStore {
  isSet(): boolean;
  matches(pin: string): boolean;
}

export const pinPattern = /^\d{4,12}$/;

const storedPin = z.object({
  scheme: z.literal('scrypt'),
  N: z.number().int(),
  r: z.number().int(),
  p: z.number().int(),
  salt: z.string(),
  hash: z.string(),
});

const cost = { N: 2 ** 14, r: 8, p: 1 };

function derive(pin: string, salt: Buffer, params: { N: number; r: number; p: number }): Buffer {
  return scryptSync(pin, salt, 32, params);
}

export function hashPin(pin: string, salt: Buffer): string {
  const hash = derive(pin, salt, cost);
  return JSON.stringify({ scheme: 'scrypt', ...cost, salt: salt.toString('base64'), hash: hash.toString('base64') });
}

/** The store in `<dir>/kiosk-pin.json`; read on each check, so a PIN changed on disk applies at once. */
export function filePinStore(dir: string): PinStore {
  const file = join(dir, 'kiosk-pin.json');
  return {
    isSet: () => existsSync(file),
    matches(pin) {
      if (!existsSync(file)) return false;
      const stored = storedPin.parse(JSON.parse(readFileSync(file, 'utf8')));
      const expected = Buffer.from(stored.hash, 'base64');
      const presented = derive(pin, Buffer.from(stored.salt, 'base64'), stored);
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },
  };
}

export const initialPinFile = 'kiosk-pin.txt';

/**
 * On the first start the kiosk gets a random 6-digit PIN: its hash in `kiosk-pin.json`, the PIN itself in
 * `kiosk-pin.txt` (mode 0600) for the installer to read, as servers hand out an initial admin password. That
 * file is deleted the first time the PIN is used (see forgetInitialPin). No PIN is ever built in.
 */
export function ensureKioskPin(dir: string, digits: () => string = sixDigits): { created: boolean } {
  if (existsSync(join(dir, 'kiosk-pin.json'))) return { created: false };
  const pin = digits();
  writeFileSync(join(dir, 'kiosk-pin.json'), hashPin(pin, randomBytes(16)), { mode: 0o600 });
  writeFileSync(
    join(dir, initialPinFile),
    `${pin}\nThe front-desk PIN that leaves the kiosk. This file is deleted once the PIN has been used.\n`,
    { mode: 0o600 },
  );
  return { created: true };
}

export function forgetInitialPin(dir: string): void {
  rmSync(join(dir, initialPinFile), { force: true });
}

const sixDigits = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/**
 * Checks PINs with the service's failure limiter: after `maxFailures` wrong PINs within the window the gate
 * answers LOCKED, without looking at the PIN, until `lockMs` have passed. A 6-digit PIN has a million values:
 * the lockout, not the hash, is what keeps someone at the screen from trying them.
 */
export function pinGate(
  store: PinStore,
  clock: Clock,
  policy: FailureLimiterOptions = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 60_000 },
): { check(pin: string): ExitKioskResult } {
  const limiter = createFailureLimiter(policy, clock);
  const screen = 'kiosk-screen';
  return {
    check(pin) {
      const retryAfterMs = limiter.retryAfter(screen);
      if (retryAfterMs > 0) return { exited: false, reason: 'LOCKED', retryAfterMs };
      if (!store.isSet()) return { exited: false, reason: 'NO_PIN_SET' };
      if (pinPattern.test(pin) && store.matches(pin)) {
        limiter.recordSuccess(screen);
        return { exited: true };
      }
      limiter.recordFailure(screen);
      return { exited: false, reason: 'WRONG_PIN' };
    },
  };
}
