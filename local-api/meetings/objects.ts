import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { Language } from '../rules/lang.ts';
import { rowsByIds, rowToObject } from '../store/rows.ts';
import { meetingColumns } from './schema.ts';

export type MeetingRow = Record<string, unknown> & {
  id: string;
  companyId: string;
  hostId: string;
  start: number;
  end: number;
  guests: string;
  lang: Language;
  timezone: string | null;
  deletedAt: number | null;
};

/** A meeting as an invitee object carries it: the meeting object without its host. */
export function meetingWithoutHost(row: MeetingRow, caller: Caller): Record<string, unknown> {
  return rowToObject(row, meetingColumns, caller.timeZone);
}

/**
 * The meetings of a page of invitees, fetched in one query. Deleted meetings appear too (with their `deletedAt`):
 * an invitee canceled with its meeting still says which one it was.
 */
export async function meetingsById(
  ctx: Context,
  caller: Caller,
  ids: Iterable<unknown>,
): Promise<Map<string, Record<string, unknown>>> {
  const rows = await rowsByIds<MeetingRow>(ctx.db, 'meetings', '*', caller.companyId, ids);
  return new Map(rows.map((row) => [row.id, meetingWithoutHost(row, caller)]));
}
