import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { HostRow } from '../hosts/contract.ts';
import { findHost } from '../hosts/store.ts';
import { hostSummaries } from '../hosts/summaries.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { jobsWithKeyPrefix } from '../queue/queue.ts';
import { newRecordId } from '../rules/ids.ts';
import { findLiveRow, insertRow, listRows, objectToRow, rowToObject, updateRow } from '../store/rows.ts';
import { notifyHosts } from './delivery.ts';
import { catalogueFor } from './messages.ts';
import {
  type DeliveryChannel,
  type NotificationCreateInput,
  type NotificationType,
  type NotificationUpdateInput,
  notificationColumns,
  notificationTypes,
} from './schema.ts';
import { notificationJobKind } from './settings.ts';

export type NotificationRow = Record<string, unknown> & {
  id: string;
  type: NotificationType;
  message: string;
  hosts: string;
};

export const notificationQueryFields: QueryFields = {
  type: { kind: 'text', values: Object.fromEntries(notificationTypes.map((t) => [t, t])) },
  message: { kind: 'text' },
  createdAt: { kind: 'timestamp' },
};

const sourceKey = (id: string) => `notification:${id}`;

/** The notification objects for a page of rows: the hosts it went to and the state of each delivery. */
export async function notificationObjects(
  ctx: Context,
  caller: Caller,
  rows: NotificationRow[],
): Promise<Record<string, unknown>[]> {
  const hostIds = rows.map((row) => JSON.parse(row.hosts) as string[]);
  const hosts = await hostSummaries(ctx, caller, hostIds.flat());
  return Promise.all(
    rows.map(async (row, i) => {
      const deliveries = (
        await jobsWithKeyPrefix(ctx, caller.companyId, notificationJobKind, `${sourceKey(row.id)}:`)
      ).map((job) => {
        const [hostId = '', channel] = job.idempotencyKey.slice(sourceKey(row.id).length + 1).split(':');
        const { idempotencyKey: _key, ...state } = job;
        return { hostId, channel: channel as DeliveryChannel, ...state };
      });
      return {
        ...rowToObject(row, notificationColumns, caller.timeZone),
        hosts: (hostIds[i] ?? []).map((id) => hosts.get(id)).filter((host) => host !== undefined),
        deliveries,
      };
    }),
  );
}

export const notificationObject = async (ctx: Context, caller: Caller, row: NotificationRow) =>
  (await notificationObjects(ctx, caller, [row]))[0] as Record<string, unknown>;

/** A notification as its audit entries show it: its id and how many hosts it went to (never its text). */
const auditedNotification = (action: string, row: NotificationRow) => ({
  action,
  objectType: 'notification',
  objectId: row.id,
  details: { hosts: (JSON.parse(row.hosts) as string[]).length },
});

export async function getNotification(ctx: Context, caller: Caller, id: string): Promise<NotificationRow> {
  const row = await findLiveRow<NotificationRow>(ctx.db, 'notifications', caller.companyId, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

async function requireHosts(ctx: Context, caller: Caller, ids: readonly string[]): Promise<HostRow[]> {
  return Promise.all(
    [...new Set(ids)].map(async (id) => {
      const host = await findHost(ctx, caller, id);
      if (!host) throw new ApiError('HOST_NOT_FOUND');
      return host;
    }),
  );
}

/**
 * Sends a notification to the hosts who take its kind: a `delivery` to hosts with `deliveryNotification` on, a
 * `visit` message to hosts with `preCheckinNotifications` on. Hosts it was already sent to are not sent it again.
 */
async function send(ctx: Context, caller: Caller, row: NotificationRow, hosts: readonly HostRow[]): Promise<void> {
  const wants = (host: HostRow) =>
    row.type === 'delivery' ? host.deliveryNotification === 1 : host.preCheckinNotifications === 1;
  const words = catalogueFor(caller.lang);
  await notifyHosts(ctx, caller, { key: sourceKey(row.id), notificationId: row.id }, hosts.filter(wants), {
    subject: row.type === 'delivery' ? words.deliverySubject : words.visitSubject,
    text: row.message,
    kind: row.type,
    details: { notificationId: row.id },
  });
}

export async function createNotification(
  ctx: Context,
  caller: Caller,
  input: NotificationCreateInput,
): Promise<NotificationRow> {
  return await inTransaction(ctx, async () => {
    const hosts = await requireHosts(ctx, caller, input.hosts);
    const id = newRecordId(ctx.random);
    const now = ctx.clock.now();
    await insertRow(ctx.db, 'notifications', {
      ...objectToRow({ type: input.type, message: input.message, hosts: hosts.map((h) => h.id) }, notificationColumns),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getNotification(ctx, caller, id);
    await send(ctx, caller, row, hosts);
    await recordAudit(ctx, auditActor(caller), auditedNotification('notification.created', row));
    return row;
  });
}

/** Updates the record; hosts added by the update receive it (those who had it are not notified twice). */
export async function updateNotification(
  ctx: Context,
  caller: Caller,
  id: string,
  input: NotificationUpdateInput,
): Promise<NotificationRow> {
  return await inTransaction(ctx, async () => {
    await getNotification(ctx, caller, id);
    const hosts = input.hosts ? await requireHosts(ctx, caller, input.hosts) : undefined;
    const { companyId: _company, ...fields } = input;
    await updateRow(ctx.db, 'notifications', caller.companyId, id, {
      ...objectToRow({ ...fields, hosts: hosts?.map((h) => h.id) }, notificationColumns),
      updatedAt: ctx.clock.now(),
    });
    const row = await getNotification(ctx, caller, id);
    if (hosts) await send(ctx, caller, row, hosts);
    await recordAudit(ctx, auditActor(caller), auditedNotification('notification.updated', row));
    return row;
  });
}

/** Deletes a notification; deliveries not yet made are dropped. */
export async function deleteNotification(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    await getNotification(ctx, caller, id);
    const now = ctx.clock.now();
    await updateRow(ctx.db, 'notifications', caller.companyId, id, { deletedAt: now, updatedAt: now });
    await recordAudit(ctx, auditActor(caller), {
      action: 'notification.deleted',
      objectType: 'notification',
      objectId: id,
    });
  });
}

export const listNotifications = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<NotificationRow>(ctx.db, 'notifications', caller.companyId, query);
