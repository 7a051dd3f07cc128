import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { email } from '../http/fields.ts';
import { prepared } from '../store/rows.ts';
import { attemptTimeoutMs } from '../webhooks/delivery.ts';
import { channels, type Delivery } from './channels.ts';
import { catalogueFor } from './messages.ts';
import type { DeliveryChannel, NotificationTestInput } from './schema.ts';
import { findNotificationSettings, notificationJobKind } from './settings.ts';
import { e164 } from './sms.ts';

/** Where a test goes: an e-mail address for e-mail, a phone number in E.164 for SMS; the others post to the company's. */
function recipientOf(input: NotificationTestInput): Pick<Delivery, 'to' | 'phone'> {
  if (input.channel === 'email') {
    if (!input.to || !email().safeParse(input.to).success) throw new ApiError('INVALID_PARAMETER', { field: 'to' });
    return { to: [input.to] };
  }
  if (input.channel === 'sms') {
    const phone = e164(input.to, null);
    if (!phone) throw new ApiError('INVALID_PARAMETER', { field: 'to' });
    return { to: [], phone };
  }
  return { to: [] };
}

/**
 * Sends one test message through a channel with the saved settings, now, and says whether the peer took it: the
 * front desk learns at once whether the SMTP server, the webhook, Slack, Teams or the SMS API answers, without a host being bothered and
 * without waiting for the queue's retries. Nothing is queued or stored.
 */
export async function sendTestNotification(ctx: Context, caller: Caller, input: NotificationTestInput) {
  const settings = await findNotificationSettings(ctx, caller.companyId);
  const channel = channels[input.channel];
  if (!settings || !channel.isConfigured(settings)) throw new ApiError('CHANNEL_NOT_CONFIGURED');
  const to = recipientOf(input);
  const words = catalogueFor(caller.lang);
  const key = `test:${ctx.random.bytes(12).toString('hex')}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), attemptTimeoutMs + 1000);
  try {
    await channel.send(
      ctx,
      settings,
      {
        key,
        ...to,
        subject: words.testSubject,
        text: words.testText,
        body: {
          event: 'notification',
          kind: 'test',
          lang: caller.lang,
          subject: words.testSubject,
          message: words.testText,
        },
      },
      controller.signal,
    );
    return { channel: input.channel, delivered: true, error: null };
  } catch (error) {
    return { channel: input.channel, delivered: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

interface DeliveryJobRow {
  id: number;
  createdAt: number;
  updatedAt: number;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
  payload: string;
}

/** The company's latest notification deliveries (check-in messages included), newest first. */
export async function recentDeliveries(ctx: Context, caller: Caller, limit: number) {
  const rows = (await prepared(
    ctx.db,
    `SELECT id, createdAt, updatedAt, status, attempts, lastError, payload FROM jobs
     WHERE companyId = ? AND kind = ? ORDER BY id DESC LIMIT ?`,
  ).all(caller.companyId, notificationJobKind, limit)) as DeliveryJobRow[];
  const hostIds = new Set<string>();
  const payloads = rows.map((row) => {
    const payload = JSON.parse(row.payload) as {
      channel: DeliveryChannel;
      hostId: string;
      delivery: { subject: string };
    };
    hostIds.add(payload.hostId);
    return payload;
  });
  const names = new Map(
    (
      (await prepared(ctx.db, 'SELECT id, name FROM hosts WHERE companyId = ?').all(caller.companyId)) as {
        id: string;
        name: string;
      }[]
    )
      .filter((host) => hostIds.has(host.id))
      .map((host) => [host.id, host.name]),
  );
  return rows.map((row, i) => {
    const payload = payloads[i] as (typeof payloads)[number];
    return {
      id: String(row.id),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      channel: payload.channel,
      hostId: payload.hostId,
      hostName: names.get(payload.hostId) ?? null,
      subject: payload.delivery.subject,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
    };
  });
}
