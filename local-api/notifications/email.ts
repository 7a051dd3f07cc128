import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { destinationPolicy } from '../outgoing/policy.ts';
import { connectChecked } from '../outgoing/request.ts';
import { PermanentJobError } from '../queue/queue.ts';
import { attemptTimeoutMs, deliveryFailure } from '../webhooks/delivery.ts';
import type { NotificationSettings } from './settings.ts';

/** A file sent with an e-mail; with `cid`, an inline image the HTML shows as `<img src="cid:…">`. */
export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType: string;
  cid?: string;
}

/** One e-mail, rendered when it was queued; `key` makes its Message-ID, the same on every attempt. */
export interface OutgoingMail {
  key: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * A calendar event (RFC 5545) sent as the message's `text/calendar; method=…` part, which mail clients offer
   * to add to the calendar (and to update or remove, by its UID, when a later message says so).
   */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/** SMTP answers that refuse the message itself (unknown mailbox, policy): sending it again cannot help. */
const refusedSmtpCodes = new Set([550, 551, 552, 553, 554]);

/**
 * Sends one e-mail with the company's SMTP settings. Resolves once the server accepted it; throws to retry, and
 * PermanentJobError when the server refused the message itself. Connects only where the device's destination
 * policy allows, and ends within attemptTimeoutMs whatever the server does.
 */
export async function sendMail(
  ctx: Pick<Context, 'db' | 'runtime'>,
  settings: NotificationSettings,
  mail: OutgoingMail,
  signal: AbortSignal,
): Promise<void> {
  // Loaded on the first e-mail: the service starts without it.
  const { default: nodemailer } = await import('nodemailer');
  const server = `SMTP ${settings.smtpHost}:${settings.smtpPort}`;
  // The whole exchange within the deadline, whatever the server trickles: nodemailer's own time-outs are idle ones.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), attemptTimeoutMs);
  const stop = () => deadline.abort();
  signal.addEventListener('abort', stop, { once: true });
  const policy = await destinationPolicy(ctx);
  const transport = nodemailer.createTransport({
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpSecurity === 'tls',
    requireTLS: settings.smtpSecurity === 'starttls',
    ignoreTLS: settings.smtpSecurity === 'none',
    auth: settings.smtpUsername ? { user: settings.smtpUsername, pass: settings.smtpPassword } : undefined,
    connectionTimeout: attemptTimeoutMs,
    greetingTimeout: attemptTimeoutMs,
    socketTimeout: attemptTimeoutMs,
    // The connection is made here, to an address the policy allows; nodemailer speaks SMTP (and TLS) over it.
    getSocket: (_options, done) => {
      connectChecked(policy, settings.smtpHost, settings.smtpPort, attemptTimeoutMs).then(
        (connection) => done(null, { connection }),
        (error: unknown) => done(error as Error, undefined),
      );
    },
  });
  try {
    await transport.sendMail({
      from: settings.emailFrom || settings.smtpUsername || 'portaria@localhost',
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html === undefined ? {} : { html: mail.html }),
      ...(mail.attachments === undefined ? {} : { attachments: mail.attachments }),
      ...(mail.calendar === undefined
        ? {}
        : { icalEvent: { method: mail.calendar.method, filename: 'invite.ics', content: mail.calendar.content } }),
      // The same message id on every attempt: a mail system that got it already can recognize the repeat.
      messageId: `<${createHash('sha256').update(mail.key).digest('hex').slice(0, 32)}@portaria>`,
      signal: deadline.signal,
    });
  } catch (error) {
    const code = (error as { responseCode?: number }).responseCode;
    // The server's reply code is its answer; anything else (refused, reset, timed out, TLS) is the network's.
    if (code !== undefined) {
      const message = `${server} answered ${code}`;
      if (refusedSmtpCodes.has(code)) throw new PermanentJobError(message);
      throw new Error(message);
    }
    throw deliveryFailure(server, error);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stop);
    transport.close();
  }
}
