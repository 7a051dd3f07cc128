import { addressWithin, type Cidr, parseAddress } from '../outgoing/destinations.ts';

/**
 * Where a request comes from, for counting what it gets wrong (docs/deployment.md, "Load balancer").
 * Express's `trust proxy`: the socket's peer is the client, unless the device owner declared it a proxy
 * (`serve --trust-proxy <cidr,...>`); then `req.ip` is the address it forwarded in `X-Forwarded-For`, read from the
 * right past every declared proxy. The header of any other peer is its own claim, ignored: a client could otherwise
 * name a new address with every request.
 */
export function trustedProxies(ranges: readonly Cidr[]): false | ((address: string) => boolean) {
  return ranges.length === 0 ? false : (address) => addressWithin(address, ranges);
}

/**
 * The source a client's failures are counted against: its IPv4 address, or its IPv6 /64. One subscriber, one
 * machine even, is handed a whole /64, and counting its addresses one by one would give it 2⁶⁴ fresh starts.
 */
export function guessSource(address: string | undefined): string {
  const bytes = address === undefined ? undefined : parseAddress(address);
  if (!bytes) return address ?? 'unknown';
  const mapped = bytes.subarray(0, 12).every((byte, i) => byte === (i < 10 ? 0 : 0xff));
  if (mapped) return bytes.subarray(12).join('.');
  const groups = Array.from({ length: 4 }, (_, i) =>
    (((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0)).toString(16),
  );
  return `${groups.join(':')}::/64`;
}
