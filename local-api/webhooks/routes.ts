import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { deliveryStatus } from './delivery.ts';
import { webhookJobKind } from './events.ts';
import {
  deliveryStatusSchema,
  webhookCreateInput,
  webhookInputCodes,
  webhookObjectSchema,
  webhookUpdateInput,
} from './schema.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  updateWebhook,
  webhookObject,
  webhookQueryFields,
} from './store.ts';

const tag = 'Webhooks';
/** A company has at most 20 webhooks; the list pages as the others do all the same. */
const webhookPaging = { defaultLimit: 500, maxLimit: 1000 };
const inputErrors = [
  'MISSING_URL',
  'INVALID_URL',
  'INVALID_EVENT',
  'INVALID_PARAMETER',
  'DESTINATION_REFUSED',
] as const;

export function webhookRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/webhooks',
      tag,
      summary: 'List the webhooks (their secrets are not shown)',
      query: listQueryInput(webhookPaging),
      response: z.object({ webhooks: z.array(webhookObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, webhookPaging, webhookQueryFields);
        const webhooks = (await listWebhooks(ctx, caller, query)).map((row) => webhookObject(row, caller));
        return { webhooks, size: webhooks.length };
      },
    }),
    route({
      method: 'post',
      path: '/webhooks',
      tag,
      summary: 'Register a webhook; the answer shows its signing secret, once',
      response: webhookObjectSchema,
      body: webhookCreateInput,
      fieldCodes: webhookInputCodes,
      errors: [...inputErrors, 'TOO_MANY_WEBHOOKS'],
      handle: async ({ caller, body }) => {
        const { row, secret } = await createWebhook(ctx, caller, body);
        return webhookObject(row, caller, secret);
      },
    }),
    route({
      method: 'get',
      path: '/webhooks/status',
      roles: roles.readers,
      tag,
      summary: 'Deliveries pending, failed (given up) and done, with the last error',
      response: deliveryStatusSchema,
      errors: [],
      handle: async ({ caller }) => await deliveryStatus(ctx, caller, webhookJobKind),
    }),
    route({
      method: 'get',
      path: '/webhook/:id',
      tag,
      summary: 'Retrieve a webhook',
      response: webhookObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => webhookObject(await getWebhook(ctx, caller, String(params.id)), caller),
    }),
    route({
      method: 'patch',
      path: '/webhook/:id',
      tag,
      summary: 'Update a webhook (url, events, secret, isActive)',
      response: webhookObjectSchema,
      body: webhookUpdateInput,
      fieldCodes: webhookInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', ...inputErrors],
      handle: async ({ caller, params, body }) =>
        webhookObject(await updateWebhook(ctx, caller, String(params.id), body), caller),
    }),
    route({
      method: 'delete',
      path: '/webhook/:id',
      tag,
      summary: 'Delete a webhook; its pending deliveries are dropped',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteWebhook(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
