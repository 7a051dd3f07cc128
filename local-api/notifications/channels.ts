import type { Context } from '../context.ts';
import { postJson } from '../webhooks/delivery.ts';
import { deliveryHeader, eventHeader, signatureHeader, signBody } from '../webhooks/signature.ts';
import { sendMail } from './email.ts';
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
  /** Links the message offers (Allow and Deny): buttons where the channel has them, lines of the text otherwise. */
  actions?: MessageAction[];
  /** A signed address of the visitor's picture, for channels that show one. */
  pictureUrl?: string;
}

/** A link a message offers. Opening it shows a page; only that page's button decides (mail scanners open links). */
export interface MessageAction {
  id: string;
  label: string;
  url: string;
  style?: 'primary' | 'danger';
}

/**
 * A way out of the device. `send` resolves once the peer accepted, throws to retry, PermanentJobError to give up;
 * it goes only where the device's destination policy allows (`ctx`'s), and ends within attemptTimeoutMs.
 */
export interface Channel {
  isConfigured(settings: NotificationSettings): boolean;
  send(
    ctx: Pick<Context, 'db' | 'runtime'>,
    settings: NotificationSettings,
    delivery: Delivery,
    signal: AbortSignal,
  ): Promise<void>;
}

const email: Channel = {
  isConfigured: (settings) => settings.smtpHost !== '',
  send: async (ctx, settings, delivery, signal) =>
    await sendMail(
      ctx,
      settings,
      { key: delivery.key, to: delivery.to, subject: delivery.subject, text: delivery.text },
      signal,
    ),
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
