import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { email } from '../http/fields.ts';
import { prepared } from '../store/rows.ts';
import { attemptTimeoutMs } from '../webhooks/delivery.ts';
import { channels, type Delivery } from './channels.ts';
import type { DeliveryPayload } from './delivery.ts';
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
  idempotencyKey: string;
  payload: string;
}

/**
 * What the list shows of a delivery: its channel, host and subject from the payload; of a delivery whose person
 * was erased (its payload replaced by the proof of delivery, privacy/store.ts), the channel and host from its key
 * (`<source>:<host>:<channel>`, notifyHosts) and no subject.
 */
function listedDelivery(row: Pick<DeliveryJobRow, 'idempotencyKey' | 'payload'>) {
  const payload = JSON.parse(row.payload) as Partial<DeliveryPayload>;
  if (payload.channel && payload.hostId && payload.delivery) {
    return { channel: payload.channel, hostId: payload.hostId, subject: payload.delivery.subject };
  }
  const [channel = '', hostId = ''] = row.idempotencyKey.split(':').reverse();
  return { channel: channel as DeliveryChannel, hostId, subject: '' };
}

/** The company's latest notification deliveries (check-in messages included), newest first. */
export async function recentDeliveries(ctx: Context, caller: Caller, limit: number) {
  const rows = (await prepared(
    ctx.db,
    `SELECT id, createdAt, updatedAt, status, attempts, lastError, idempotencyKey, payload FROM jobs
     WHERE companyId = ? AND kind = ? ORDER BY id DESC LIMIT ?`,
  ).all(caller.companyId, notificationJobKind, limit)) as DeliveryJobRow[];
  const listed = rows.map(listedDelivery);
  const hostIds = new Set(listed.map((delivery) => delivery.hostId));
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
    const delivery = listed[i] as (typeof listed)[number];
    return {
      id: String(row.id),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...delivery,
      hostName: names.get(delivery.hostId) ?? null,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
    };
  });
}
