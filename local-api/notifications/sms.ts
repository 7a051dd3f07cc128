import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Context } from '../context.ts';
import { postForJob } from '../webhooks/delivery.ts';
import type { NotificationSettings } from './settings.ts';

/**
 * A phone number in E.164 (`+5511987654321`), from a number as people type it and the calling code stored beside
 * it (`+55`); a number typed with its own `+` keeps its own. Null when it is not a number that can exist (the full
 * metadata judges it: the lengths and prefixes of the country's numbering plan).
 */
export function e164(phone: string | null | undefined, countryCode: string | null | undefined): string | null {
  if (!phone) return null;
  const callingCode = countryCode?.replace(/\D/g, '') ?? '';
  const typed = phone.trim();
  const number = typed.startsWith('+')
    ? parsePhoneNumberFromString(typed)
    : callingCode
      ? parsePhoneNumberFromString(typed, { defaultCallingCode: callingCode })
      : undefined;
  return number?.isValid() ? number.number : null;
}

/** One text message, rendered when it was queued; `key` is the job's idempotency key. */
export interface OutgoingSms {
  key: string;
  /** E.164 (see `e164`). */
  to: string;
  body: string;
}

/** The answers of a Twilio-compatible API that another attempt may cure: a time-out and "too many requests". */
const retriedClientStatuses = new Set([408, 429]);

/** Where the Messages resource of an account is (Twilio's REST API, 2010-04-01). */
export function smsMessagesUrl(settings: Pick<NotificationSettings, 'twilioBaseUrl' | 'twilioAccountSid'>): string {
  const base = settings.twilioBaseUrl.replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(settings.twilioAccountSid)}/Messages.json`;
}

/**
 * Sends one SMS through a Twilio-compatible REST API: a form POST of `To`, `From` and `Body` to the account's
 * Messages resource, with HTTP Basic authentication (account SID and auth token). Resolves once the API accepted
 * it (2xx: Twilio answers 201 with the message `queued`); throws to retry (network, time-out, 408, 429, 5xx) and
 * PermanentJobError for the other 4xx (a number the API refuses, credentials it does not know). Goes only where
 * the device's destination policy allows, within attemptTimeoutMs; its messages name the API's origin, never the
 * SID or the token.
 */
export async function sendSms(
  ctx: Pick<Context, 'db' | 'runtime'>,
  settings: NotificationSettings,
  sms: OutgoingSms,
  signal: AbortSignal,
): Promise<void> {
  const credentials = Buffer.from(`${settings.twilioAccountSid}:${settings.twilioAuthToken}`).toString('base64');
  await postForJob(
    ctx,
    {
      url: smsMessagesUrl(settings),
      body: new URLSearchParams({ To: sms.to, From: settings.twilioFrom, Body: sms.body }).toString(),
      headers: {
        authorization: `Basic ${credentials}`,
        'content-type': 'application/x-www-form-urlencoded',
        // Twilio ignores it; a compatible gateway that de-duplicates can drop a retried message.
        'idempotency-key': sms.key,
      },
    },
    signal,
    (status) => status >= 400 && status <= 499 && !retriedClientStatuses.has(status),
  );
}
