import { findAccessConfig } from '../access/store.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { dayAround } from '../kiosk/visitor-store.ts';
import { publicLink } from '../public/links.ts';
import { prepared } from '../store/rows.ts';

/** What an invitation needs of its meeting (Unix ms). */
export interface InvitationMeeting {
  title: string;
  end: number;
  location: string | null;
  message: string | null;
  endRegistrationAt: number | null;
}

/** The meeting that made an invitee (deleted ones too: a canceled invitation still names it), if any. */
export async function meetingOfInvitee(
  ctx: Pick<Context, 'db'>,
  invitee: InviteeRow,
): Promise<InvitationMeeting | undefined> {
  if (!invitee.meetingId) return undefined;
  return (await prepared(
    ctx.db,
    'SELECT title, "end", location, message, endRegistrationAt FROM meetings WHERE id = ? AND companyId = ?',
  ).get(invitee.meetingId, invitee.companyId)) as InvitationMeeting | undefined;
}

/**
 * When the invited visit takes place (Unix ms): from the expected time to its meeting's end, or, without a meeting
 * (or one that ends before the invitee is expected), to the end of that day in the company's time zone.
 */
export function visitWindow(
  invitee: InviteeRow,
  meeting: InvitationMeeting | undefined,
  timeZone: string,
): { start: number; end: number } {
  const start = invitee.expectedAt;
  const end = meeting && meeting.end > start ? meeting.end : dayAround(start, timeZone).end;
  return { start, end };
}

/** How long after its visit's window an invitation's pass link still opens, for a guest who stays longer. */
const passOverstayMs = 12 * 3_600_000;

/**
 * The links an invitation carries, each only where the service has a public address (`publicLink`):
 * pre-registration (`register`), until the meeting's `endRegistrationAt` or else the end of the visit's day; and,
 * where the company's access control is on, the gate pass (`pass`), until 12 hours past the end of the visit's
 * window: a guest still inside when the meeting ends keeps the code until check-out (the page ends it then).
 */
export async function invitationLinks(
  ctx: Context,
  caller: Caller,
  invitee: InviteeRow,
): Promise<{ register?: string; pass?: string }> {
  const meeting = await meetingOfInvitee(ctx, invitee);
  const window = visitWindow(invitee, meeting, caller.timeZone);
  const register = await publicLink(ctx, caller.companyId, {
    purpose: 'register',
    subjectId: invitee.id,
    expiresAt: meeting?.endRegistrationAt ?? dayAround(invitee.expectedAt, caller.timeZone).end,
  });
  if (register === undefined) return {};
  const access = await findAccessConfig(ctx, caller.companyId);
  const pass = access?.enabled
    ? await publicLink(ctx, caller.companyId, {
        purpose: 'pass',
        subjectId: invitee.id,
        expiresAt: window.end + passOverstayMs,
      })
    : undefined;
  return { register, ...(pass ? { pass } : {}) };
}
