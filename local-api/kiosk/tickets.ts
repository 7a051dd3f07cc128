import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from '../context.ts';
import { ApiError } from '../http/errors.ts';

/**
 * A ticket names one record for one next step at the kiosk (check this invitee in, check this visit out) without
 * handing the screen the record's id: the screen shows a first name and an initial, and acts with the ticket. It
 * is signed with a key derived from the device key, bound to the company and the step, and expires quickly.
 */
export type TicketKind = 'invitee-checkin' | 'visit-checkout';

export const ticketLifetimeMs = 5 * 60_000;

const keys = new WeakMap<Context['secrets'], Buffer>();

function signature(ctx: Context, text: string): Buffer {
  let key = keys.get(ctx.secrets);
  if (!key) {
    key = ctx.secrets.deriveKey('kiosk-tickets');
    keys.set(ctx.secrets, key);
  }
  return createHmac('sha256', key).update(text).digest();
}

export function issueTicket(ctx: Context, companyId: string, kind: TicketKind, id: string): string {
  const body = `${kind}.${id}.${ctx.clock.now() + ticketLifetimeMs}`;
  return `${Buffer.from(body).toString('base64url')}.${signature(ctx, `${companyId}.${body}`).toString('base64url')}`;
}

/** The record a ticket names; a ticket altered, expired, of another company or for another step is INVALID_TICKET. */
export function openTicket(ctx: Context, companyId: string, kind: TicketKind, ticket: string): string {
  const [encoded, mac] = ticket.split('.');
  if (!encoded || !mac) throw new ApiError('INVALID_TICKET');
  const body = Buffer.from(encoded, 'base64url').toString('utf8');
  const presented = Buffer.from(mac, 'base64url');
  const expected = signature(ctx, `${companyId}.${body}`);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
    throw new ApiError('INVALID_TICKET');
  const [ticketKind, id, expires] = body.split('.');
  if (ticketKind !== kind || !id || !(Number(expires) > ctx.clock.now())) throw new ApiError('INVALID_TICKET');
  return id;
}
