import { secretMask } from '../companies/schema.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { requireAllowedDestination } from '../outgoing/policy.ts';
import { newLinkKey } from '../public/links.ts';
import { formatInZone } from '../rules/time.ts';
import { insertRow, prepared } from '../store/rows.ts';
import { deliveryStatus } from '../webhooks/delivery.ts';
import { type NotificationSettingsInput, notificationSettingsSecrets, type smtpSecurities } from './schema.ts';

export const notificationJobKind = 'host-notification';

export interface NotificationSettings {
  smtpHost: string;
  smtpPort: number;
  smtpSecurity: (typeof smtpSecurities)[number];
  smtpUsername: string;
  smtpPassword: string;
  emailFrom: string;
  webhookUrl: string;
  webhookSecret: string;
  slackWebhookUrl: string;
  teamsWebhookUrl: string;
  twilioAccountSid: string;
  twilioAuthToken: string;
  twilioFrom: string;
  twilioBaseUrl: string;
  /** How long before an invitee's `expectedAt` the host is reminded (invitees/reminders.ts). */
  reminderMinutesBefore: number;
  /** A host who neither opened nor answered a check-in's message this long after it is escalated; 0: never. */
  escalateAfterMinutes: number;
  /** Where an escalation goes besides the host's other addresses and the front desk; '' for none. */
  receptionEmail: string;
  createdAt: number;
  updatedAt: number;
}

/** A company's delivery settings with their secrets opened, or undefined when none were saved. */
export async function findNotificationSettings(
  ctx: Context,
  companyId: string,
): Promise<NotificationSettings | undefined> {
  const row = (await prepared(ctx.db, 'SELECT * FROM notification_settings WHERE companyId = ?').get(companyId)) as
    | (NotificationSettings & { companyId: string; linkKey: string | null })
    | undefined;
  if (!row) return undefined;
  // The link key signs links in messages (public/links.ts); it never leaves through the settings.
  const { companyId: _company, linkKey: _linkKey, ...settings } = row;
  for (const key of notificationSettingsSecrets) settings[key] = ctx.secrets.open(settings[key]);
  return settings;
}

export async function getNotificationSettings(ctx: Context, caller: Caller): Promise<NotificationSettings> {
  const settings = await findNotificationSettings(ctx, caller.companyId);
  if (!settings) throw new ApiError('NOT_FOUND');
  return settings;
}

/** The settings as the interface shows them: secrets masked, times in the company's zone, the queue's state. */
export async function notificationSettingsObject(ctx: Context, caller: Caller, settings: NotificationSettings) {
  return {
    ...settings,
    smtpPassword: settings.smtpPassword ? secretMask : '',
    webhookSecret: settings.webhookSecret ? secretMask : '',
    twilioAuthToken: settings.twilioAuthToken ? secretMask : '',
    createdAt: formatInZone(settings.createdAt, caller.timeZone),
    updatedAt: formatInZone(settings.updatedAt, caller.timeZone),
    queue: await deliveryStatus(ctx, caller, notificationJobKind),
  };
}

/** The settings that are addresses the service posts to: each is judged by the destination policy as it is saved. */
const urlSettings = ['webhookUrl', 'slackWebhookUrl', 'teamsWebhookUrl', 'twilioBaseUrl'] as const;

/** The SMTP port of settings that never gave one (the column's default). */
const defaultSmtpPort = 587;

/**
 * A partial upsert; secrets are sealed, and the mask (a client sending back what it read) keeps them. The addresses
 * the service posts to and the SMTP server are judged by the device's destination policy as they are saved.
 */
export async function saveNotificationSettings(
  ctx: Context,
  caller: Caller,
  input: NotificationSettingsInput,
): Promise<NotificationSettings> {
  for (const field of urlSettings) {
    const url = input[field];
    if (url) await requireAllowedDestination(ctx, field, { url });
  }
  if (input.smtpHost) {
    const port = input.smtpPort ?? (await findNotificationSettings(ctx, caller.companyId))?.smtpPort ?? defaultSmtpPort;
    await requireAllowedDestination(ctx, 'smtpHost', { host: input.smtpHost, port });
  }
  const row: Record<string, unknown> = { ...input };
  for (const key of notificationSettingsSecrets) {
    const value = input[key];
    if (value === secretMask) delete row[key];
    else if (value !== undefined) row[key] = ctx.secrets.seal(value);
  }
  const now = ctx.clock.now();
  return await inTransaction(ctx, async () => {
    await ctx.events.decide('notifications.settings.updated', caller);
    if (await findNotificationSettings(ctx, caller.companyId)) {
      const columns = Object.keys(row);
      await prepared(
        ctx.db,
        `UPDATE notification_settings SET ${[...columns, 'updatedAt'].map((c) => `${c} = :${c}`).join(', ')}
         WHERE companyId = :companyId`,
      ).run({ ...row, updatedAt: now, companyId: caller.companyId });
    } else {
      await insertRow(ctx.db, 'notification_settings', {
        ...row,
        linkKey: newLinkKey(ctx),
        companyId: caller.companyId,
        createdAt: now,
        updatedAt: now,
      });
    }
    const settings = await getNotificationSettings(ctx, caller);
    await ctx.events.publish(
      'notifications.settings.updated',
      caller,
      async () => await notificationSettingsObject(ctx, caller, settings),
    );
    return settings;
  });
}

export async function deleteNotificationSettings(ctx: Context, caller: Caller): Promise<void> {
  await inTransaction(ctx, async () => {
    await ctx.events.decide('notifications.settings.deleted', caller);
    const deleted = await prepared(ctx.db, 'DELETE FROM notification_settings WHERE companyId = ?').run(
      caller.companyId,
    );
    if (deleted.changes > 0) {
      await ctx.events.publish('notifications.settings.deleted', caller, () => ({ type: 'notificationSettings' }));
    }
  });
}
