import { z } from 'zod';
import { auditActor, auditRead, recordAudit } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseLimit, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { formatInZone } from '../rules/time.ts';
import {
  notificationCreateInput,
  notificationDeliveryRowSchema,
  notificationInputCodes,
  notificationObjectSchema,
  notificationSettingsInput,
  notificationSettingsSchema,
  notificationTestInput,
  notificationTestSchema,
  notificationUpdateInput,
} from './schema.ts';
import {
  deleteNotificationSettings,
  getNotificationSettings,
  notificationSettingsObject,
  saveNotificationSettings,
} from './settings.ts';
import {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  notificationObject,
  notificationObjects,
  notificationQueryFields,
  updateNotification,
} from './store.ts';
import { recentDeliveries, sendTestNotification } from './test-send.ts';

export const notificationPaging = { defaultLimit: 500, maxLimit: 1000 };
const deliveryPaging = { defaultLimit: 50, maxLimit: 500 };

const tag = 'Notifications';

export function notificationRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/notifications',
      roles: roles.readers,
      tag,
      summary: 'List notifications',
      query: listQueryInput(notificationPaging),
      response: z.object({ notifications: z.array(notificationObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, notificationPaging, notificationQueryFields);
        const notifications = await notificationObjects(ctx, caller, await listNotifications(ctx, caller, query));
        return { notifications, size: notifications.length };
      },
    }),
    route({
      method: 'post',
      path: '/notifications',
      tag,
      summary: 'Send a message to hosts (a delivery, or about a visit) through the configured channels',
      body: notificationCreateInput,
      fieldCodes: notificationInputCodes,
      response: notificationObjectSchema,
      errors: ['HOST_NOT_FOUND', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) =>
        await notificationObject(ctx, caller, await createNotification(ctx, caller, body)),
    }),
    route({
      method: 'get',
      path: '/notification/:id',
      roles: roles.readers,
      tag,
      summary: 'Retrieve a notification and the state of its deliveries',
      response: notificationObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) =>
        await notificationObject(ctx, caller, await getNotification(ctx, caller, String(params.id))),
    }),
    route({
      method: 'patch',
      path: '/notification/:id',
      tag,
      summary: 'Update a notification; hosts it adds receive it',
      body: notificationUpdateInput,
      fieldCodes: notificationInputCodes,
      response: notificationObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', 'HOST_NOT_FOUND', 'INVALID_PARAMETER'],
      handle: async ({ caller, params, body }) =>
        await notificationObject(ctx, caller, await updateNotification(ctx, caller, String(params.id), body)),
    }),
    route({
      method: 'delete',
      path: '/notification/:id',
      tag,
      summary: 'Delete a notification (deliveries not yet made are dropped)',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteNotification(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
    route({
      method: 'get',
      path: '/integration/notifications',
      roles: roles.staff,
      tag,
      summary: 'Retrieve how notifications are delivered (SMTP, webhook, Slack, Teams, SMS) and the state of the queue',
      response: notificationSettingsSchema,
      errors: ['NOT_FOUND'],
      handle: async ({ caller }) =>
        await notificationSettingsObject(ctx, caller, await getNotificationSettings(ctx, caller)),
    }),
    route({
      method: 'post',
      path: '/integration/notifications',
      roles: roles.staff,
      tag,
      summary: 'Create or update the delivery settings (partial; absent fields keep their value)',
      body: notificationSettingsInput,
      response: notificationSettingsSchema,
      errors: ['INVALID_PARAMETER', 'DESTINATION_REFUSED'],
      handle: async ({ caller, body }) =>
        await notificationSettingsObject(ctx, caller, await saveNotificationSettings(ctx, caller, body)),
    }),
    route({
      method: 'post',
      path: '/integration/notifications/test',
      roles: roles.staff,
      tag,
      summary: 'Send a test message through a channel now, with the saved settings, and say whether it was taken',
      body: notificationTestInput,
      response: notificationTestSchema,
      errors: ['CHANNEL_NOT_CONFIGURED', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) => {
        const sent = await sendTestNotification(ctx, caller, body);
        await recordAudit(ctx, auditActor(caller), {
          action: 'notifications.channel.tested',
          objectType: 'notificationSettings',
          details: { channel: sent.channel, delivered: sent.delivered },
        });
        return sent;
      },
    }),
    route({
      method: 'get',
      path: '/integration/notifications/deliveries',
      roles: roles.staff,
      tag,
      summary:
        "The latest deliveries to hosts (check-in messages and notifications), newest first, with each one's state",
      query: listQueryInput(deliveryPaging).pick({ limit: true }),
      response: z.object({ deliveries: z.array(notificationDeliveryRowSchema), size: z.number().int() }),
      errors: ['INVALID_LIMIT_VALUE'],
      handle: async ({ req, caller }) => {
        const deliveries = (await recentDeliveries(ctx, caller, parseLimit(req.query, deliveryPaging))).map((row) => ({
          ...row,
          createdAt: formatInZone(row.createdAt, caller.timeZone),
          updatedAt: formatInZone(row.updatedAt, caller.timeZone),
        }));
        auditRead(ctx, caller, { action: 'notifications.deliveries.read', objectType: 'job', size: deliveries.length });
        return { deliveries, size: deliveries.length };
      },
    }),
    route({
      method: 'delete',
      path: '/integration/notifications',
      tag,
      summary: 'Delete the delivery settings (nothing is sent until they are saved again)',
      response: successSchema,
      errors: [],
      handle: async ({ caller }) => {
        await deleteNotificationSettings(ctx, caller);
        return { success: true };
      },
    }),
  ];
}
