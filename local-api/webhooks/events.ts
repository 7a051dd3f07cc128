import type { Context } from '../context.ts';
import type { EventListener, EventName } from '../events.ts';
import { enqueue, type JobHandler } from '../queue/queue.ts';
import { newUuid } from '../rules/ids.ts';
import { prepared } from '../store/rows.ts';
import { postJson } from './delivery.ts';
import { deliveryHeader, eventHeader, signatureHeader, signBody, timestampHeader } from './signature.ts';

export const webhookJobKind = 'webhook.delivery';

/** Deliveries are tried for 3 days (the queue's default), then given up and counted as failed. */
export const webhookGiveUpMs = 3 * 86_400_000;

interface DeliveryPayload {
  webhookId: string;
  event: EventName;
  /** The exact JSON sent and signed, fixed when the event happened. */
  body: string;
}

/**
 * Queues each domain event for every active webhook of the company that asked for it. It runs inside the
 * transaction of the write the event reports (see events.ts): the delivery is queued if and only if the write
 * commits. The body is the object as the API answers it, with `event` set (docs/access-control.md, "Webhooks").
 */
export function webhookListener(ctx: Context): EventListener {
  return async ({ name, caller, object }) => {
    const hooks = (await prepared(
      ctx.db,
      'SELECT id, events FROM webhooks WHERE companyId = ? AND isActive = 1 AND deletedAt IS NULL',
    ).all(caller.companyId)) as { id: string; events: string }[];
    const subscribed = hooks.filter((hook) => {
      const events = JSON.parse(hook.events) as string[];
      return events.includes('*') || events.includes(name);
    });
    if (subscribed.length === 0) return;
    const body = JSON.stringify({ ...(await object()), event: name });
    const eventId = newUuid(ctx.random);
    for (const hook of subscribed) {
      const payload: DeliveryPayload = { webhookId: hook.id, event: name, body };
      await enqueue(ctx, {
        companyId: caller.companyId,
        kind: webhookJobKind,
        idempotencyKey: `${eventId}.${hook.id}`,
        payload,
        giveUpAfterMs: webhookGiveUpMs,
        endpoint: `webhook:${hook.id}`,
        priority: 'background',
      });
    }
  };
}

/** Sends one delivery, signed with the webhook's current secret; a webhook deleted or paused since gets nothing. */
export function webhookDeliveryHandler(ctx: Context): JobHandler {
  return async (job, signal) => {
    const { webhookId, event, body } = job.payload as DeliveryPayload;
    const hook = (await prepared(
      ctx.db,
      'SELECT url, secret FROM webhooks WHERE id = ? AND companyId = ? AND isActive = 1 AND deletedAt IS NULL',
    ).get(webhookId, job.companyId)) as { url: string; secret: string } | undefined;
    if (!hook) return;
    await postJson(
      ctx,
      hook.url,
      body,
      {
        [eventHeader]: event,
        [deliveryHeader]: job.idempotencyKey,
        'idempotency-key': job.idempotencyKey,
        [timestampHeader]: String(Math.floor(ctx.clock.now() / 1000)),
        [signatureHeader]: signBody(ctx.secrets.open(hook.secret), body),
      },
      signal,
    );
  };
}
