/** Randomness is injected so tests can make ids and card numbers exact. */
export interface Random {
  bytes(length: number): Buffer;
}

export const hexId = (random: Random, bytes: number): string => random.bytes(bytes).toString('hex');

/** Host ids: 32 characters, as the interface fixes them. */
export const newHostId = (random: Random): string => hexId(random, 16);

/** Ids of the records the interface gives no format for (meetings, blocklist entries…): like host ids. */
export const newRecordId = newHostId;

/** RFC 4122 version 4 UUID from 16 random bytes (plain bytes, so the kiosk's page makes its ids with it too). */
export function uuidFromBytes(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const newUuid = (random: Random): string => uuidFromBytes(random.bytes(16));

export const isUuidV4 = (value: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(value);

/** A positive random int32, for ticket-gate card numbers (never 0, so it is never mistaken for "none"). */
export function newCardNumber(random: Random): number {
  const n = random.bytes(4).readUInt32BE(0) & 0x7fffffff;
  return n === 0 ? 1 : n;
}

export const isInt32 = (n: number): boolean => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;

const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Custom-field ids: 9 characters of [a-z0-9], as docs/api.md ("Custom fields") says. */
export function newCustomFieldId(random: Random): string {
  return [...random.bytes(9)].map((b) => idAlphabet[b % idAlphabet.length]).join('');
}
