import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { meetingsScope, requireOwnGuest } from '../credentials/guests.ts';
import { findHost, hostNameQueryField } from '../hosts/store.ts';
import { hostSummaries } from '../hosts/summaries.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { type InvitationOptions, inviteeWritten } from '../invitations/queue.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { createInvitee, updateInvitee } from '../invitees/store.ts';
import { emailKey } from '../rules/identity.ts';
import { newRecordId } from '../rules/ids.ts';
import { parseTimestampInput } from '../rules/time.ts';
import { findLiveRow, insertRow, listRows, objectToRow, prepared, updateRow } from '../store/rows.ts';
import { type MeetingRow, meetingWithoutHost } from './objects.ts';
import {
  type MeetingCreateInput,
  type MeetingUpdateInput,
  meetingColumns,
  meetingDateFields,
  meetingOrigins,
  meetingTypes,
} from './schema.ts';

export const meetingQueryFields: QueryFields = {
  ...Object.fromEntries(
    ['title', 'location', 'hostId', 'meetingLocationId', 'meetingTypeId', 'inviteId', 'lang'].map((key) => [
      key,
      { kind: 'text' as const },
    ]),
  ),
  type: { kind: 'text', values: Object.fromEntries(meetingTypes.map((t) => [t, t])) },
  createdOn: { kind: 'text', values: Object.fromEntries(meetingOrigins.map((o) => [o, o])) },
  start: { kind: 'timestamp' },
  end: { kind: 'timestamp', column: '"end"' },
  createdAt: { kind: 'timestamp' },
  isRecurring: { kind: 'boolean' },
  allDay: { kind: 'boolean' },
  hostName: hostNameQueryField,
};

/** The meeting objects of docs/api.md, "Meetings" for a page of rows, each with its host (hosts fetched once). */
export async function meetingObjects(
  ctx: Context,
  caller: Caller,
  rows: MeetingRow[],
): Promise<Record<string, unknown>[]> {
  const hosts = await hostSummaries(
    ctx,
    caller,
    rows.map((r) => r.hostId),
  );
  return rows.map((row) => ({ ...meetingWithoutHost(row, caller), host: hosts.get(row.hostId) ?? null }));
}

export const meetingObject = async (ctx: Context, caller: Caller, row: MeetingRow) =>
  (await meetingObjects(ctx, caller, [row]))[0] as Record<string, unknown>;

export async function findMeeting(ctx: Context, caller: Caller, id: string): Promise<MeetingRow | undefined> {
  return await findLiveRow<MeetingRow>(ctx.db, 'meetings', caller.companyId, id, meetingsScope(ctx.db, caller));
}

export async function getMeeting(ctx: Context, caller: Caller, id: string): Promise<MeetingRow> {
  const row = await findMeeting(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The input's dates in milliseconds, read in the meeting's zone (else the company's) when they carry no offset. */
function resolveDates(input: MeetingUpdateInput, timeZone: string): Record<string, number | null> {
  const resolved: Record<string, number | null> = {};
  for (const key of meetingDateFields) {
    const value = input[key];
    if (value === undefined) continue;
    if (value === null) {
      resolved[key] = null;
      continue;
    }
    const at = parseTimestampInput(value, timeZone);
    if (at === undefined) throw new ApiError('INVALID_PARAMETER', { field: key });
    resolved[key] = at;
  }
  return resolved;
}

/** Guests as stored: trimmed, lower case, each once. */
const normalizedGuests = (guests: readonly string[]) => [
  ...new Set(guests.map((guest) => emailKey(guest)).filter((g) => g !== null)),
];

/**
 * The fields of an input as stored: the host checked to be the company's (and the caller's own, for people who
 * invite only for themselves), the end not before the start (a meeting moved by its start alone keeps its duration).
 */
async function storedFields(ctx: Context, caller: Caller, input: MeetingUpdateInput, current?: MeetingRow) {
  const { companyId: _company, guests, sendInvitationEmail: _send, ...fields } = input;
  const hostId = input.hostId ?? current?.hostId;
  if (input.hostId !== undefined) requireOwnGuest(caller, 'invite', input.hostId);
  if (input.hostId !== undefined && !(await findHost(ctx, caller, input.hostId))) throw new ApiError('HOST_NOT_FOUND');
  const timeZone = (input.timezone === undefined ? current?.timezone : input.timezone) ?? caller.timeZone;
  const dates = resolveDates(input, timeZone);
  if (current && dates.start != null && dates.end === undefined) dates.end = current.end + dates.start - current.start;
  const start = dates.start ?? current?.start;
  const end = dates.end ?? current?.end;
  if (start !== undefined && end !== undefined && end < start) {
    throw new ApiError('INVALID_PARAMETER', { field: 'end' });
  }
  return {
    ...objectToRow({ ...fields, ...(guests ? { guests: normalizedGuests(guests) } : {}) }, meetingColumns),
    ...dates,
    ...(hostId !== undefined ? { hostId } : {}),
  };
}

async function meetingInvitees(ctx: Context, caller: Caller, meetingId: string): Promise<InviteeRow[]> {
  return (await prepared(
    ctx.db,
    'SELECT * FROM invitees WHERE meetingId = ? AND companyId = ? AND deletedAt IS NULL ORDER BY rowid',
  ).all(meetingId, caller.companyId)) as InviteeRow[];
}

/**
 * Brings a meeting's invitees in line with it. A guest added to the list gets an invitee of the meeting's host,
 * expected at its start (or, if the meeting had canceled theirs, has it confirmed again); a confirmed invitee moves
 * with the meeting's start and host; the invitee of a guest taken off the list, or of a deleted meeting, is
 * canceled. An invitee canceled by someone else stays canceled, a deleted one is not made again, and one who
 * arrived is history and stays as it is. Each of these sends its invitation e-mail (docs/api.md, "Invitation
 * e-mails") unless `sendInvitationEmail` is false; a meeting whose end moved sends its confirmed invitees an update.
 */
async function syncInvitees(
  ctx: Context,
  caller: Caller,
  meeting: MeetingRow,
  previous: MeetingRow | undefined,
  invitation: InvitationOptions = {},
): Promise<void> {
  const previousGuests = previous ? guestsOf(previous) : [];
  const guests = meeting.deletedAt === null ? guestsOf(meeting) : [];
  const expectedAt = meeting.start / 1000;
  const placed = { expectedAt, hostId: meeting.hostId, sendInvitationEmail: invitation.sendInvitationEmail };
  const endMoved = previous !== undefined && previous.end !== meeting.end;
  const invitees = await meetingInvitees(ctx, caller, meeting.id);
  const inviteeOf = (guest: string) => invitees.find((i) => emailKey(i.email as string | null) === guest);
  for (const guest of guests) {
    const invitee = inviteeOf(guest);
    const added = !previousGuests.includes(guest);
    if (!invitee && added) {
      await createInvitee(
        ctx,
        caller,
        { name: guest, email: guest, lang: meeting.lang, ...placed },
        { meetingId: meeting.id },
      );
    } else if (invitee?.status === 'canceled' && added) {
      await updateInvitee(ctx, caller, invitee.id, { ...placed, status: 'confirmed' });
    } else if (
      invitee?.status === 'confirmed' &&
      (invitee.expectedAt !== meeting.start || invitee.hostId !== meeting.hostId)
    ) {
      await updateInvitee(ctx, caller, invitee.id, placed, undefined, { moved: endMoved });
    } else if (invitee?.status === 'confirmed' && endMoved) {
      await inviteeWritten(ctx, caller, invitee, invitee, { ...invitation, moved: true });
    }
  }
  for (const guest of previousGuests) {
    const invitee = inviteeOf(guest);
    if (!guests.includes(guest) && invitee?.status === 'confirmed') {
      await updateInvitee(ctx, caller, invitee.id, {
        status: 'canceled',
        sendInvitationEmail: invitation.sendInvitationEmail,
      });
    }
  }
}

const guestsOf = (meeting: MeetingRow): string[] => JSON.parse(meeting.guests) as string[];

export async function createMeeting(ctx: Context, caller: Caller, input: MeetingCreateInput): Promise<MeetingRow> {
  return await inTransaction(ctx, async () => {
    const fields = await storedFields(ctx, caller, input);
    const id = newRecordId(ctx.random);
    const now = ctx.clock.now();
    await ctx.events.decide('meeting.created', caller);
    await insertRow(ctx.db, 'meetings', {
      lang: caller.lang,
      ...fields,
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getMeeting(ctx, caller, id);
    await ctx.events.publish('meeting.created', caller, async () => await meetingObject(ctx, caller, row));
    await syncInvitees(ctx, caller, row, undefined, { sendInvitationEmail: input.sendInvitationEmail });
    return row;
  });
}

export async function updateMeeting(
  ctx: Context,
  caller: Caller,
  id: string,
  input: MeetingUpdateInput,
): Promise<MeetingRow> {
  return await inTransaction(ctx, async () => {
    const current = await getMeeting(ctx, caller, id);
    // A co-host reads the meeting; its host changes it.
    requireOwnGuest(caller, 'invite', current.hostId);
    await ctx.events.decide('meeting.updated', caller);
    await updateRow(ctx.db, 'meetings', caller.companyId, id, {
      ...(await storedFields(ctx, caller, input, current)),
      updatedAt: ctx.clock.now(),
    });
    const row = await getMeeting(ctx, caller, id);
    await ctx.events.publish('meeting.updated', caller, async () => await meetingObject(ctx, caller, row));
    await syncInvitees(ctx, caller, row, current, { sendInvitationEmail: input.sendInvitationEmail });
    return row;
  });
}

/** Deletes a meeting and cancels the invitees it made (those who arrived stay arrived). */
export async function deleteMeeting(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getMeeting(ctx, caller, id);
    requireOwnGuest(caller, 'invite', row.hostId);
    const now = ctx.clock.now();
    await ctx.events.decide('meeting.deleted', caller);
    await updateRow(ctx.db, 'meetings', caller.companyId, id, { deletedAt: now, updatedAt: now });
    const deleted = { ...row, deletedAt: now, updatedAt: now };
    await ctx.events.publish('meeting.deleted', caller, async () => await meetingObject(ctx, caller, deleted));
    await syncInvitees(ctx, caller, deleted, row);
  });
}

export const listMeetings = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<MeetingRow>(ctx.db, 'meetings', caller.companyId, query, meetingsScope(ctx.db, caller));
