import type { Context } from '../context.ts';
import type { EventListener, EventName, WriteRule } from '../events.ts';
import { ApiError } from '../http/errors.ts';
import { isKioskWrite, mutationOfEvent, registerHlc, setRegisterHlc } from './mutations.ts';
import { recordMutation } from './outbox.ts';
import { isKioskOf, type SyncRole, syncRole } from './role.ts';
import { nextHlc, receiveRemoteHlc } from './state.ts';

/**
 * The decision on a write at this service: on a kiosk, for its hub company, a write that changes data the hub owns
 * (hosts, invitees' details, a visit's details, the settings, erasures: every write that is not a kiosk's, see
 * `isKioskWrite`) is refused, 409 MANAGED_BY_HUB. Such changes are made at the hub and reach the kiosk by the pull.
 */
export function hubManagedRefusal(name: EventName, companyId: string, state: SyncRole): 'MANAGED_BY_HUB' | null {
  return isKioskOf(state, companyId) && !isKioskWrite(name) ? 'MANAGED_BY_HUB' : null;
}

/** `hubManagedRefusal` as the rule every write is decided by, before it runs (docs/sync.md). */
export function hubManagedRule(ctx: Context): WriteRule {
  return async (name, caller) => {
    const refusal = hubManagedRefusal(name, caller.companyId, await syncRole(ctx));
    if (refusal) throw new ApiError(refusal);
  };
}

/**
 * The sync side of every write, run inside its transaction.
 *
 * On every service, an allow or deny stamps the visit's authorization with the hybrid logical clock, so that
 * decisions made here and decisions pushed by kiosks are ordered alike (last writer wins); past the stamp it holds,
 * which another process of the hub may have made with a clock of its own.
 *
 * On a kiosk, for its hub company, a write becomes a mutation in the outbox, committed with the write itself.
 */
export function syncListener(ctx: Context): EventListener {
  return async (event) => {
    const authorization = event.name === 'visit.allowed' || event.name === 'visit.denied';
    const kiosk = isKioskOf(await syncRole(ctx), event.caller.companyId);
    if (!kiosk && !authorization) return;
    const mutation = kiosk ? await mutationOfEvent(ctx, event) : null;
    // A write the hub owns was refused by `hubManagedRule` before it ran; one that reaches here skipped the rule.
    if (mutation === undefined) throw new Error(`${event.name} was written on a kiosk without ctx.events.decide`);
    const id = String(event.row?.id ?? (await event.object()).id);
    // A decision made after another is later, whichever process of a hub made the other.
    const held = authorization ? await registerHlc(ctx, 'visits', id, 'authorization') : undefined;
    if (held !== undefined) await receiveRemoteHlc(ctx, held);
    const hlc = await nextHlc(ctx);
    if (authorization) await setRegisterHlc(ctx, 'visits', id, 'authorization', hlc);
    if (mutation) await recordMutation(ctx, event.caller.companyId, mutation, hlc);
  };
}
