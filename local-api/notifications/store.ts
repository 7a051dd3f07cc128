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
export function notificationObjects(ctx: Context, caller: Caller, rows: NotificationRow[]): Record<string, unknown>[] {
  const hostIds = rows.map((row) => JSON.parse(row.hosts) as string[]);
  const hosts = hostSummaries(ctx, caller, hostIds.flat());
  return rows.map((row, i) => {
    const deliveries = jobsWithKeyPrefix(ctx, caller.companyId, notificationJobKind, `${sourceKey(row.id)}:`).map(
      (job) => {
        const [hostId = '', channel] = job.idempotencyKey.slice(sourceKey(row.id).length + 1).split(':');
        const { idempotencyKey: _key, ...state } = job;
        return { hostId, channel: channel as DeliveryChannel, ...state };
      },
    );
    return {
      ...rowToObject(row, notificationColumns, caller.timeZone),
      hosts: (hostIds[i] ?? []).map((id) => hosts.get(id)).filter((host) => host !== undefined),
      deliveries,
    };
  });
}

export const notificationObject = (ctx: Context, caller: Caller, row: NotificationRow) =>
  notificationObjects(ctx, caller, [row])[0] as Record<string, unknown>;

/** A notification as its audit entries show it: its id and how many hosts it went to (never its text). */
const auditedNotification = (action: string, row: NotificationRow) => ({
  action,
  objectType: 'notification',
  objectId: row.id,
  details: { hosts: (JSON.parse(row.hosts) as string[]).length },
});

export function getNotification(ctx: Context, caller: Caller, id: string): NotificationRow {
  const row = findLiveRow<NotificationRow>(ctx.db, 'notifications', caller.companyId, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

function requireHosts(ctx: Context, caller: Caller, ids: readonly string[]): HostRow[] {
  return [...new Set(ids)].map((id) => {
    const host = findHost(ctx, caller, id);
    if (!host) throw new ApiError('HOST_NOT_FOUND');
    return host;
  });
}

/**
 * Sends a notification to the hosts who take its kind: a `delivery` to hosts with `deliveryNotification` on, a
 * `visit` message to hosts with `preCheckinNotifications` on. Hosts it was already sent to are not sent it again.
 */
function send(ctx: Context, caller: Caller, row: NotificationRow, hosts: readonly HostRow[]): void {
  const wants = (host: HostRow) =>
    row.type === 'delivery' ? host.deliveryNotification === 1 : host.preCheckinNotifications === 1;
  const words = catalogueFor(caller.lang);
  notifyHosts(ctx, caller, { key: sourceKey(row.id), notificationId: row.id }, hosts.filter(wants), {
    subject: row.type === 'delivery' ? words.deliverySubject : words.visitSubject,
    text: row.message,
    kind: row.type,
    details: { notificationId: row.id },
  });
}

export function createNotification(ctx: Context, caller: Caller, input: NotificationCreateInput): NotificationRow {
  return inTransaction(ctx, () => {
    const hosts = requireHosts(ctx, caller, input.hosts);
    const id = newRecordId(ctx.random);
    const now = ctx.clock.now();
    insertRow(ctx.db, 'notifications', {
      ...objectToRow({ type: input.type, message: input.message, hosts: hosts.map((h) => h.id) }, notificationColumns),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = getNotification(ctx, caller, id);
    send(ctx, caller, row, hosts);
    recordAudit(ctx, auditActor(caller), auditedNotification('notification.created', row));
    return row;
  });
}

/** Updates the record; hosts added by the update receive it (those who had it are not notified twice). */
export function updateNotification(
  ctx: Context,
  caller: Caller,
  id: string,
  input: NotificationUpdateInput,
): NotificationRow {
  return inTransaction(ctx, () => {
    getNotification(ctx, caller, id);
    const hosts = input.hosts ? requireHosts(ctx, caller, input.hosts) : undefined;
    const { companyId: _company, ...fields } = input;
    updateRow(ctx.db, 'notifications', caller.companyId, id, {
      ...objectToRow({ ...fields, hosts: hosts?.map((h) => h.id) }, notificationColumns),
      updatedAt: ctx.clock.now(),
    });
    const row = getNotification(ctx, caller, id);
    if (hosts) send(ctx, caller, row, hosts);
    recordAudit(ctx, auditActor(caller), auditedNotification('notification.updated', row));
    return row;
  });
}

/** Deletes a notification; deliveries not yet made are dropped. */
export function deleteNotification(ctx: Context, caller: Caller, id: string): void {
  inTransaction(ctx, () => {
    getNotification(ctx, caller, id);
    const now = ctx.clock.now();
    updateRow(ctx.db, 'notifications', caller.companyId, id, { deletedAt: now, updatedAt: now });
    recordAudit(ctx, auditActor(caller), { action: 'notification.deleted', objectType: 'notification', objectId: id });
  });
}

export const listNotifications = (ctx: Context, caller: Caller, query: ListQuery) =>
  listRows<NotificationRow>(ctx.db, 'notifications', caller.companyId, query);
