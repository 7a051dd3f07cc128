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

/*
 * The people's roles (docs/security.md, "People's roles"), sessions only, always with their `hostId`:
 * - `manager`: reads what `readonly` reads, the audit trail and the visit log; invites and decides for their own
 *   guests.
 * - `security`: the desk's work (the day, approvals, the roster, check-in and out, the blocklist), reads as the front
 *   desk does; invites for their own guests.
 * - `host` (HOST and EMPLOYEE people): their own guests only (invitees, meetings, visits, the day and the visit log
 *   scoped to them), the company's definitions and the host directory's names.
 */

/** The roles only a person's console session has (no key is issued with them): such a caller names its host. */
export const sessionOnlyRoles: readonly Role[] = ['manager', 'security', 'host'];

/**
 * The host a person's session acts for. Sessions are made for a host row, so a caller of a people's role always
 * has one: one without it was made wrong, and is refused rather than given the company's view.
 */
export function personHostId(caller: Caller): string {
  if (caller.hostId === undefined) throw new Error(`a ${caller.role} caller without its host`);
  return caller.hostId;
}

/**
 * The host whose guests alone the caller reads (invitees, meetings, visits, the day, the visit log, their files): a
 * `host` person's own; undefined for the roles that read every host's.
 */
export const readsGuestsOf = (caller: Caller): string | undefined =>
  caller.role === 'host' ? personHostId(caller) : undefined;

/**
 * What is done to a guest: inviting (creating and changing invitees and meetings) or deciding (allowing or denying
 * a visit). The admin and the front desk do both for every host; security decides at the desk for every host.
 */
export type GuestWork = 'invite' | 'decide';

/** The host whose guests alone the caller may do `work` for, or undefined for every host's. */
export function actsForGuestsOf(caller: Caller, work: GuestWork): string | undefined {
  const own = caller.role === 'host' || caller.role === 'manager' || (caller.role === 'security' && work === 'invite');
  return own ? personHostId(caller) : undefined;
}

/** Role sets routes grant, named once so the matrix reads the same everywhere. */
export const roles = {
  admin: ['admin'],
  /** Reading the company's records: the roster and lists. */
  readers: ['admin', 'readonly', 'frontdesk', 'manager', 'security'],
  /** Reading a host's guests: the readers see every host's, a `host` person its own (`readsGuestsOf`). */
  guestReaders: ['admin', 'readonly', 'frontdesk', 'manager', 'security', 'host'],
  /** Reading what the company did, without the roster's staff: the audit trail. */
  reviewers: ['admin', 'readonly', 'manager'],
  /** Staff at the kiosk: its settings and the company's, which the front desk changes besides the admin. */
  staff: ['admin', 'frontdesk'],
  /** The desk's work on every visitor: check-in and out, the blocklist, the roll call. */
  desk: ['admin', 'frontdesk', 'security'],
  /** Inviting: the admin and the front desk for every host, people for themselves (`actsForGuestsOf`). */
  inviters: ['admin', 'frontdesk', 'manager', 'security', 'host'],
  /** Allowing and denying visits: the desk for every host, people for their own visitors (`actsForGuestsOf`). */
  deciders: ['admin', 'frontdesk', 'security', 'manager', 'host'],
  /** Whoever stands at the kiosk's screen: its visitors and its staff. */
  atTheKiosk: ['admin', 'frontdesk', 'kiosk'],
  /** Everyone of the company but a hub's kiosk device and the `host` people. */
  company: ['admin', 'readonly', 'frontdesk', 'kiosk', 'manager', 'security'],
  /** What an invitation is made of (custom fields, visitor types): everyone of the company but a hub's device. */
  definitions: ['admin', 'readonly', 'frontdesk', 'kiosk', 'manager', 'security', 'host'],
  kiosk: ['admin', 'kiosk'],
  sync: ['admin', 'sync'],
  /** The company's figures: the analytics of its visits (docs/console.md, "Analytics"). */
  analysts: ['admin', 'manager'],
} as const satisfies Record<string, readonly Role[]>;

/** The host roles (the person's) and the company roles their sessions act with (docs/console.md, "People and roles"). */
const roleOfPerson: Readonly<Record<string, Role>> = {
  ADMIN: 'admin',
  MANAGER: 'manager',
  SECURITY: 'security',
  FRONTDESK: 'frontdesk',
  HOST: 'host',
  EMPLOYEE: 'host',
};

export const callerRoleOf = (personRole: string): Role => roleOfPerson[personRole] ?? 'host';
