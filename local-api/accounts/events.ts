import type { Context } from '../context.ts';
import type { EventListener } from '../events.ts';
import { endSessionsOf } from './sessions.ts';

/**
 * A person deactivated (`isActive: false`) or deleted signs out everywhere at once, in the write's transaction:
 * their sessions are gone, not merely refused (sessions.ts refuses them too), so making them active again does
 * not bring old sessions back.
 */
export function endSessionsOfInactive(ctx: Pick<Context, 'db'>): EventListener {
  return async (event) => {
    if (event.name !== 'host.updated' && event.name !== 'host.deleted') return;
    const host = await event.object();
    if (event.name === 'host.updated' && host.isActive !== false) return;
    await endSessionsOf(ctx, { companyId: event.caller.companyId, hostId: String(host.id) });
  };
}
