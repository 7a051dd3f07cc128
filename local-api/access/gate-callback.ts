import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import type { EventListener } from '../events.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { enqueue, type JobHandler, PermanentJobError } from '../queue/queue.ts';
import { formatInZone } from '../rules/time.ts';
import { gateVisitorFields } from '../visitors/contract.ts';
import { deliveryStatus, postJson } from '../webhooks/delivery.ts';
import { deliveryStatusSchema } from '../webhooks/schema.ts';
import { deliveryHeader, eventHeader } from '../webhooks/signature.ts';
import { cardNumberOf, issueCode } from './qr.ts';
import { findAccessConfig } from './store.ts';

/*
 * The post-check-in callback (sections 2.9 and 6): when a visitor finishes check-in and the company's integration
 * is enabled with a `url`, the kiosk POSTs the visit to the gate. The job is queued in the check-in's own
 * transaction, so the check-in answers at once and the call survives a gate outage and a kiosk restart.
 * Body, headers and retry policy: docs/access-control.md.
 */

export const gateCallbackKind = 'gate.callback';

/** A callback is retried for a day: after that the visitor has long gone, and the gate has other sources. */
export const gateCallbackGiveUpMs = 24 * 3_600_000;

interface CallbackPayload {
  /** The exact JSON sent, fixed at check-in. */
  body: string;
}

export function gateCallbackListener(ctx: Context): EventListener {
  return async ({ name, caller, object }) => {
    // A check-in replayed at the hub was called in by the kiosk that made it.
    if (caller.replayedFor !== undefined || (name !== 'visit.checkin' && name !== 'visit.allowed')) return;
    const config = await findAccessConfig(ctx, caller.companyId);
    if (!config?.enabled || config.url === '') return;
    const visit = await object();
    // A visit held at the door is the front desk's to let in: the gate hears of it when the desk allows it (the
    // key below keeps it to one callback), never before.
    if ((name === 'visit.checkin') === (visit.heldAtDoor === true)) return;
    const now = ctx.clock.now();
    const cardNumber = cardNumberOf(visit.cardNumber) ?? null;
    const code =
      cardNumber !== null && config.aesKey !== ''
        ? issueCode(config, 'visitor', cardNumber, now, ctx.random)
        : undefined;
    const idempotencyKey = `visit.checkin.${visit.id}`;
    const body = {
      event: 'visit.checkin',
      id: idempotencyKey,
      occurredAt: formatInZone(now, caller.timeZone),
      companyId: caller.companyId,
      cardNumber,
      qrcode: code
        ? {
            payload: code.payload,
            mode: code.mode,
            expiresAt: code.expiresAt === null ? null : formatInZone(code.expiresAt, caller.timeZone),
          }
        : null,
      visitor: Object.fromEntries(gateVisitorFields.map((field) => [field, visit[field] ?? null])),
      host: visit.host ?? null,
      visit,
    };
    const payload: CallbackPayload = { body: JSON.stringify(body) };
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: gateCallbackKind,
      idempotencyKey,
      payload,
      giveUpAfterMs: gateCallbackGiveUpMs,
      endpoint: 'gate',
      // A visitor waits at the turnstile: ahead of every webhook and e-mail.
      priority: 'urgent',
    });
  };
}

/**
 * Sends one callback to the gate's current address with the current credentials (both read now, not at
 * check-in: a corrected password applies to callbacks still waiting). Credentials never enter the job's row.
 */
export function gateCallbackHandler(ctx: Context): JobHandler {
  return async (job, signal) => {
    const config = await findAccessConfig(ctx, job.companyId);
    if (!config?.enabled || config.url === '') {
      throw new PermanentJobError('the integration was disabled, or its url removed, before the callback was sent');
    }
    const headers: Record<string, string> = {
      'idempotency-key': job.idempotencyKey,
      [deliveryHeader]: job.idempotencyKey,
      [eventHeader]: 'visit.checkin',
    };
    if (config.username !== '' || config.password !== '') {
      headers.authorization = `Basic ${Buffer.from(`${config.username}:${config.password}`).toString('base64')}`;
    }
    await postJson(ctx, config.url, (job.payload as CallbackPayload).body, headers, signal);
  };
}

export function gateCallbackRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/integration/access/status',
      roles: roles.readers,
      tag: 'Access control',
      summary: 'Gate callbacks pending, failed (given up) and done, with the last error',
      response: deliveryStatusSchema,
      errors: [],
      handle: async ({ caller }) => await deliveryStatus(ctx, caller, gateCallbackKind),
    }),
  ];
}
