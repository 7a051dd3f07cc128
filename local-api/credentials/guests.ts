import { ApiError } from '../http/errors.ts';
import type { Db } from '../store/db.ts';
import { type Condition, textPosition } from '../store/rows.ts';
import { actsForGuestsOf, type Caller, type GuestWork, readsGuestsOf } from './caller.ts';

/*
 * A person's own guests (docs/security.md, "People's roles"): the stores add these conditions to their queries, so a
 * `host` person's lists, reads by id, counts and exports hold only their own guests, in the same statement.
 */

/** Invitees and visits a caller reads: a `host` person's are those they host; undefined for every host's. */
export function guestsScope(caller: Caller, column = 'hostId'): Condition | undefined {
  const hostId = readsGuestsOf(caller);
  return hostId === undefined ? undefined : { sql: `${column} = :guestsOf`, params: { guestsOf: hostId } };
}

/**
 * Meetings a caller reads: a `host` person's are those they host or co-host (`coHosts` is a JSON array of host ids,
 * so the id in quotes is found in it as one whole element).
 */
export function meetingsScope(db: Db, caller: Caller): Condition | undefined {
  const hostId = readsGuestsOf(caller);
  if (hostId === undefined) return undefined;
  return {
    sql: `(hostId = :guestsOf OR ${textPosition(db, 'coHosts', ':coHostOf')} > 0)`,
    params: { guestsOf: hostId, coHostOf: JSON.stringify(hostId) },
  };
}

/**
 * Refuses (403 FORBIDDEN) `work` for a guest of `hostId` that the caller may only do for their own guests: a
 * manager changing a colleague's invitee they can read, a host inviting for another host.
 */
export function requireOwnGuest(caller: Caller, work: GuestWork, hostId: string | null | undefined): void {
  const own = actsForGuestsOf(caller, work);
  if (own !== undefined && hostId !== own) throw new ApiError('FORBIDDEN');
}
