import { scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Front-desk PINs are hashed with scrypt: a PIN has few values, so the hash must be slow to try offline (and the
 * stored hash is sealed with the device key on top: see store.ts). Parameters travel with the hash, so they can
 * grow later without invalidating PINs already set.
 */
const cost = { N: 2 ** 15, r: 8, p: 1 } as const;
const keyLength = 32;
/** scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that, so leave room. */
const maxmem = 64 * 1024 * 1024;

function derive(pin: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin, salt, keyLength, { ...params, maxmem }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$<N>$<r>$<p>$<salt>$<hash>` with Base64 salt and hash. */
export async function hashPin(pin: string, salt: Buffer): Promise<string> {
  const hash = await derive(pin, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Whether the PIN is the one hashed, compared in constant time. A hash this code cannot read matches nothing. */
export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const presented = await derive(pin, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
