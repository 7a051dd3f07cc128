import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction, memoised } from '../context.ts';
import type { EventListener } from '../events.ts';
import { findHost } from '../hosts/store.ts';
import { findInvitee } from '../invitees/store.ts';
import { enqueue, type JobHandler } from '../queue/queue.ts';
import { formatInZone } from '../rules/time.ts';
import { notifyHosts } from './delivery.ts';
import { catalogueFor, fill, localTime, personLabel } from './messages.ts';
import { findNotificationSettings } from './settings.ts';

/*
 * The host's reminder before an expected guest (docs/api.md, "Reminders before a guest"): planned as a job due
 * `reminderMinutesBefore` the invitee's `expectedAt` when the invitee is created or changed, keyed by the expected
 * time, so a new time plans a new reminder and the old one finds, when it is due, that it is stale and does nothing;
 * as does a reminder whose invitee was canceled, has arrived or was deleted meanwhile.
 */

export const reminderJobKind = 'host-reminder';

interface ReminderPayload {
  inviteeId: string;
  /** The expected time it was planned for (Unix ms): another time now makes it stale. */
  expectedAt: number;
}

/**
 * When to remind the host of a guest expected at `expectedAt`: `leadMinutes` before, or at once when that is past
 * but the guest is still to come; undefined when the expected time is past.
 */
export function reminderTime(expectedAt: number, leadMinutes: number, now: number): number | undefined {
  if (expectedAt <= now) return undefined;
  return Math.max(now, expectedAt - leadMinutes * 60_000);
}

const reminderKey = (payload: ReminderPayload) => `reminder:${payload.inviteeId}:${payload.expectedAt}`;

/**
 * Plans the reminder of a confirmed invitee, created or changed, of a company that set up its notifications. A write
 * a hub replays was the kiosk's (an invitee's check-in): a kiosk of a hub never writes invitees, so the reminders
 * are planned where invitees are written, once.
 */
export function planReminders(ctx: Context): EventListener {
  return async (event) => {
    if ((event.name !== 'invitee.created' && event.name !== 'invitee.updated') || event.caller.replayedFor) return;
    const { caller } = event;
    const settings = await memoised(ctx, `notifications:${caller.companyId}`, () =>
      findNotificationSettings(ctx, caller.companyId),
    );
    if (!settings) return;
    const invitee = await findInvitee(ctx, caller, String((await event.object()).id));
    if (invitee?.status !== 'confirmed') return;
    const runAt = reminderTime(invitee.expectedAt, settings.reminderMinutesBefore, ctx.clock.now());
    if (runAt === undefined) return;
    const payload: ReminderPayload = { inviteeId: invitee.id, expectedAt: invitee.expectedAt };
    await enqueue(ctx, {
      companyId: caller.companyId,
      kind: reminderJobKind,
      idempotencyKey: reminderKey(payload),
      payload,
      runAt,
    });
  };
}

/**
 * Sends a due reminder through the host's channels, unless it is stale: the invitee is gone, canceled or arrived,
 * expected at another time, or its host turned `preCheckinNotifications` off.
 */
export function remindHost(ctx: Context): JobHandler {
  return async (job) => {
    const payload = job.payload as ReminderPayload;
    const caller = await companyCaller(ctx, job.companyId);
    if (!caller) return;
    await inTransaction(ctx, async () => {
      const invitee = await findInvitee(ctx, caller, payload.inviteeId);
      if (invitee?.status !== 'confirmed' || invitee.expectedAt !== payload.expectedAt) return;
      const host = await findHost(ctx, caller, invitee.hostId);
      if (host?.preCheckinNotifications !== 1) return;
      const words = catalogueFor(caller.lang);
      const visitor = personLabel(invitee.name ?? invitee.email, invitee.company);
      const values = { visitor, time: localTime(invitee.expectedAt, caller.lang, caller.timeZone) };
      await notifyHosts(ctx, caller, { key: reminderKey(payload) }, [host], {
        subject: fill(words.reminderSubject, values),
        text: fill(words.reminderText, values),
        kind: 'invitee.reminder',
        details: { inviteeId: invitee.id, expectedAt: formatInZone(invitee.expectedAt, caller.timeZone) },
      });
    });
  };
}
