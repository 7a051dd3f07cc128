import { isIP } from 'node:net';

/*
 * Where the device's outgoing requests (webhooks, the gate callback, the notification webhook, e-mail, sync) may
 * go, judged on the address a connection is about to be made to: after DNS, so a name that resolves to a refused
 * address is refused too, and at every connection, so a name that changes its answer after it was saved gains
 * nothing. Pure functions; `policy.ts` assembles the policy of a running service. See docs/reliability.md, "Outgoing requests".
 */

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6), so one prefix test serves both families. */
type Address = Uint8Array;

export interface Cidr {
  text: string;
  bytes: Address;
  /** Prefix length over the 128 bits. */
  bits: number;
}

function ipv4Bytes(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

/** Parses an address in its canonical text forms (IPv6 with `::`, an embedded dotted quad, a zone id). */
export function parseAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) {
    const v4 = ipv4Bytes(bare);
    return v4 ? Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]) : undefined;
  }
  if (family !== 6) return undefined;
  // A trailing dotted quad (`::ffff:127.0.0.1`) becomes its two hex groups.
  const hex = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) =>
    [((Number(a) << 8) | Number(b)).toString(16), ((Number(c) << 8) | Number(d)).toString(16)].join(':'),
  );
  const groups = (side: string) => (side === '' ? [] : side.split(':').map((g) => Number.parseInt(g, 16)));
  const [left = '', right, extra] = hex.split('::');
  if (extra !== undefined) return undefined;
  const leftGroups = groups(left);
  const rightGroups = right === undefined ? [] : groups(right);
  const missing = 8 - leftGroups.length - rightGroups.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return undefined;
  const all = [...leftGroups, ...Array<number>(missing).fill(0), ...rightGroups];
  if (all.some((g) => !(g >= 0 && g <= 0xffff))) return undefined;
  return Uint8Array.from(all.flatMap((g) => [(g >> 8) & 0xff, g & 0xff]));
}

function inPrefix(address: Address, prefix: Address, bits: number): boolean {
  for (let i = 0; i < 16; i++) {
    const take = Math.max(0, Math.min(8, bits - i * 8));
    if (take === 0) return true;
    const mask = (0xff << (8 - take)) & 0xff;
    if (((address[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** `10.0.0.0/8`, `192.168.1.20`, `fd12::/16`; undefined when it is none of these. */
export function parseCidr(text: string): Cidr | undefined {
  const [addressText = '', lengthText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const bytes = parseAddress(addressText);
  if (!bytes) return undefined;
  const v4 = isIP(addressText) === 4;
  const max = v4 ? 32 : 128;
  const length = lengthText === undefined ? max : /^\d{1,3}$/.test(lengthText) ? Number(lengthText) : Number.NaN;
  if (!(length >= 0 && length <= max)) return undefined;
  return { text: text.trim(), bytes, bits: v4 ? 96 + length : length };
}

const cidrs = (...texts: string[]): Cidr[] =>
  texts.map((text) => {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`bad built-in range ${text}`);
    return cidr;
  });

const within = (address: Address, ranges: readonly Cidr[]) => ranges.some((r) => inPrefix(address, r.bytes, r.bits));

/** Whether an address given as text lies in one of the ranges. */
export function addressWithin(text: string, ranges: readonly Cidr[]): boolean {
  const address = parseAddress(text);
  return address !== undefined && within(address, ranges);
}

/** "This host" and unspecified: a connection to them lands on the device itself. */
const unspecified = cidrs('0.0.0.0/8', '::/128');
/** Link-local (where cloud metadata services answer), metadata addresses elsewhere, multicast, reserved. */
const neverReached = cidrs(
  '169.254.0.0/16',
  'fe80::/10',
  'fd00:ec2::254/128',
  '100.100.100.200/32',
  '224.0.0.0/4',
  '240.0.0.0/4',
  'ff00::/8',
);
/** Loopback and the local networks: where a kiosk's gate lives, and what a tenant of a shared hub must not probe. */
export const privateRanges = cidrs(
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  'fc00::/7',
  'fec0::/10',
);
const loopback = cidrs('127.0.0.0/8', '::1/128');

const ipv4Compatible = cidrs('::/96');
const nat64 = cidrs('64:ff9b::/96', '64:ff9b:1::/48');
const sixToFour = cidrs('2002::/16');

const mapped = (bytes: Address) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes]);

/** IPv6 forms that carry an IPv4 address a connection may end up at: compatible, NAT64, 6to4 (mapped already is). */
function embeddedIpv4(address: Address): Address | undefined {
  if (within(address, ipv4Compatible) && !within(address, unspecified) && !within(address, loopback)) {
    return mapped(address.subarray(12));
  }
  if (within(address, nat64)) return mapped(address.subarray(12));
  if (within(address, sixToFour)) return mapped(address.subarray(2, 6));
  return undefined;
}

export interface DestinationPolicy {
  /** Loopback and the local networks allowed (a kiosk, or a service of one company). */
  allowPrivate: boolean;
  /** What the device owner allows besides: ranges reached even on a shared hub, link-local ones included. */
  allowed: readonly Cidr[];
  /** The service's own ports: refused on its own addresses (loopback, unspecified, its interfaces). */
  ownPorts: readonly number[];
  /** The device's own interface addresses. */
  ownAddresses: readonly string[];
}

export type Refusal = 'unspecified' | 'own-port' | 'link-local-or-reserved' | 'private';

/** Each refusal in words, after the address: "169.254.169.254 is a link-local, metadata or reserved address". */
export const refusalWords: Readonly<Record<Refusal, string>> = {
  unspecified: 'an unspecified address',
  'own-port': "this service's own port",
  'link-local-or-reserved': 'a link-local, metadata or reserved address',
  private: 'a local network, which this shared service does not reach',
};

/** Why a connection to `address`:`port` is refused, or undefined when it may be made. */
export function refusalOf(policy: DestinationPolicy, addressText: string, port: number): Refusal | undefined {
  const parsed = parseAddress(addressText);
  if (!parsed) return 'link-local-or-reserved';
  const address = embeddedIpv4(parsed) ?? parsed;
  if (within(address, unspecified)) return 'unspecified';
  if (policy.ownPorts.includes(port)) {
    const own = policy.ownAddresses.map(parseAddress).filter((a): a is Address => a !== undefined);
    if (within(address, loopback) || own.some((a) => inPrefix(address, a, 128))) return 'own-port';
  }
  if (within(address, policy.allowed)) return undefined;
  if (within(address, neverReached)) return 'link-local-or-reserved';
  if (within(address, privateRanges) && !policy.allowPrivate) return 'private';
  return undefined;
}

/** `a,b,c` from a flag or a setting into ranges; the first that is not a range or address is named. */
export function parseCidrList(text: string): { ok: true; cidrs: Cidr[] } | { ok: false; bad: string } {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed: Cidr[] = [];
  for (const item of items) {
    const cidr = parseCidr(item);
    if (!cidr) return { ok: false, bad: item };
    parsed.push(cidr);
  }
  return { ok: true, cidrs: parsed };
}
