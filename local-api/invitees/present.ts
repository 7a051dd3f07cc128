import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { fileUrls } from '../files/store.ts';
import { type HostSummary, hostSummaries } from '../hosts/summaries.ts';
import { meetingsById } from '../meetings/objects.ts';
import { rowToObject } from '../store/rows.ts';
import { type InviteeRow, inviteeColumns } from './contract.ts';

/** What an invitee object shows of other rows: the hosts and meetings of a page, and a stored file's links. */
export interface InviteeLookups {
  timeZone: string;
  hosts: ReadonlyMap<string, HostSummary>;
  meetings: ReadonlyMap<string, unknown>;
  fileLinks(file: string | null): { url: string | null; signedUrl: string | null };
}

/**
 * Stored columns the invitee object does not show: a stored picture is shown by its links; a pre-registration by
 * its time (its picture and agreement become the visit's files at check-in).
 */
const hiddenInviteeColumns = [
  'companyId',
  'deletedAt',
  'pictureFile',
  'questionnaireFields',
  'registrationPicture',
  'registrationNda',
  'ndaSignature',
];

/** The invitee object of docs/api.md, "Invitees" of a stored row. */
export function presentInvitee(row: InviteeRow, lookups: InviteeLookups): Record<string, unknown> {
  const object = rowToObject(row, inviteeColumns, lookups.timeZone, hiddenInviteeColumns);
  const picture = lookups.fileLinks(row.pictureFile);
  object.type = 'invitee';
  object.host = lookups.hosts.get(row.hostId) ?? null;
  object.meeting = row.meetingId ? (lookups.meetings.get(row.meetingId) ?? null) : null;
  object.pictureUrl = picture.url ?? object.pictureUrl;
  object.pictureSignedUrl = picture.signedUrl;
  return object;
}

/** The invitee objects of a page of rows: hosts and meetings fetched once for the page. */
export async function inviteeObjects(
  ctx: Context,
  caller: Caller,
  rows: readonly InviteeRow[],
): Promise<Record<string, unknown>[]> {
  const lookups: InviteeLookups = {
    timeZone: caller.timeZone,
    hosts: await hostSummaries(
      ctx,
      caller,
      rows.map((row) => row.hostId),
    ),
    meetings: await meetingsById(
      ctx,
      caller,
      rows.map((row) => row.meetingId),
    ),
    fileLinks: (file) => fileUrls(ctx, file),
  };
  return rows.map((row) => presentInvitee(row, lookups));
}

export const inviteeObject = async (ctx: Context, caller: Caller, row: InviteeRow) =>
  (await inviteeObjects(ctx, caller, [row]))[0] ?? {};
