import { hash, timingSafeEqual } from 'node:crypto';
import type { Random } from '../rules/ids.ts';

/**
 * Credentials are 32 random bytes, so a single SHA-256 is enough to store them (no dictionary to guard against);
 * the database holds only the hash. Every request hashes its key: the one-shot `hash()` skips making a Hash object.
 */
export const hashKey = (key: string): Buffer => hash('sha256', key, 'buffer');

export const newApiKey = (random: Random): string => `prt_${random.bytes(32).toString('base64url')}`;

/** The start of a key a list may show so a person can tell keys apart: `prt_` and 8 characters (48 bits). */
export const keyPrefix = (key: string): string => key.slice(0, 12);

export function keyMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashKey(presented);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
