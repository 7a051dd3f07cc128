import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { enqueue } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';

/*
 * Invitation e-mails (docs/api.md, "Invitation e-mails"): which write sends which message, queued in the write's
 * transaction. The message itself is made when the job runs (send.ts), from the invitation as it is then.
 */

export const invitationJobKind = 'invitation-email';

/**
 * What a write did to an invitation: a first one (or, for an invitee confirmed again or given another address, a
 * new one), an update of its time or host, a cancellation; `resend` sends it again as it is.
 */
export type InvitationChange = 'invite' | 'update' | 'cancel' | 'resend';

/** What a queued invitation names: the invitee and the calendar event's sequence it was queued with. */
export interface InvitationPayload {
  inviteeId: string;
  sequence: number;
  change: InvitationChange;
}

/**
 * The message a write calls for, from the invitee before and after it (`before` undefined: just made; `after`
 * with `deletedAt`: deleted). `moved`: the invitee's meeting moved without moving the invitee (its end).
 */
export function invitationChange(
  before: InviteeRow | undefined,
  after: InviteeRow,
  moved = false,
): InvitationChange | undefined {
  const invited = (row: InviteeRow | undefined) => row?.deletedAt === null && row.status === 'confirmed';
  if (!invited(after)) {
    // A check-in (`arrived`) ends an invitation without canceling it.
    const ended = after.deletedAt !== null || after.status === 'canceled';
    return ended && invited(before) ? 'cancel' : undefined;
  }
  if (!invited(before) || before?.email !== after.email) return 'invite';
  if (before?.expectedAt !== after.expectedAt || before?.hostId !== after.hostId || moved) return 'update';
  return undefined;
}

/** Whether the company can send e-mail: it saved notification settings with an SMTP server. */
export async function emailConfigured(ctx: Pick<Context, 'db'>, companyId: string): Promise<boolean> {
  const row = (await prepared(ctx.db, 'SELECT smtpHost FROM notification_settings WHERE companyId = ?').get(
    companyId,
  )) as { smtpHost: string } | undefined;
  return Boolean(row?.smtpHost);
}

/**
 * Queues the invitation e-mail a change calls for, in the caller's transaction, when the invitee has an e-mail and
 * the company has e-mail set up. An update or a cancellation goes only to an invitee who was sent an invitation;
 * each one raises the calendar event's sequence and is a message of its own (its idempotency key is the
 * sequence), and a resend is one more message with the sequence as it is.
 */
export async function queueInvitation(
  ctx: Pick<Context, 'db' | 'clock' | 'runtime' | 'random'>,
  caller: Caller,
  invitee: InviteeRow,
  change: InvitationChange,
): Promise<void> {
  if (!invitee.email || !(await emailConfigured(ctx, caller.companyId))) return;
  const current = (await prepared(ctx.db, 'SELECT sequence FROM invitations WHERE companyId = ? AND inviteeId = ?').get(
    caller.companyId,
    invitee.id,
  )) as { sequence: number } | undefined;
  if (!current && (change === 'update' || change === 'cancel')) return;
  const now = ctx.clock.now();
  const sequence = current === undefined ? 0 : change === 'resend' ? current.sequence : current.sequence + 1;
  await prepared(
    ctx.db,
    `INSERT INTO invitations (companyId, inviteeId, sequence, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (companyId, inviteeId) DO UPDATE SET sequence = excluded.sequence, updatedAt = excluded.updatedAt`,
  ).run(caller.companyId, invitee.id, sequence, now, now);
  const resend = change === 'resend' ? `:resend:${ctx.random.bytes(8).toString('hex')}` : '';
  const payload: InvitationPayload = { inviteeId: invitee.id, sequence, change };
  await enqueue(ctx, {
    companyId: caller.companyId,
    kind: invitationJobKind,
    idempotencyKey: `${invitee.id}:${sequence}${resend}`,
    payload,
    // The company's SMTP server: its circuit breaker is the host notifications' e-mail's.
    endpoint: 'notification:email',
  });
}

/** What a write's request says about invitation e-mails: `sendInvitationEmail: false` sends none. */
export interface InvitationOptions {
  sendInvitationEmail?: boolean | undefined;
  /** The invitee's meeting moved without moving the invitee (its end): an update. */
  moved?: boolean;
}

/** Queues what a write of an invitee calls for (`invitationChange`), unless the request said not to send. */
export async function inviteeWritten(
  ctx: Pick<Context, 'db' | 'clock' | 'runtime' | 'random'>,
  caller: Caller,
  before: InviteeRow | undefined,
  after: InviteeRow,
  options: InvitationOptions = {},
): Promise<void> {
  if (options.sendInvitationEmail === false) return;
  const change = invitationChange(before, after, options.moved);
  if (change) await queueInvitation(ctx, caller, after, change);
}
