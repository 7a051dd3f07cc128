import { type Context, memoised } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { EventListener } from '../events.ts';
import { replyActions } from '../host-replies/links.ts';
import type { HostRow } from '../hosts/contract.ts';
import { findHost } from '../hosts/store.ts';
import { enqueue, type JobHandler, type JobState, jobsWithKeyPrefix, PermanentJobError } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { type Channel, channels, type Delivery, type MessageAction } from './channels.ts';
import { catalogueFor, fill, localTime, personLabel } from './messages.ts';
import { type DeliveryChannel, deliveryChannels, type HostNotice } from './schema.ts';
import { findNotificationSettings, notificationJobKind } from './settings.ts';
import { e164 } from './sms.ts';

export interface DeliveryPayload {
  channel: DeliveryChannel;
  hostId: string;
  /** Set for a notification of /v1/notifications: one deleted before its delivery is not sent. */
  notificationId?: string;
  delivery: Delivery;
}

/** A host's message: what the e-mail says and what the webhook posts besides it. */
export interface HostMessage {
  subject: string;
  text: string;
  /** What kind of message it is, for the webhook's receiver: `visit.checkin`, `visit.blocked`, `visit.held`, `delivery`, `visit`. */
  kind: string;
  details: Record<string, unknown>;
  /**
   * Links the message offers (docs/api.md, "Public pages"): lines `label: url` at the end of an e-mail or an SMS,
   * buttons in Slack and Teams, `actions` in the webhook's body.
   */
  actions?: MessageAction[];
  pictureUrl?: string;
}

/** The channels a company has configured; none when it saved no settings. */
async function openChannels(ctx: Context, companyId: string): Promise<DeliveryChannel[]> {
  // Once for a batch of a sync push (see `withMemo`), not once per check-in.
  const settings = await memoised(ctx, `notifications:${companyId}`, () => findNotificationSettings(ctx, companyId));
  return settings ? deliveryChannels.filter((channel) => channels[channel].isConfigured(settings)) : [];
}

/**
 * Queues one delivery of a host's message on one channel, to `address` (the e-mail channel's recipients, the SMS
 * channel's number); channels that post where many read (Slack, Teams) name the host.
 */
async function queueDelivery(
  ctx: Context,
  caller: Caller,
  source: { key: string; notificationId?: string },
  host: HostRow,
  channel: DeliveryChannel,
  address: Pick<Delivery, 'to' | 'phone'>,
  message: HostMessage,
): Promise<void> {
  const key = `${source.key}:${host.id}:${channel}`;
  const payload: DeliveryPayload = {
    channel,
    hostId: host.id,
    ...(source.notificationId ? { notificationId: source.notificationId } : {}),
    delivery: {
      key,
      ...address,
      recipient: fill(catalogueFor(caller.lang).forHost, { host: host.name }),
      subject: message.subject,
      text: message.text,
      ...(message.actions?.length ? { actions: message.actions } : {}),
      ...(message.pictureUrl ? { pictureUrl: message.pictureUrl } : {}),
      body: {
        event: 'notification',
        kind: message.kind,
        lang: caller.lang,
        host: { id: host.id, name: host.name, email: host.email, type: 'host' },
        subject: message.subject,
        message: message.text,
        ...(message.actions?.length ? { actions: message.actions } : {}),
        ...message.details,
      },
    },
  };
  await enqueue(ctx, {
    companyId: caller.companyId,
    kind: notificationJobKind,
    idempotencyKey: key,
    payload,
    endpoint: `notification:${channel}`,
  });
}

/** A host's other addresses (`additionalEmails`). */
export const additionalEmailsOf = (host: HostRow): string[] =>
  JSON.parse(String(host.additionalEmails ?? '[]')) as string[];

/**
 * Queues a message to each host through each configured channel that reaches the host (e-mail when the host has an
 * address, SMS when a valid phone; Slack, Teams and the webhook post to the company's and name the host), in the
 * caller's transaction: it is sent once the write commits, retried until the peer takes it, and sent once however
 * often the same `source` is queued.
 */
export async function notifyHosts(
  ctx: Context,
  caller: Caller,
  source: { key: string; notificationId?: string },
  hosts: readonly HostRow[],
  message: HostMessage,
): Promise<void> {
  const open = await openChannels(ctx, caller.companyId);
  for (const host of hosts) {
    const to = [host.email, ...additionalEmailsOf(host)].filter(Boolean);
    const phone = e164(host.phone, host.countryCode);
    const address = { to, ...(phone ? { phone } : {}) };
    for (const channel of open.filter((name) => channels[name].reaches(address))) {
      await queueDelivery(ctx, caller, source, host, channel, address, message);
    }
  }
}

/**
 * Queues an e-mail about a host to other addresses (an escalation's fallback), when the company sends e-mail;
 * the deliveries list shows it as the host's. Answers whether one was queued.
 */
export async function emailAboutHost(
  ctx: Context,
  caller: Caller,
  source: { key: string },
  host: HostRow,
  to: string[],
  message: HostMessage,
): Promise<boolean> {
  if (to.length === 0 || !(await openChannels(ctx, caller.companyId)).includes('email')) return false;
  await queueDelivery(ctx, caller, source, host, 'email', { to }, message);
  return true;
}

/** The hosts who watch the door: a blocked visitor is their business. */
async function doorHosts(ctx: Context, caller: Caller): Promise<HostRow[]> {
  return (await prepared(
    ctx.db,
    `SELECT * FROM hosts WHERE companyId = ? AND deletedAt IS NULL AND role IN ('SECURITY', 'FRONTDESK') ORDER BY rowid`,
  ).all(caller.companyId)) as HostRow[];
}

interface CheckedInVisit {
  id: string;
  name: string | null;
  company: string | null;
  checkinAt: string;
  pictureUrl: string | null;
  visitorStatus: string | null;
  statusNote: string | null;
  heldAtDoor: boolean;
  authorizationStatus: string | null;
  isInsideCompany: boolean;
  host: { id: string } | null;
}

/**
 * On every check-in, tells the host that their visitor is here (unless the host turned `preCheckinNotifications`
 * off); when the visitor was blocked or held at the door, tells the company's SECURITY and FRONTDESK hosts instead
 * (a held visitor's host is not asked to approve: the front desk decides). A check-in replayed at the hub was
 * notified by the kiosk that took it (from its own queue, once it was online), unless the hub's blocklist stops or
 * holds the visitor the kiosk let in: then the hub tells the door's hosts.
 */
export function notifyOnCheckin(ctx: Context): EventListener {
  return async (event) => {
    if (event.name !== 'visit.checkin' || (await openChannels(ctx, event.caller.companyId)).length === 0) return;
    const replayed = event.caller.replayedFor !== undefined;
    const { caller } = event;
    const visit = (await event.object()) as unknown as CheckedInVisit;
    const words = catalogueFor(caller.lang);
    const visitor = personLabel(visit.name, visit.company);
    const values = { visitor, time: localTime(Date.parse(visit.checkinAt), caller.lang, caller.timeZone) };
    const details = { visitId: visit.id };
    // The door's hosts, for a visitor blocked or held at the door.
    const tellTheDoor = async (kind: 'blocked' | 'held', subject: string, text: string) =>
      await notifyHosts(ctx, caller, { key: `${kind}:${visit.id}` }, await doorHosts(ctx, caller), {
        subject: fill(subject, values),
        text: fill(text, { ...values, note: visit.statusNote ?? '' }).trim(),
        kind: `visit.${kind}`,
        details,
      });
    if (visit.visitorStatus === 'BLOCKED' && !(replayed && visit.isInsideCompany === false)) {
      await tellTheDoor(
        'blocked',
        words.blockedSubject,
        visit.isInsideCompany ? words.blockedInsideText : words.blockedText,
      );
      return;
    }
    if (visit.heldAtDoor) {
      // A replayed visit that waits was held by the kiosk that took it, which told the door's hosts.
      const letInOffline = replayed && visit.authorizationStatus !== 'waiting';
      if (!replayed || letInOffline) {
        await tellTheDoor('held', words.heldSubject, letInOffline ? words.blockedInsideText : words.heldText);
      }
      return;
    }
    if (replayed) return;
    const host = visit.host ? await findHost(ctx, caller, visit.host.id) : undefined;
    if (host?.preCheckinNotifications !== 1) return;
    // Links to answer from the message (where the service has a public address): Allow and Deny for a visit that
    // waits for the host, "I'm on my way" for the others; opening either is what an escalation waits for.
    const awaiting = visit.authorizationStatus === 'waiting';
    const actions = await replyActions(ctx, caller.companyId, visit.id, awaiting, words);
    await notifyHosts(ctx, caller, { key: `checkin:${visit.id}` }, [host], {
      subject: fill(words.arrivedSubject, values),
      text: fill(awaiting ? words.approvalText : words.arrivedText, values),
      kind: 'visit.checkin',
      details,
      ...(actions.length ? { actions } : {}),
      // The picture behind the first link (the page's own), while the link works: channels that show one load it.
      ...(actions[0] && visit.pictureUrl ? { pictureUrl: `${actions[0].url}/picture` } : {}),
    });
  };
}

/**
 * How far the host of a check-in was told (docs/api.md, "Delivery state"), by the deliveries of its "your visitor
 * is here" message in this service's queue:
 * - `none`: no message was queued (no channel set up, no host, or a host who asked not to be told);
 * - `sending`: queued, and no channel has confirmed it yet;
 * - `notified`: a channel confirmed it (the SMTP server accepted the e-mail, the webhook answered 2xx);
 * - `failed`: none confirmed it, and every delivery failed at least once (and is being retried) or was given up.
 * A `failed` message may still go out on a retry: it becomes `notified` then. Pure.
 */
export function hostNoticeOf(deliveries: readonly Pick<JobState, 'status' | 'lastError'>[]): HostNotice {
  if (deliveries.length === 0) return 'none';
  if (deliveries.some((delivery) => delivery.status === 'done')) return 'notified';
  if (deliveries.every((delivery) => delivery.status === 'failed' || delivery.lastError !== null)) return 'failed';
  return 'sending';
}

/** The delivery state of a check-in's message to its host (`hostNoticeOf`), from this service's queue. */
export async function hostNotice(ctx: Pick<Context, 'db'>, companyId: string, visitId: string): Promise<HostNotice> {
  // The keys of a check-in's messages are `checkin:<visit>:<host>:<channel>`: a range of the unique index.
  return hostNoticeOf(await jobsWithKeyPrefix(ctx, companyId, notificationJobKind, `checkin:${visitId}:`));
}

const isLiveNotification = async (ctx: Context, companyId: string, id: string) =>
  (await prepared(ctx.db, 'SELECT 1 FROM notifications WHERE id = ? AND companyId = ? AND deletedAt IS NULL').get(
    id,
    companyId,
  )) !== undefined;

/** Sends one queued delivery with the company's settings of now (a corrected password helps the retries). */
export function deliverNotification(ctx: Context): JobHandler {
  return async (job, signal) => {
    const payload = job.payload as DeliveryPayload;
    if (payload.notificationId && !(await isLiveNotification(ctx, job.companyId, payload.notificationId))) return;
    const settings = await findNotificationSettings(ctx, job.companyId);
    const channel: Channel = channels[payload.channel];
    if (!settings || !channel.isConfigured(settings)) {
      throw new PermanentJobError(`the ${payload.channel} channel is no longer configured`);
    }
    await channel.send(ctx, settings, payload.delivery, signal);
  };
}
