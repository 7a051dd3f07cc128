import type { Context } from '../context.ts';
import type { EventListener } from '../events.ts';
import { ApiError } from '../http/errors.ts';
import { mutationOfEvent, setRegisterHlc } from './mutations.ts';
import { recordMutation } from './outbox.ts';
import { nextHlc, syncState } from './state.ts';

/**
 * The sync side of every write, run inside its transaction.
 *
 * On every service, an allow or deny stamps the visit's authorization with the hybrid logical clock, so that
 * decisions made here and decisions pushed by kiosks are ordered alike (last writer wins).
 *
 * On a kiosk, for its hub company, a write becomes a mutation in the outbox, committed with the write itself, or,
 * when it changes data the hub owns (hosts, invitees' details, a visit's details), is refused: such changes are
 * made at the hub and reach the kiosk by the pull.
 */
export function syncListener(ctx: Context): EventListener {
  return (event) => {
    const authorization = event.name === 'visit.allowed' || event.name === 'visit.denied';
    const state = syncState(ctx);
    const kiosk = state.upstreamUrl !== null && state.companyId === event.caller.companyId;
    if (!kiosk && !authorization) return;
    const mutation = kiosk ? mutationOfEvent(ctx, event) : null;
    if (mutation === undefined) throw new ApiError('MANAGED_BY_HUB');
    const hlc = nextHlc(ctx);
    if (authorization) setRegisterHlc(ctx, 'visits', String(event.object().id), 'authorization', hlc);
    if (mutation) recordMutation(ctx, event.caller.companyId, mutation, hlc);
  };
}
