import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { requireOwnGuest } from '../credentials/guests.ts';
import { ApiError } from '../http/errors.ts';
import { getInvitee } from '../invitees/store.ts';
import { emailConfigured, queueInvitation } from './queue.ts';

/**
 * Sends an invitee's invitation e-mail again, as the invitation is now (`POST /v1/invitee/:id/resend`). Refused
 * without e-mail set up (`CHANNEL_NOT_CONFIGURED`), for an invitee without an e-mail (`MISSING_EMAIL`) or canceled
 * (`INVITEE_CANCELED`); on a kiosk of a hub, as every invitee write, `MANAGED_BY_HUB`: the hub sends invitations.
 */
export async function resendInvitation(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const invitee = await getInvitee(ctx, caller, id);
    requireOwnGuest(caller, 'invite', invitee.hostId);
    await ctx.events.decide('invitee.updated', caller);
    if (!(await emailConfigured(ctx, caller.companyId))) throw new ApiError('CHANNEL_NOT_CONFIGURED');
    if (!invitee.email) throw new ApiError('MISSING_EMAIL');
    if (invitee.status === 'canceled') throw new ApiError('INVITEE_CANCELED');
    await queueInvitation(ctx, caller, invitee, 'resend');
    await recordAudit(ctx, auditActor(caller), {
      action: 'invitee.invitation.resent',
      objectType: 'invitee',
      objectId: invitee.id,
    });
  });
}
