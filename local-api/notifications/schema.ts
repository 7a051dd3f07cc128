import { z } from 'zod';
import { hostSummarySchema } from '../hosts/schema.ts';
import { email, type FieldCodes, httpUrl, positiveInt, text } from '../http/fields.ts';
import type { ColumnKinds } from '../store/columns.ts';
import { deliveryStatusSchema } from '../webhooks/schema.ts';

export const notificationTypes = ['delivery', 'visit'] as const;
export type NotificationType = (typeof notificationTypes)[number];

/** A host to notify: the interface's host object (only `id` is read), or just the id. */
const notifiedHost = () =>
  z
    .union([
      z.string().max(64),
      z.object({
        id: z.string().max(64),
        type: z.string().optional(),
        email: z.string().optional(),
        name: z.string().optional(),
        phone: z.string().optional(),
        countryCode: z.string().optional(),
      }),
    ])
    .transform((host) => (typeof host === 'string' ? host : host.id));

const notificationFields = {
  type: z
    .string()
    .transform((s) => s.toLowerCase())
    .pipe(z.enum(notificationTypes)),
  message: text(5000).trim().min(1),
  hosts: z.array(notifiedHost()).min(1).max(500),
  // Accepted for the interface's input shape; a notification always belongs to the caller's company.
  companyId: z.string().max(64).nullable(),
};

/** POST /v1/notifications (docs/api.md, "Notifications"): type, message and hosts required. */
export const notificationCreateInput = z
  .object(notificationFields)
  .partial()
  .required({ type: true, message: true, hosts: true });
export type NotificationCreateInput = z.output<typeof notificationCreateInput>;

export const notificationUpdateInput = z.object(notificationFields).partial();
export type NotificationUpdateInput = z.output<typeof notificationUpdateInput>;

export const notificationInputCodes: Readonly<Record<string, FieldCodes>> = {};

export const notificationColumns: ColumnKinds = {
  booleans: [],
  json: ['hosts'],
  times: ['createdAt', 'updatedAt', 'deletedAt'],
};

export const deliveryChannels = ['email', 'webhook', 'slack', 'teams', 'sms'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/** How far the host of a check-in was told: `hostNoticeOf` (delivery.ts) says when each holds. */
export const hostNotices = ['none', 'sending', 'notified', 'failed'] as const;
export type HostNotice = (typeof hostNotices)[number];

export const notificationDeliverySchema = z.object({
  hostId: z.string(),
  channel: z.enum(deliveryChannels),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});

/** The notification object of docs/api.md, "Notifications", with the hosts it went to and how each delivery is going. */
export const notificationObjectSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
  type: z.enum(notificationTypes),
  message: z.string().nullable(),
  companyId: z.string().nullable(),
  hosts: z.array(hostSummarySchema),
  deliveries: z.array(notificationDeliverySchema),
});

export const smtpSecurities = ['tls', 'starttls', 'none'] as const;

/**
 * POST /v1/integration/notifications: how notifications leave the device, as a partial upsert. E-mail goes out
 * when `smtpHost` is set, webhooks when `webhookUrl` is, Slack and Teams when their webhook is, SMS when the
 * Twilio account, token and sender are; an empty string switches a channel off.
 */
export const notificationSettingsInput = z
  .object({
    smtpHost: z
      .string()
      .trim()
      .max(255)
      .regex(/^[\w.-]*$/, 'a host name or address'),
    smtpPort: positiveInt().refine((n) => n <= 65_535, 'must be a port number'),
    smtpSecurity: z.enum(smtpSecurities).describe('tls: TLS from the start (465); starttls: upgrade (587); none'),
    smtpUsername: z.string().max(200),
    smtpPassword: z.string().max(500),
    emailFrom: z.union([z.literal(''), email()]),
    webhookUrl: httpUrl(),
    webhookSecret: z.string().max(500),
    slackWebhookUrl: httpUrl().describe('a Slack incoming webhook (https://hooks.slack.com/services/…); "" for none'),
    teamsWebhookUrl: httpUrl().describe('a Microsoft Teams Workflows or incoming webhook; "" for none'),
    twilioAccountSid: z.string().trim().max(64),
    twilioAuthToken: z.string().max(200).describe('write-only: reads as "********"'),
    twilioFrom: z.string().trim().max(64).describe('the sending number (E.164) or messaging sender the SMS API knows'),
    twilioBaseUrl: httpUrl()
      .refine((url) => url !== '', 'required')
      .describe('the Twilio-compatible API (default https://api.twilio.com)'),
    reminderMinutesBefore: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .describe('how long before an expected guest the host is reminded; 0: at the expected time'),
    escalateAfterMinutes: z
      .number()
      .int()
      .min(0)
      .max(1440)
      .describe(
        "minutes after which a host who neither opened nor answered a visitor's message is escalated; 0: never",
      ),
    receptionEmail: z
      .union([z.literal(''), email()])
      .describe("the reception's address, told when a host is escalated"),
  })
  .partial();
export type NotificationSettingsInput = z.output<typeof notificationSettingsInput>;

export const notificationSettingsSecrets = ['smtpPassword', 'webhookSecret', 'twilioAuthToken'] as const;

export const notificationSettingsSchema = z.object({
  smtpHost: z.string(),
  smtpPort: z.number().int(),
  smtpSecurity: z.enum(smtpSecurities),
  smtpUsername: z.string(),
  smtpPassword: z.string().describe('"********" when set, "" when not'),
  emailFrom: z.string(),
  webhookUrl: z.string(),
  webhookSecret: z.string().describe('"********" when set, "" when not'),
  slackWebhookUrl: z.string(),
  teamsWebhookUrl: z.string(),
  twilioAccountSid: z.string(),
  twilioAuthToken: z.string().describe('"********" when set, "" when not'),
  twilioFrom: z.string(),
  twilioBaseUrl: z.string(),
  reminderMinutesBefore: z.number().int(),
  escalateAfterMinutes: z.number().int().describe('0: hosts are never escalated'),
  receptionEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  queue: deliveryStatusSchema.describe('the notification deliveries of the company waiting, given up and done'),
});

/** POST /v1/integration/notifications/test: the channel to try, and for e-mail and SMS where to send it. */
export const notificationTestInput = z.object({
  channel: z.enum(deliveryChannels),
  to: z
    .string()
    .trim()
    .max(254)
    .optional()
    .describe('required for email (an address) and sms (a phone number in E.164, +5511987654321)'),
});
export type NotificationTestInput = z.output<typeof notificationTestInput>;

export const notificationTestSchema = z.object({
  channel: z.enum(deliveryChannels),
  delivered: z.boolean().describe('the SMTP server, the webhook, Slack, Teams or the SMS API took the message'),
  error: z.string().nullable().describe("why not, in the peer's words (its origin, never a credential)"),
});

/** One delivery of the notification queue, as the front desk shows it. */
export const notificationDeliveryRowSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  channel: z.enum(deliveryChannels),
  hostId: z.string(),
  hostName: z.string().nullable(),
  subject: z.string(),
  status: z.enum(['pending', 'done', 'failed']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
});
