import { createHash, timingSafeEqual } from 'node:crypto';
import type { Random } from '../rules/ids.ts';

/**
 * API keys are 32 random bytes, so a single SHA-256 is enough to store them (no dictionary to guard against);
 * the database holds only the hash.
 */
export const hashKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export const newApiKey = (random: Random): string => `prt_${random.bytes(32).toString('base64url')}`;

export function keyMatches(presented: string, storedHash: Buffer): boolean {
  const hash = hashKey(presented);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}
