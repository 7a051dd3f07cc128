import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { destinationPolicy } from '../outgoing/policy.ts';
import { connectChecked } from '../outgoing/request.ts';
import { PermanentJobError } from '../queue/queue.ts';
import { attemptTimeoutMs, deliveryFailure, postJson } from '../webhooks/delivery.ts';
import { deliveryHeader, eventHeader, signatureHeader, signBody } from '../webhooks/signature.ts';
import type { DeliveryChannel } from './schema.ts';
import type { NotificationSettings } from './settings.ts';

/** One message for one host, rendered when it was queued (in the company's language), sent by a channel. */
export interface Delivery {
  /** The job's idempotency key: receivers that see a delivery twice (a retry after a lost answer) can drop it. */
  key: string;
  /** The host's addresses (the e-mail channel's recipients). */
  to: string[];
  subject: string;
  text: string;
  /** What the webhook channel posts. */
  body: Record<string, unknown>;
}

/**
 * A way out of the device. `send` resolves once the peer accepted, throws to retry, PermanentJobError to give up;
 * it goes only where the device's destination policy allows (`ctx`'s), and ends within attemptTimeoutMs.
 */
export interface Channel {
  isConfigured(settings: NotificationSettings): boolean;
  send(
    ctx: Pick<Context, 'db'>,
    settings: NotificationSettings,
    delivery: Delivery,
    signal: AbortSignal,
  ): Promise<void>;
}

/** SMTP answers that refuse the message itself (unknown mailbox, policy): sending it again cannot help. */
const refusedSmtpCodes = new Set([550, 551, 552, 553, 554]);

const email: Channel = {
  isConfigured: (settings) => settings.smtpHost !== '',
  async send(ctx, settings, delivery, signal) {
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
        to: delivery.to,
        subject: delivery.subject,
        text: delivery.text,
        // The same message id on every attempt: a mail system that got it already can recognize the repeat.
        messageId: `<${createHash('sha256').update(delivery.key).digest('hex').slice(0, 32)}@portaria>`,
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
  },
};

/**
 * The notification's own webhook: a JSON POST signed like the service's event webhooks (`X-Portaria-Signature:
 * sha256=<hex HMAC-SHA256 of the body>`) when a secret is set, sent and judged as they are.
 */
const webhook: Channel = {
  isConfigured: (settings) => settings.webhookUrl !== '',
  async send(ctx, settings, delivery, signal) {
    const body = JSON.stringify(delivery.body);
    const headers: Record<string, string> = {
      [eventHeader]: 'notification',
      [deliveryHeader]: delivery.key,
      'idempotency-key': delivery.key,
    };
    if (settings.webhookSecret) headers[signatureHeader] = signBody(settings.webhookSecret, body);
    await postJson(ctx, settings.webhookUrl, body, headers, signal);
  },
};

export const channels: Readonly<Record<DeliveryChannel, Channel>> = { email, webhook };
