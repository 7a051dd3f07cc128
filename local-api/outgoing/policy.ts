import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Context } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { type Cidr, type DestinationPolicy, parseCidrList, refusalOf, refusalWords } from './destinations.ts';

/** The ports this service listens on, by database: requests to them on the device's own addresses are refused. */
const ownPorts = new WeakMap<Db, number[]>();

export function registerOwnPort(db: Db, port: number): void {
  ownPorts.set(db, [...(ownPorts.get(db) ?? []), port]);
}

/** The ranges the device owner allows, as saved (`portaria serve --allow-destinations`). */
export async function allowedDestinations(ctx: Pick<Context, 'db'>): Promise<Cidr[]> {
  const row = (await prepared(ctx.db, 'SELECT allowedDestinations FROM outgoing_policy WHERE id = 1').get()) as
    | { allowedDestinations: string }
    | undefined;
  const parsed = parseCidrList(row?.allowedDestinations ?? '');
  return parsed.ok ? parsed.cidrs : [];
}

/** Saves the owner's ranges (already validated with parseCidrList); an empty list allows nothing more. */
export async function saveAllowedDestinations(
  ctx: Pick<Context, 'db' | 'clock'>,
  cidrs: readonly Cidr[],
): Promise<void> {
  await prepared(
    ctx.db,
    `INSERT INTO outgoing_policy (id, allowedDestinations, updatedAt) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET allowedDestinations = excluded.allowedDestinations, updatedAt = excluded.updatedAt`,
  ).run(cidrs.map((c) => c.text).join(','), ctx.clock.now());
}

function deviceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/**
 * The policy of this service now. Loopback and the local networks are allowed on a kiosk (it has an upstream hub;
 * its gate is on the LAN) and on a service of one company, whose owner is the device's; on a hub shared by several
 * companies only the ranges the device owner allows: a tenant must not reach, or probe, the network it runs in.
 */
export async function destinationPolicy(ctx: Pick<Context, 'db'>): Promise<DestinationPolicy> {
  const kiosk = (await prepared(ctx.db, 'SELECT upstreamUrl FROM sync_state WHERE id = 1').get()) as
    | { upstreamUrl: string | null }
    | undefined;
  const companies = (await prepared(ctx.db, 'SELECT COUNT(*) AS n FROM companies WHERE deletedAt IS NULL').get()) as {
    n: number;
  };
  return {
    allowPrivate: Boolean(kiosk?.upstreamUrl) || companies.n <= 1,
    allowed: await allowedDestinations(ctx),
    ownPorts: ownPorts.get(ctx.db) ?? [],
    ownAddresses: deviceAddresses(),
  };
}

/** Where an outgoing address points: a URL's host and port, or a host given with its port (the SMTP server's). */
export type Destination = { url: string } | { host: string; port: number };

/** The host as a URL parser reads it (`127.1` is `127.0.0.1`, IPv6 unbracketed) and the port it connects to. */
function hostAndPort(destination: Destination): { host: string; port: number } {
  const url =
    'url' in destination
      ? new URL(destination.url)
      : new URL(
          `http://${destination.host.includes(':') ? `[${destination.host.replace(/^\[|\]$/g, '')}]` : destination.host}`,
        );
  const port = 'port' in destination ? destination.port : Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
}

/**
 * An outgoing address as it is saved (a webhook's, the gate's, the notification webhook's URL, the SMTP host),
 * judged by the rule each connection is judged by (`refusalOf`, with this device's policy now): an address the
 * policy refuses is refused when saved, **400** `DESTINATION_REFUSED` naming the field and why, rather than at every
 * delivery. A name is judged at each connection, after DNS (it may resolve differently later); so is everything
 * again at send time, as the policy may have changed (a second company makes a hub shared).
 */
export async function requireAllowedDestination(
  ctx: Pick<Context, 'db'>,
  field: string,
  destination: Destination,
): Promise<void> {
  const { host, port } = hostAndPort(destination);
  if (host === '' || isIP(host) === 0) return;
  const refusal = refusalOf(await destinationPolicy(ctx), host, port);
  if (refusal) {
    throw new ApiError('DESTINATION_REFUSED', {
      field,
      reason: refusal,
      message: `${host} is ${refusalWords[refusal]}`,
    });
  }
}
