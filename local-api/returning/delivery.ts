import type { Context } from '../context.ts';
import { sendMail } from '../notifications/email.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { e164, sendSms } from '../notifications/sms.ts';
import { type JobHandler, PermanentJobError } from '../queue/queue.ts';
import { isLanguage } from '../rules/lang.ts';
import { prepared } from '../store/rows.ts';
import type { CodeChannel } from './schema.ts';
import { codeChannelsOf } from './store.ts';
import { codeMessage } from './words.ts';

interface CodePayload {
  challenge: string;
  channel: CodeChannel;
  lang: string;
  /** Sealed with the device key. */
  code: string;
  /** The calling code typed in front of a phone the record keeps without one (see `callingCodeTyped`). */
  callingCode?: string;
}

/**
 * Sends a returning visitor's one-time code, when the challenge is still open and names a visitor who can be found
 * (docs/security.md, "Returning visitors"): to the e-mail or phone their record holds, not to what was typed. A
 * challenge for an address nobody has is dropped here, unsent, so that the request that made it looked like any
 * other.
 */
export function deliverReturningCode(ctx: Context): JobHandler {
  return async (job, signal) => {
    const payload = job.payload as CodePayload;
    const row = (await prepared(
      ctx.db,
      `SELECT v.email, v.phone, c.name AS company FROM returning_codes r
       JOIN visitors v ON v.id = r.visitorId AND v.companyId = r.companyId
       JOIN companies c ON c.id = r.companyId
       WHERE r.id = ? AND r.companyId = ? AND r.expiresAt > ? AND v.deletedAt IS NULL AND v.rememberConsent = 1`,
    ).get(payload.challenge, job.companyId, ctx.clock.now())) as
      | { email: string | null; phone: string | null; company: string }
      | undefined;
    if (!row) return;
    const settings = await findNotificationSettings(ctx, job.companyId);
    if (!settings || !codeChannelsOf(settings).includes(payload.channel)) {
      throw new PermanentJobError(`the ${payload.channel} channel is not set up for one-time codes`);
    }
    const lang = isLanguage(payload.lang) ? payload.lang : 'en';
    const message = codeMessage(lang, row.company, ctx.secrets.open(payload.code));
    const key = `returning-code-${payload.challenge}`;
    if (payload.channel === 'email') {
      if (!row.email) throw new PermanentJobError('the visitor record holds no e-mail');
      await sendMail(ctx, settings, { key, to: [row.email], ...message }, signal);
      return;
    }
    const to = e164(row.phone, payload.callingCode || null);
    if (!to) throw new PermanentJobError('the visitor record holds no phone number that can be texted');
    await sendSms(ctx, settings, { key, to, body: message.text }, signal);
  };
}
