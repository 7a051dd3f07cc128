import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { guestsScope } from '../credentials/guests.ts';
import type { EventListener } from '../events.ts';
import { findHost } from '../hosts/store.ts';
import { additionalEmailsOf, emailAboutHost, hostNotice } from '../notifications/delivery.ts';
import { catalogueFor, fill, localTime } from '../notifications/messages.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { enqueue, type JobHandler } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { findHostReply } from './store.ts';

export const escalationJobKind = 'host-escalation';

interface EscalationPayload {
  visitId: string;
  hostId: string;
}

/**
 * On a check-in whose host was sent a message, when the company set `escalateAfterMinutes`: a job for that time
 * later, which tells the fallback unless the host opened or answered by then. Scheduled by the service that took
 * the check-in (a kiosk, from its own queue, as it sends the message), not by a hub replaying it.
 */
export function escalateOnCheckin(ctx: Context): EventListener {
  return async (event) => {
    if (event.name !== 'visit.checkin' || event.caller.replayedFor !== undefined) return;
    const { caller } = event;
    const settings = await findNotificationSettings(ctx, caller.companyId);
    if (!settings?.escalateAfterMinutes) return;
    const visit = (await event.object()) as { id: string; host: { id: string } | null };
    // Only a host who was sent the message (this transaction queued it) can be late answering it.
    if (!visit.host || (await hostNotice(ctx, caller.companyId, visit.id)) === 'none') return;
    const payload: EscalationPayload = { visitId: visit.id, hostId: visit.host.id };
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: escalationJobKind,
      idempotencyKey: `escalate:${visit.id}`,
      payload,
      runAt: ctx.clock.now() + settings.escalateAfterMinutes * 60_000,
    });
  };
}

/**
 * The escalation, when its time comes. Nothing happens when the host opened the message's page or answered (here,
 * or at the hub: the reply arrives by the feed), when someone decided the visit meanwhile, or when the visitor
 * left. Otherwise, in one transaction: the front desk's attention item (`host_escalations`) and an e-mail to the
 * host's `additionalEmails` and the company's `receptionEmail`.
 */
export function escalationHandler(ctx: Context): JobHandler {
  return async (job) => {
    const { visitId, hostId } = job.payload as EscalationPayload;
    const caller = await companyCaller(ctx, job.companyId);
    if (!caller) return;
    await inTransaction(ctx, async () => {
      const visit = (await prepared(
        ctx.db,
        'SELECT * FROM visits WHERE id = ? AND companyId = ? AND deletedAt IS NULL',
      ).get(visitId, job.companyId)) as Record<string, unknown> | undefined;
      if (!visit || visit.checkoutAt !== null) return;
      if (visit.authorizationStatus === 'ALLOWED' || visit.authorizationStatus === 'DENIED') return;
      const reply = await findHostReply(ctx, job.companyId, visitId);
      if (reply?.openedAt != null || reply?.answeredAt != null) return;
      const settings = await findNotificationSettings(ctx, job.companyId);
      const host = await findHost(ctx, caller, hostId);
      if (!settings?.escalateAfterMinutes || !host) return;
      await prepared(
        ctx.db,
        `INSERT INTO host_escalations (id, companyId, hostId, escalatedAt) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      ).run(visitId, job.companyId, hostId, ctx.clock.now());
      const words = catalogueFor(caller.lang);
      const values = {
        host: host.name,
        visitor: visit.company ? `${visit.name ?? ''} (${visit.company})` : String(visit.name ?? ''),
        time: localTime(Number(visit.checkinAt), caller.lang, caller.timeZone),
        minutes: String(settings.escalateAfterMinutes),
      };
      const to = [...new Set([...additionalEmailsOf(host), settings.receptionEmail].filter(Boolean))];
      await emailAboutHost(ctx, caller, { key: `escalation:${visitId}` }, host, to, {
        subject: fill(words.escalationSubject, values),
        text: fill(words.escalationText, values),
        kind: 'visit.escalated',
        details: { visitId },
      });
    });
  };
}

/** An escalated host who has not answered yet, as the front desk's attention item names them. */
export interface UnansweredHost {
  visitId: string;
  hostName: string;
  visitorName: string;
}

/**
 * The day's escalations still unanswered: the host has not answered (here or at the hub), no one decided the
 * visit, and the visitor has not left; a `host` person's own. Newest first, at most 20.
 */
export async function unansweredHosts(ctx: Context, caller: Caller, since: number): Promise<UnansweredHost[]> {
  const scope = guestsScope(caller, 'e.hostId');
  return (await prepared(
    ctx.db,
    `SELECT e.id AS "visitId", h.name AS "hostName", COALESCE(v.name, '') AS "visitorName"
     FROM host_escalations e
     JOIN visits v ON v.id = e.id AND v.companyId = e.companyId
     JOIN hosts h ON h.id = e.hostId AND h.companyId = e.companyId
     LEFT JOIN host_replies r ON r.id = e.id AND r.companyId = e.companyId
     WHERE e.companyId = :companyId AND e.escalatedAt >= :since AND r.answeredAt IS NULL AND v.deletedAt IS NULL
       AND v.checkoutAt IS NULL AND (v.authorizationStatus IS NULL OR v.authorizationStatus = 'AWAITING')
       ${scope ? `AND ${scope.sql}` : ''}
     ORDER BY e.escalatedAt DESC LIMIT 20`,
  ).all({ companyId: caller.companyId, since, ...scope?.params })) as UnansweredHost[];
}
