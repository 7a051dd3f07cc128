import type { Context } from '../context.ts';
import type { EventListener } from '../events.ts';
import { prepared } from '../store/rows.ts';
import { endSessionsOf } from './sessions.ts';

/**
 * A person deactivated (`isActive: false`) or deleted signs out everywhere at once, in the write's transaction:
 * their sessions are gone, not merely refused (sessions.ts refuses them too), so making them active again does
 * not bring old sessions back. A deleted host's account goes too: its password hash and its links.
 */
export function endAccountsOfInactive(ctx: Pick<Context, 'db'>): EventListener {
  return async (event) => {
    if (event.name !== 'host.updated' && event.name !== 'host.deleted') return;
    const host = await event.object();
    if (event.name === 'host.updated' && host.isActive !== false) return;
    const person = { companyId: event.caller.companyId, hostId: String(host.id) };
    await endSessionsOf(ctx, person);
    if (event.name !== 'host.deleted') return;
    for (const table of ['accounts', 'account_tokens']) {
      await prepared(ctx.db, `DELETE FROM ${table} WHERE companyId = ? AND hostId = ?`).run(
        person.companyId,
        person.hostId,
      );
    }
  };
}
