import { companyCaller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { sendMail } from '../notifications/email.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { type JobHandler, PermanentJobError } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { invitationMail } from './message.ts';
import type { InvitationPayload } from './queue.ts';

/**
 * Sends a queued invitation e-mail, made now from the invitation as it is: one queued before a later update or
 * cancellation (a higher sequence) is not sent, the later one says it all. Sent with the company's settings of now.
 */
export function deliverInvitation(ctx: Context): JobHandler {
  return async (job, signal) => {
    const payload = job.payload as InvitationPayload;
    const current = (await prepared(
      ctx.db,
      'SELECT sequence FROM invitations WHERE companyId = ? AND inviteeId = ?',
    ).get(job.companyId, payload.inviteeId)) as { sequence: number } | undefined;
    if (!current || current.sequence > payload.sequence) return;
    // Deleted invitees too: a deletion sends the cancellation. An invitee erased since (privacy) is gone.
    const invitee = (await prepared(ctx.db, 'SELECT * FROM invitees WHERE id = ? AND companyId = ?').get(
      payload.inviteeId,
      job.companyId,
    )) as InviteeRow | undefined;
    const caller = await companyCaller(ctx, job.companyId);
    if (!invitee?.email || !caller) return;
    const settings = await findNotificationSettings(ctx, job.companyId);
    if (!settings?.smtpHost) throw new PermanentJobError('e-mail is no longer configured');
    const mail = await invitationMail(ctx, caller, invitee, payload);
    await sendMail(ctx, settings, { key: job.idempotencyKey, ...mail }, signal);
  };
}
