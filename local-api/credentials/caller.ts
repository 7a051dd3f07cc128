/**
 * Who is calling: the principals a request may authenticate as. This module imports nothing, so every layer (the
 * stores, the event bus, the HTTP glue) can name a caller without depending on where credentials are kept.
 */

/**
 * The roles of a company's credentials (docs/security.md has the matrix of what each may call):
 * - `admin`: the company's API key; every company route.
 * - `readonly`: reads the company's records, changes nothing, sees no secret and no credential.
 * - `frontdesk`: the staff session a PIN mints at the kiosk (short-lived, idle expiry): the roster, approvals and
 *   the kiosk's settings; secrets are write-only.
 * - `kiosk`: the self-service screen in the lobby: only the `/v1/kiosk/*` visitor endpoints.
 * - `sync`: a kiosk device of a hub: pushes its mutations and pulls the company's feed, nothing else.
 * - `manager`, `security`, `host`: people signed in to the console (docs/console.md), by their host's role.
 */
export const companyRoles = ['admin', 'readonly', 'frontdesk', 'kiosk', 'sync', 'manager', 'security', 'host'] as const;
export type Role = (typeof companyRoles)[number];

/** A request made with a company's credential. */
export interface Caller {
  companyId: string;
  timeZone: string;
  lang: string;
  role: Role;
  /**
   * The credential that acted (a key's or a session's id), for the audit trail. Work the service does by itself
   * acts as `systemCredentialId`.
   */
  credentialId: string;
  /** The person acting, when the caller is a console session (docs/console.md, "Signing in and accounts"). */
  hostId?: string;
  /**
   * Set when a hub replays a write a kiosk already made offline (sync push): the kiosk has done that write's
   * local duties (the gate callback), so listeners that act for the device skip it.
   */
  replayedFor?: string;
}

/** The credential id of the service's own background work (the retention sweep). */
export const systemCredentialId = 'system';

/** The credential id of the device owner acting on the data folder itself (the command line), for the audit log. */
export const deviceOwnerCredentialId = 'device-owner';

/**
 * The device owner: above companies, for what concerns the device or the whole service (following a hub, creating
 * companies, choosing the company the kiosk serves). The CLI on the machine acts as the owner directly on the data
 * folder; remotely, through an owner token the CLI creates.
 */
export interface DeviceOwner {
  role: 'owner';
  credentialId: string;
}

export type Principal = Caller | DeviceOwner;

export const isDeviceOwner = (principal: Principal): principal is DeviceOwner => principal.role === 'owner';

/** Role sets routes grant, named once so the matrix reads the same everywhere. */
export const roles = {
  admin: ['admin'],
  /** Reading the company's records: the roster and lists. */
  readers: ['admin', 'readonly', 'frontdesk'],
  /** Reading what the company did, without the roster's staff: the audit trail. */
  reviewers: ['admin', 'readonly'],
  /** Staff at the kiosk: what the front desk changes besides the admin. */
  staff: ['admin', 'frontdesk'],
  /** Whoever stands at the kiosk's screen: its visitors and its staff. */
  atTheKiosk: ['admin', 'frontdesk', 'kiosk'],
  /** Everyone of the company but a hub's kiosk device. */
  company: ['admin', 'readonly', 'frontdesk', 'kiosk'],
  kiosk: ['admin', 'kiosk'],
  sync: ['admin', 'sync'],
  /** The company's figures: the analytics of its visits (docs/console.md, "Analytics"). */
  analysts: ['admin', 'manager'],
} as const satisfies Record<string, readonly Role[]>;
