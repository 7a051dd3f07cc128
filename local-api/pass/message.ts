import { findAccessConfig } from '../access/store.ts';
import type { Context } from '../context.ts';
import type { EventListener } from '../events.ts';
import { sendMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { publicLink } from '../public/links.ts';
import { enqueue, type JobHandler, PermanentJobError } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { visitPassLinkMs } from './state.ts';
import { passWords } from './words.ts';

/*
 * The walk-in's pass message (docs/access-control.md, "The pass page"): after a check-in taken at a kiosk or the
 * front desk, a visitor who gave an e-mail is sent a link to the page that shows their live gate code, so the
 * turnstile works after they leave the screen. Queued in the check-in's own transaction on the service that took
 * it (a check-in replayed at the hub was sent by its kiosk), sent by the queue once it commits.
 */

export const passMessageKind = 'visitor-pass';

/** One message, rendered when it was queued (in the company's language). */
interface PassMessage {
  channel: 'email';
  to: string;
  subject: string;
  text: string;
}

/** Check-ins made by the company's own screens: a client of the API tells its visitors itself. */
const takenOnSite = new Set(['IPAD', 'DASHBOARD']);

interface CheckedIn {
  id: string;
  name: string | null;
  email: string | null;
  checkinAt: number;
  checkinType: string | null;
  inviteeId: string | null;
  visitorStatus: string | null;
  heldAtDoor: number;
}

/**
 * On a walk-in's check-in (or, for one held at the door, when the desk lets them in): queues the link to their
 * pass, once per visit. Nothing when access control is off, the service has no public address (the kiosk then
 * prints the code on the badge), the visitor gave no e-mail or the company sends no e-mail. An invitee's
 * invitation carried their pass already.
 */
export function passMessageListener(ctx: Context): EventListener {
  return async ({ name, caller, row }) => {
    if (caller.replayedFor !== undefined || (name !== 'visit.checkin' && name !== 'visit.allowed') || !row) return;
    const visit = row as unknown as CheckedIn;
    if (!takenOnSite.has(visit.checkinType ?? '') || visit.inviteeId !== null || !visit.email) return;
    if (visit.visitorStatus === 'BLOCKED' || (name === 'visit.checkin' && Number(visit.heldAtDoor) === 1)) return;
    const access = await findAccessConfig(ctx, caller.companyId);
    if (!access?.enabled || access.aesKey === '') return;
    const settings = await findNotificationSettings(ctx, caller.companyId);
    if (!settings || settings.smtpHost === '') return;
    const link = await publicLink(ctx, caller.companyId, {
      purpose: 'pass',
      subjectId: visit.id,
      expiresAt: Number(visit.checkinAt) + visitPassLinkMs,
    });
    if (link === undefined) return;
    const company = (await prepared(ctx.db, 'SELECT name FROM companies WHERE id = ?')
      .pluck()
      .get(caller.companyId)) as string;
    const words = passWords(caller.lang);
    const values = { name: visit.name ?? '', company, link };
    const message: PassMessage = {
      channel: 'email',
      to: visit.email,
      subject: fill(words.mailSubject, values),
      text: fill(words.mailText, values),
    };
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: passMessageKind,
      idempotencyKey: `pass:${visit.id}:${message.channel}`,
      payload: message,
      // The same SMTP server as the hosts' e-mail: its slots and its breaker are shared.
      endpoint: 'notification:email',
    });
  };
}

/** Sends one pass message with the company's settings of now. */
export function passMessageHandler(ctx: Context): JobHandler {
  return async (job, signal) => {
    const message = job.payload as PassMessage;
    const settings = await findNotificationSettings(ctx, job.companyId);
    if (!settings || settings.smtpHost === '') throw new PermanentJobError('e-mail is no longer configured');
    await sendMail(
      ctx,
      settings,
      { key: job.idempotencyKey, to: [message.to], subject: message.subject, text: message.text },
      signal,
    );
  };
}
