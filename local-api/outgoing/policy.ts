import { networkInterfaces } from 'node:os';
import type { Context } from '../context.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { type Cidr, type DestinationPolicy, parseCidrList } from './destinations.ts';

/** The ports this service listens on, by database: requests to them on the device's own addresses are refused. */
const ownPorts = new WeakMap<Db, number[]>();

export function registerOwnPort(db: Db, port: number): void {
  ownPorts.set(db, [...(ownPorts.get(db) ?? []), port]);
}

/** The ranges the device owner allows, as saved (`portaria serve --allow-destinations`). */
export function allowedDestinations(ctx: Pick<Context, 'db'>): Cidr[] {
  const row = prepared(ctx.db, 'SELECT allowedDestinations FROM outgoing_policy WHERE id = 1').get() as
    | { allowedDestinations: string }
    | undefined;
  const parsed = parseCidrList(row?.allowedDestinations ?? '');
  return parsed.ok ? parsed.cidrs : [];
}

/** Saves the owner's ranges (already validated with parseCidrList); an empty list allows nothing more. */
export function saveAllowedDestinations(ctx: Pick<Context, 'db' | 'clock'>, cidrs: readonly Cidr[]): void {
  prepared(
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
export function destinationPolicy(ctx: Pick<Context, 'db'>): DestinationPolicy {
  const kiosk = prepared(ctx.db, 'SELECT upstreamUrl FROM sync_state WHERE id = 1').get() as
    | { upstreamUrl: string | null }
    | undefined;
  const companies = prepared(ctx.db, 'SELECT COUNT(*) AS n FROM companies WHERE deletedAt IS NULL').get() as {
    n: number;
  };
  return {
    allowPrivate: Boolean(kiosk?.upstreamUrl) || companies.n <= 1,
    allowed: allowedDestinations(ctx),
    ownPorts: ownPorts.get(ctx.db) ?? [],
    ownAddresses: deviceAddresses(),
  };
}
