import { findAccessConfig } from '../access/store.ts';
import type { Context } from '../context.ts';
import type { EventListener } from '../events.ts';
import { channels } from '../notifications/channels.ts';
import { sendMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
import { findNotificationSettings, type NotificationSettings } from '../notifications/settings.ts';
import { e164, sendSms } from '../notifications/sms.ts';
import { canLink, publicLink } from '../public/links.ts';
import { enqueue, type JobHandler, jobsWithKeyPrefix, PermanentJobError } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { type PassMail, passMail } from './mail.ts';
import { visitPassLinkMs } from './state.ts';
import { passWords } from './words.ts';

/*
 * The walk-in's pass message (docs/access-control.md, "The pass page"): after a check-in taken at a kiosk or the
 * front desk, a visitor who gave an e-mail or a phone is sent a link to the page that shows their live gate code,
 * so the turnstile works after they leave the screen. Queued in the check-in's own transaction on the service that
 * took it (a check-in replayed at the hub was sent by its kiosk), sent by the queue once it commits: by e-mail
 * where the company sends e-mail, by SMS where it has an SMS API, by both when it has both.
 */

export const passMessageKind = 'visitor-pass';

/**
 * One message, its words fixed when it was queued (in the company's language; an e-mail's HTML is rendered when
 * it is sent, outside the check-in's transaction). It names its visit, so that erasing the visitor drops a message
 * not yet sent (privacy/store.ts).
 */
type PassMessage = { visitId: string } & (
  | ({ channel: 'email'; to: string } & PassMail)
  | { channel: 'sms'; to: string; body: string }
);

const sendsEmail = (settings: NotificationSettings) => channels.email.isConfigured(settings);
const sendsSms = (settings: NotificationSettings) => channels.sms.isConfigured(settings);

/**
 * Whether the visit's gate pass was sent to the visitor (a message queued by its check-in or its allowance): where
 * not, the kiosk prints the gate code on the badge, the one thing the visitor takes to the turnstile.
 */
export async function passMessageQueued(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  visitId: string,
): Promise<boolean> {
  return (await jobsWithKeyPrefix(ctx, companyId, passMessageKind, `pass:${visitId}:`)).length > 0;
}

/**
 * Whether a walk-in who gives an e-mail or a phone is sent the link to their pass: the company sends e-mail or
 * SMS, and links can be made (a public address, the company's link key). Where not, the kiosk prints the gate
 * code on the badge (`passLinks` of GET /v1/kiosk/company).
 */
export async function sendsPassLinks(ctx: Context, companyId: string): Promise<boolean> {
  const settings = await findNotificationSettings(ctx, companyId);
  return settings !== undefined && (sendsEmail(settings) || sendsSms(settings)) && (await canLink(ctx, companyId));
}

/** Check-ins made by the company's own screens: a client of the API tells its visitors itself. */
const takenOnSite = new Set(['IPAD', 'DASHBOARD']);

interface CheckedIn {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  checkinAt: number;
  checkinType: string | null;
  inviteeId: string | null;
  visitorStatus: string | null;
  heldAtDoor: number;
}

/**
 * On a walk-in's check-in (or, for one held at the door, when the desk lets them in): queues the link to their
 * pass, once per visit and channel. Nothing when access control is off, the service has no public address (the
 * kiosk then prints the code on the badge), or the visitor gave nothing the company can send to. An invitee's
 * invitation carried their pass already.
 */
export function passMessageListener(ctx: Context): EventListener {
  return async ({ name, caller, row }) => {
    if (caller.replayedFor !== undefined || (name !== 'visit.checkin' && name !== 'visit.allowed') || !row) return;
    const visit = row as unknown as CheckedIn;
    if (!takenOnSite.has(visit.checkinType ?? '') || visit.inviteeId !== null || !(visit.email || visit.phone)) return;
    if (visit.visitorStatus === 'BLOCKED' || (name === 'visit.checkin' && Number(visit.heldAtDoor) === 1)) return;
    const access = await findAccessConfig(ctx, caller.companyId);
    const settings = await findNotificationSettings(ctx, caller.companyId);
    if (!access?.enabled || access.aesKey === '' || !settings) return;
    const company = (await prepared(ctx.db, 'SELECT name, countryCode, brandColor FROM companies WHERE id = ?').get(
      caller.companyId,
    )) as { name: string; countryCode: string | null; brandColor: string | null };
    // The visitor's number as typed at the screen, in the company's country unless it carries its own.
    const phone = sendsSms(settings) ? e164(visit.phone, company.countryCode) : null;
    const email = sendsEmail(settings) ? visit.email : null;
    if (!phone && !email) return;
    const link = await publicLink(ctx, caller.companyId, {
      purpose: 'pass',
      subjectId: visit.id,
      expiresAt: Number(visit.checkinAt) + visitPassLinkMs,
    });
    if (link === undefined) return;
    const messages: PassMessage[] = [];
    if (email) {
      const mail = { lang: caller.lang, name: visit.name ?? '', company: company.name, brandColor: company.brandColor };
      messages.push({ visitId: visit.id, channel: 'email', to: email, ...mail, link });
    }
    if (phone) {
      const body = fill(passWords(caller.lang).smsText, { company: company.name, link });
      messages.push({ visitId: visit.id, channel: 'sms', to: phone, body });
    }
    for (const message of messages) {
      await enqueue(ctx, {
        companyId: caller.companyId,
        kind: passMessageKind,
        idempotencyKey: `pass:${visit.id}:${message.channel}`,
        payload: message,
        // The hosts' messages go through the same SMTP server and SMS API: their slots and breakers are shared.
        endpoint: `notification:${message.channel}`,
      });
    }
  };
}

/** Sends one pass message with the company's settings of now (a corrected password helps the retries). */
export function passMessageHandler(ctx: Context): JobHandler {
  return async (job, signal) => {
    const message = job.payload as PassMessage;
    const settings = await findNotificationSettings(ctx, job.companyId);
    if (message.channel === 'email') {
      if (!settings || !sendsEmail(settings)) throw new PermanentJobError('e-mail is no longer configured');
      const { visitId: _visit, channel: _channel, to, ...mail } = message;
      await sendMail(ctx, settings, { key: job.idempotencyKey, to: [to], ...(await passMail(mail)) }, signal);
    } else {
      if (!settings || !sendsSms(settings)) throw new PermanentJobError('SMS is no longer configured');
      await sendSms(ctx, settings, { key: job.idempotencyKey, to: message.to, body: message.body }, signal);
    }
  };
}
