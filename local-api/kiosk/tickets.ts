import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { Context } from '../context.ts';
import { ApiError } from '../http/errors.ts';

/**
 * A ticket is the kiosk screen's proof for one record and one next step, without handing the screen the record's
 * id (docs/security.md, "A visitor at the screen"):
 * - `invitee-checkin`: check this invitee in (from an invitation lookup);
 * - `visit-checkout`: check this visit out (from a check-out lookup);
 * - `visit-receipt`: read this visit and its gate code (from the check-in that made it), while the visitor is at
 *   the screen: waiting for the host, then the confirmation;
 * - `returning-visitor`: check in as this visitor record (from a returning visitor's proof: docs/kiosk.md).
 * It is sealed (AES-256-GCM, a key derived from the device key, the company as associated data): the screen cannot
 * read what it names nor make one, and one of another company, another step or past its time opens to nothing.
 */
export type TicketKind = 'invitee-checkin' | 'visit-checkout' | 'visit-receipt' | 'returning-visitor';

/** How long each kind of ticket opens: a lookup's next step is taken at once; a receipt lasts the host's 5 minutes
 * of waiting and the confirmation screen's 10 at most. */
export const ticketLifetimeMs: Record<TicketKind, number> = {
  'invitee-checkin': 5 * 60_000,
  'visit-checkout': 5 * 60_000,
  'visit-receipt': 20 * 60_000,
  // The rest of a returning visitor's check-in: the picture, the agreement, the company's questions.
  'returning-visitor': 15 * 60_000,
};

const keys = new WeakMap<Context['secrets'], Buffer>();
const ivBytes = 12;
const tagBytes = 16;

function sealingKey(ctx: Context): Buffer {
  let key = keys.get(ctx.secrets);
  if (!key) {
    key = ctx.secrets.deriveKey('kiosk-tickets-sealed');
    keys.set(ctx.secrets, key);
  }
  return key;
}

export function issueTicket(ctx: Context, companyId: string, kind: TicketKind, id: string): string {
  const iv = ctx.random.bytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(ctx), iv).setAAD(Buffer.from(companyId));
  const body = `${kind}.${id}.${ctx.clock.now() + ticketLifetimeMs[kind]}`;
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** What a ticket opens to, or undefined for one altered, made elsewhere, or of another company. */
function unseal(ctx: Context, companyId: string, ticket: string): string | undefined {
  const raw = Buffer.from(ticket, 'base64url');
  if (raw.length <= ivBytes + tagBytes) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(ctx), raw.subarray(0, ivBytes))
      .setAAD(Buffer.from(companyId))
      .setAuthTag(raw.subarray(ivBytes, ivBytes + tagBytes));
    return Buffer.concat([decipher.update(raw.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The record a ticket names; a ticket altered, expired, of another company or for another step is INVALID_TICKET. */
export function openTicket(ctx: Context, companyId: string, kind: TicketKind, ticket: string): string {
  const [ticketKind, id, expires] = unseal(ctx, companyId, ticket)?.split('.') ?? [];
  if (ticketKind !== kind || !id || !(Number(expires) > ctx.clock.now())) throw new ApiError('INVALID_TICKET');
  return id;
}

/** Whether the ticket is a valid `kind` ticket for the record `id`. */
export function ticketNames(ctx: Context, companyId: string, kind: TicketKind, ticket: string, id: string): boolean {
  try {
    return openTicket(ctx, companyId, kind, ticket) === id;
  } catch {
    return false;
  }
}
