import { createHash, createHmac } from 'node:crypto';
import nodemailer from 'nodemailer';
import { PermanentJobError } from '../queue/queue.ts';
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

/** A way out of the device. `send` resolves once the peer accepted, throws to retry, PermanentJobError to give up. */
export interface Channel {
  isConfigured(settings: NotificationSettings): boolean;
  send(settings: NotificationSettings, delivery: Delivery, signal: AbortSignal): Promise<void>;
}

/** Longest one attempt waits for the peer (the queue aborts an attempt after 10 s). */
const peerTimeoutMs = 8_000;

/** SMTP answers that refuse the message itself (unknown mailbox, policy): sending it again cannot help. */
const refusedSmtpCodes = new Set([550, 551, 552, 553, 554]);

const email: Channel = {
  isConfigured: (settings) => settings.smtpHost !== '',
  async send(settings, delivery, signal) {
    const transport = nodemailer.createTransport({
      host: settings.smtpHost,
      port: settings.smtpPort,
      secure: settings.smtpSecurity === 'tls',
      requireTLS: settings.smtpSecurity === 'starttls',
      ignoreTLS: settings.smtpSecurity === 'none',
      auth: settings.smtpUsername ? { user: settings.smtpUsername, pass: settings.smtpPassword } : undefined,
      connectionTimeout: peerTimeoutMs,
      greetingTimeout: peerTimeoutMs,
      socketTimeout: peerTimeoutMs,
    });
    const abort = () => transport.close();
    signal.addEventListener('abort', abort, { once: true });
    try {
      await transport.sendMail({
        from: settings.emailFrom || settings.smtpUsername || 'portaria@localhost',
        to: delivery.to,
        subject: delivery.subject,
        text: delivery.text,
        // The same message id on every attempt: a mail system that got it already can recognize the repeat.
        messageId: `<${createHash('sha256').update(delivery.key).digest('hex').slice(0, 32)}@portaria>`,
      });
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      const message = `SMTP ${settings.smtpHost}:${settings.smtpPort}: ${code ?? (error as Error).message}`;
      if (code !== undefined && refusedSmtpCodes.has(code)) throw new PermanentJobError(message);
      throw new Error(message);
    } finally {
      signal.removeEventListener('abort', abort);
      transport.close();
    }
  },
};

/** HTTP answers that refuse this very request: sending the same body again cannot help. */
const refusedHttpStatuses = new Set([400, 405, 410, 413, 415, 422]);

/**
 * The notification's own webhook: a JSON POST, signed like the service's event webhooks
 * (`X-Portaria-Signature: sha256=<hex HMAC-SHA256 of the body>`) when a secret is set.
 */
const webhook: Channel = {
  isConfigured: (settings) => settings.webhookUrl !== '',
  async send(settings, delivery, signal) {
    const body = JSON.stringify(delivery.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Portaria',
      'x-portaria-event': 'notification',
      'x-portaria-delivery': delivery.key,
    };
    if (settings.webhookSecret) {
      headers['x-portaria-signature'] =
        `sha256=${createHmac('sha256', settings.webhookSecret).update(body).digest('hex')}`;
    }
    // Messages name the origin only: a URL may carry credentials.
    const origin = new URL(settings.webhookUrl).origin;
    let response: Response;
    try {
      response = await fetch(settings.webhookUrl, {
        method: 'POST',
        body,
        headers,
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(peerTimeoutMs)]),
      });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string } }).cause;
      throw new Error(`cannot reach ${origin}: ${cause?.code ?? (error as Error).message}`);
    }
    await response.body?.cancel();
    if (response.ok) return;
    const message = `${origin} answered HTTP ${response.status}`;
    if (refusedHttpStatuses.has(response.status)) throw new PermanentJobError(message);
    throw new Error(message);
  },
};

export const channels: Readonly<Record<DeliveryChannel, Channel>> = { email, webhook };
