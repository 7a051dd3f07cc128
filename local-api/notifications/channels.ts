import type { Context } from '../context.ts';
import { PermanentJobError } from '../queue/queue.ts';
import { postJson } from '../webhooks/delivery.ts';
import { deliveryHeader, eventHeader, signatureHeader, signBody } from '../webhooks/signature.ts';
import { sendMail } from './email.ts';
import type { DeliveryChannel } from './schema.ts';
import type { NotificationSettings } from './settings.ts';
import { sendSms } from './sms.ts';

/** One message for one host, rendered when it was queued (in the company's language), sent by a channel. */
export interface Delivery {
  /** The job's idempotency key: receivers that see a delivery twice (a retry after a lost answer) can drop it. */
  key: string;
  /** The host's addresses (the e-mail channel's recipients). */
  to: string[];
  /** The host's phone in E.164 (the SMS channel's recipient), when the host has a valid one. */
  phone?: string;
  /**
   * Whom the message is for, as channels that post where many people read (Slack, Teams) name them: "For Helena".
   */
  recipient?: string;
  subject: string;
  /** The message; each channel adds the actions its own way. */
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
  /** Whether the channel can reach this host: e-mail and SMS need the host's own address, the others post to the company's. */
  reaches(delivery: Pick<Delivery, 'to' | 'phone'>): boolean;
  send(
    ctx: Pick<Context, 'db' | 'runtime'>,
    settings: NotificationSettings,
    delivery: Delivery,
    signal: AbortSignal,
  ): Promise<void>;
}

/** The text with each action's link on a line of its own: mail clients and SMS make them tappable. */
export const withActionLines = (text: string, actions: readonly MessageAction[] | undefined) =>
  actions?.length ? `${text}\n\n${actions.map((action) => `${action.label}: ${action.url}`).join('\n')}` : text;

/** At most `max` characters, an ellipsis marking a cut: the peers refuse longer fields. */
export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const everyHost = () => true;

const email: Channel = {
  isConfigured: (settings) => settings.smtpHost !== '',
  reaches: (delivery) => delivery.to.length > 0,
  send: async (ctx, settings, delivery, signal) =>
    await sendMail(
      ctx,
      settings,
      {
        key: delivery.key,
        to: delivery.to,
        subject: delivery.subject,
        text: withActionLines(delivery.text, delivery.actions),
      },
      signal,
    ),
};

/**
 * The notification's own webhook: a JSON POST signed like the service's event webhooks (`X-Portaria-Signature:
 * sha256=<hex HMAC-SHA256 of the body>`) when a secret is set, sent and judged as they are.
 */
const webhook: Channel = {
  isConfigured: (settings) => settings.webhookUrl !== '',
  reaches: everyHost,
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

/**
 * Slack's limits on the fields of a message (api.slack.com/reference/block-kit): a section's text, a button's
 * label, a URL, an image's alternative text.
 */
export const slackLimits = { sectionText: 3000, buttonText: 75, url: 3000, altText: 2000, actions: 25 } as const;

/**
 * Text for Slack's `mrkdwn` and for the message's fallback `text`: `&`, `<` and `>` escaped as Slack asks, so a
 * visitor's name cannot be read as a link or a mention (`<!channel>`).
 */
const slackEscaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * A Slack incoming-webhook message: Block Kit `blocks` (the message, the visitor's picture, the actions as link
 * buttons) and the fallback `text` that notifications and old clients show. Both name the host: the webhook posts
 * to a channel many people read.
 */
export function slackMessage(delivery: Delivery): Record<string, unknown> {
  const heading = delivery.recipient ? `${delivery.recipient}: ${delivery.subject}` : delivery.subject;
  const actions = (delivery.actions ?? []).filter((action) => action.url.length <= slackLimits.url);
  const blocks: Record<string, unknown>[] = [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: clip(`*${slackEscaped(heading)}*\n${slackEscaped(delivery.text)}`, slackLimits.sectionText),
      },
    },
  ];
  if (delivery.pictureUrl && delivery.pictureUrl.length <= slackLimits.url) {
    blocks.push({
      type: 'image',
      image_url: delivery.pictureUrl,
      alt_text: clip(delivery.subject, slackLimits.altText),
    });
  }
  if (actions.length > 0) {
    blocks.push({
      type: 'actions',
      elements: actions.slice(0, slackLimits.actions).map((action) => ({
        type: 'button',
        action_id: action.id,
        text: { type: 'plain_text', text: clip(action.label, slackLimits.buttonText), emoji: true },
        url: action.url,
        ...(action.style ? { style: action.style } : {}),
      })),
    });
  }
  return { text: slackEscaped(withActionLines(`${heading}\n${delivery.text}`, delivery.actions)), blocks };
}

/**
 * Slack fetches an `image` block's picture as it takes the message, and refuses the whole message (400
 * `invalid_blocks`) when it cannot: a picture on an address only the company's network reaches. The message then
 * goes again without the picture: the host learns of the visitor, and can decide, either way.
 */
const slack: Channel = {
  isConfigured: (settings) => settings.slackWebhookUrl !== '',
  reaches: everyHost,
  async send(ctx, settings, delivery, signal) {
    const post = (message: Delivery) =>
      postJson(ctx, settings.slackWebhookUrl, JSON.stringify(slackMessage(message)), {}, signal);
    try {
      await post(delivery);
    } catch (error) {
      if (!(error instanceof PermanentJobError) || delivery.pictureUrl === undefined) throw error;
      const { pictureUrl: _picture, ...withoutPicture } = delivery;
      await post(withoutPicture);
    }
  },
};

/** The styles of Adaptive Card actions for the message's: Allow stands out, Deny warns. */
const teamsActionStyles = { primary: 'positive', danger: 'destructive' } as const;

/**
 * Text of the card as a `RichTextBlock` of one `TextRun`: Teams reads markdown in a `TextBlock` (links included)
 * and never in a `TextRun`, so a visitor's name cannot put a link in the host's card.
 */
const teamsText = (text: string, style: Record<string, unknown> = {}) => ({
  type: 'RichTextBlock',
  inlines: [{ type: 'TextRun', text, ...style }],
});

/**
 * A Microsoft Teams message as Workflows ("Post to a channel when a webhook request is received") and incoming
 * webhooks take it: an Adaptive Card (1.4) attachment with the message, the visitor's picture and the actions as
 * `Action.OpenUrl` buttons. It names the host: the card is posted to a channel.
 */
export function teamsMessage(delivery: Delivery): Record<string, unknown> {
  const body: Record<string, unknown>[] = [teamsText(delivery.subject, { weight: 'Bolder', size: 'Medium' })];
  if (delivery.recipient) body.push(teamsText(delivery.recipient, { isSubtle: true }));
  body.push(teamsText(delivery.text));
  if (delivery.pictureUrl) {
    body.push({ type: 'Image', url: delivery.pictureUrl, altText: delivery.subject, size: 'Large' });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: (delivery.actions ?? []).map((action) => ({
            type: 'Action.OpenUrl',
            title: action.label,
            url: action.url,
            ...(action.style ? { style: teamsActionStyles[action.style] } : {}),
          })),
        },
      },
    ],
  };
}

const teams: Channel = {
  isConfigured: (settings) => settings.teamsWebhookUrl !== '',
  reaches: everyHost,
  send: async (ctx, settings, delivery, signal) =>
    await postJson(ctx, settings.teamsWebhookUrl, JSON.stringify(teamsMessage(delivery)), {}, signal),
};

/** The longest message text an SMS carries before its links (three segments of 160): a phone is not a mailbox. */
const smsTextLimit = 480;

/** An SMS: the message, kept short, then each action's link on a line of its own. */
export const smsText = (delivery: Pick<Delivery, 'text' | 'actions'>) =>
  withActionLines(clip(delivery.text, smsTextLimit), delivery.actions);

const sms: Channel = {
  isConfigured: (settings) =>
    settings.twilioAccountSid !== '' && settings.twilioAuthToken !== '' && settings.twilioFrom !== '',
  reaches: (delivery) => delivery.phone !== undefined,
  async send(ctx, settings, delivery, signal) {
    if (!delivery.phone) throw new PermanentJobError('the host has no phone number');
    await sendSms(ctx, settings, { key: delivery.key, to: delivery.phone, body: smsText(delivery) }, signal);
  },
};

export const channels: Readonly<Record<DeliveryChannel, Channel>> = { email, webhook, slack, teams, sms };
