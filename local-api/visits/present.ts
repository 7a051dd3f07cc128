import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { fileUrls } from '../files/store.ts';
import { type HostSummary, hostSummaries } from '../hosts/summaries.ts';
import { rowToObject } from '../store/rows.ts';
import { type AnswerItem, authorizationStatusOut, type VisitRow, visitColumns } from './contract.ts';

/** What a visit object shows of other rows: the hosts of a page, and the links of a stored file. */
export interface VisitLookups {
  timeZone: string;
  hosts: ReadonlyMap<string, HostSummary>;
  fileLinks(file: string | null): { url: string | null; signedUrl: string | null };
}

/** An answer as the visit object shows it: the Custom Field Object of docs/api.md, "Custom fields" with the answer's details. */
function customFieldObject(answer: AnswerItem & { type?: string }) {
  const { customFieldId, name, type, value, ...details } = answer;
  return { id: customFieldId, name: name ?? '', type: type ?? 'Text', value, ...details };
}

/** Stored columns the visit object does not show (the files are shown by their links). */
const hiddenVisitColumns = ['companyId', 'deletedAt', 'pictureFile', 'ndaFile'];

/** The visit object of docs/api.md, "Visits" of a stored row. */
export function presentVisit(row: VisitRow, lookups: VisitLookups): Record<string, unknown> {
  // Built in place rather than spread into a copy: a page of a thousand visits is a thousand fewer copies.
  const object = rowToObject(row, visitColumns, lookups.timeZone, hiddenVisitColumns);
  const picture = lookups.fileLinks(row.pictureFile);
  const nda = lookups.fileLinks(row.ndaFile);
  object.type = 'visit';
  object.host = row.hostId ? (lookups.hosts.get(row.hostId) ?? null) : null;
  object.authorizationStatus = row.authorizationStatus ? authorizationStatusOut[row.authorizationStatus] : null;
  object.customFields = (object.customFields as AnswerItem[]).map(customFieldObject);
  object.pictureUrl = picture.url;
  object.pictureSignedUrl = picture.signedUrl;
  object.ndaUrl = nda.url;
  object.ndaSignedUrl = nda.signedUrl;
  return object;
}

/** What the visit objects of these rows show of other rows, read once for the page. */
export async function visitLookups(ctx: Context, caller: Caller, rows: readonly VisitRow[]): Promise<VisitLookups> {
  return {
    timeZone: caller.timeZone,
    hosts: await hostSummaries(
      ctx,
      caller,
      rows.map((row) => row.hostId),
    ),
    fileLinks: (file) => fileUrls(ctx, file),
  };
}

/** The visit objects of a page of rows. */
export async function visitObjects(
  ctx: Context,
  caller: Caller,
  rows: readonly VisitRow[],
): Promise<Record<string, unknown>[]> {
  const lookups = await visitLookups(ctx, caller, rows);
  return rows.map((row) => presentVisit(row, lookups));
}

export const visitObject = async (ctx: Context, caller: Caller, row: VisitRow) =>
  (await visitObjects(ctx, caller, [row]))[0] ?? {};
