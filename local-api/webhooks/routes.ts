import { Router } from 'express';
import type { Caller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { callerOf } from '../http/auth.ts';
import { missingId } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { queueStatus } from '../queue/queue.ts';
import { formatInZone } from '../rules/time.ts';
import { webhookJobKind } from './events.ts';
import { webhookCreateInput, webhookInputCodes, webhookUpdateInput } from './schema.ts';
import { createWebhook, deleteWebhook, getWebhook, listWebhooks, updateWebhook, webhookObject } from './store.ts';

/** A job kind's counts for one company, its oldest pending job's time in the company's zone. */
export function deliveryStatus(ctx: Context, caller: Caller, kind: string) {
  const status = queueStatus(ctx, caller.companyId, kind);
  return {
    ...status,
    oldestPendingAt: status.oldestPendingAt === null ? null : formatInZone(status.oldestPendingAt, caller.timeZone),
  };
}

export function webhookRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/webhooks', (req, res) => {
    const caller = callerOf(req);
    const webhooks = listWebhooks(ctx, caller).map((row) => webhookObject(row, caller));
    res.json({ webhooks, size: webhooks.length });
  });
  router.post('/webhooks', (req, res) => {
    const caller = callerOf(req);
    const input = validate(webhookCreateInput, req.body, webhookInputCodes);
    const { row, secret } = createWebhook(ctx, caller, input);
    res.json(webhookObject(row, caller, secret));
  });
  router.get('/webhooks/status', (req, res) => {
    res.json(deliveryStatus(ctx, callerOf(req), webhookJobKind));
  });
  router.get('/webhook/:id', (req, res) => {
    const caller = callerOf(req);
    res.json(webhookObject(getWebhook(ctx, caller, req.params.id), caller));
  });
  router.patch('/webhook/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(webhookUpdateInput, req.body, webhookInputCodes);
    res.json(webhookObject(updateWebhook(ctx, caller, req.params.id, input), caller));
  });
  router.delete('/webhook/:id', (req, res) => {
    deleteWebhook(ctx, callerOf(req), req.params.id);
    res.json({ success: true });
  });
  router.all('/webhook', missingId);
  return router;
}
