import type { Random } from './ids.ts';

/*
 * Pairing codes (docs/sync.md, "Pairing"): what a fresh kiosk shows on its screen and an administrator types into
 * the console. Eight characters of an alphabet without look-alikes (no 0 or O, 1, I or L, no U), about 39 bits: with
 * guesses limited per company and each code living 10 minutes, guessing one is hopeless.
 */

export const pairingAlphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const pairingCodeLength = 8;

/** A uniform code: bytes that would favour some characters are drawn again. */
export function newPairingCode(random: Random): string {
  const limit = 256 - (256 % pairingAlphabet.length);
  let code = '';
  while (code.length < pairingCodeLength) {
    for (const byte of random.bytes(pairingCodeLength)) {
      if (byte < limit && code.length < pairingCodeLength) code += pairingAlphabet[byte % pairingAlphabet.length];
    }
  }
  return code;
}

/** A code as a person typed it (any case, spaces or dashes between groups), or undefined when it cannot be one. */
export function normalPairingCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== pairingCodeLength) return undefined;
  return [...code].every((c) => pairingAlphabet.includes(c)) ? code : undefined;
}

/** As the screen shows it: two groups of four. */
export const shownPairingCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;
