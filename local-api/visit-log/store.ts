import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { guestsScope } from '../credentials/guests.ts';
import { ApiError } from '../http/errors.ts';
import { parseLimit } from '../http/list-query.ts';
import { hostNotice } from '../notifications/delivery.ts';
import { formatInZone, parseDateTime } from '../rules/time.ts';
import { containing, prepared } from '../store/rows.ts';
import type { VisitRow } from '../visits/contract.ts';
import { authorizationStatusOut } from '../visits/contract.ts';
import { visitObjects } from '../visits/present.ts';
import { csvLine } from './csv.ts';
import { maxSpanDays, visitLogPaging } from './schema.ts';

const dayMs = 86_400_000;
const maxSearchLength = 200;

export interface VisitLogFilter {
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
  /** A LIKE pattern, or undefined for every visit of the span. */
  pattern: string | undefined;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The start of a day in the zone; the text must be a whole day. */
function dayStart(text: string, field: string, timeZone: string): number {
  const start = dayPattern.test(text) ? parseDateTime(text, timeZone) : undefined;
  if (start === undefined) throw new ApiError('INVALID_PARAMETER', { field });
  return start;
}

/** Today in the zone, as YYYY-MM-DD. */
const today = (now: number, timeZone: string) => formatInZone(now, timeZone).slice(0, 10);

/** The next day's date of a YYYY-MM-DD day (calendar arithmetic, so a DST change does not shift it). */
function nextDay(text: string): string {
  const date = new Date(`${text}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** Reads `from`, `to` (whole days in the company's zone, inclusive) and `search` of a visit-log request. */
export function visitLogFilter(query: Record<string, unknown>, timeZone: string, now: number): VisitLogFilter {
  const text = (key: string) => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', { field: key });
    return value.trim();
  };
  const fromDay = text('from') || today(now, timeZone);
  const toDay = text('to') || today(now, timeZone);
  const from = dayStart(fromDay, 'from', timeZone);
  dayStart(toDay, 'to', timeZone);
  const to = dayStart(nextDay(toDay), 'to', timeZone);
  if (to <= from || to - from > (maxSpanDays + 1) * dayMs) throw new ApiError('INVALID_PARAMETER', { field: 'to' });
  const search = text('search');
  if (search !== undefined && search.length > maxSearchLength) {
    throw new ApiError('INVALID_PARAMETER', { field: 'search' });
  }
  const pattern = search ? containing(search) : undefined;
  return { from, to, pattern };
}

// SQLite's LIKE ignores the case of ASCII letters; on PostgreSQL so do the case-insensitive (citext) columns, and
// the document, stored as plain text, is compared in lower case on both.
const searched = `AND (name LIKE :pattern ESCAPE '\\' OR company LIKE :pattern ESCAPE '\\'
  OR email LIKE :pattern ESCAPE '\\' OR lower(document) LIKE lower(:pattern) ESCAPE '\\'
  OR hostId IN (SELECT id FROM hosts WHERE companyId = :companyId AND name LIKE :pattern ESCAPE '\\'))`;

/**
 * The visits checked in within the span (newest first), optionally only those the search finds; a `host` person's
 * own visits only.
 */
function visitLogSql(caller: Caller, filter: VisitLogFilter, page: string): string {
  const scope = guestsScope(caller);
  return `SELECT * FROM visits
    WHERE companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to
    ${scope ? `AND ${scope.sql}` : ''} ${filter.pattern ? searched : ''}
    ORDER BY checkinAt DESC, rowid DESC ${page}`;
}

const parameters = (caller: Caller, filter: VisitLogFilter) => ({
  companyId: caller.companyId,
  from: filter.from,
  to: filter.to,
  ...guestsScope(caller)?.params,
  ...(filter.pattern ? { pattern: filter.pattern } : {}),
});

/** A page of the visit log, as visit objects. */
export async function visitHistory(ctx: Context, caller: Caller, query: Record<string, unknown>) {
  const filter = visitLogFilter(query, caller.timeZone, ctx.clock.now());
  const limit = parseLimit(query, visitLogPaging);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (!Number.isSafeInteger(offset) || offset < 0 || !/^\d+$/.test(String(query.offset ?? '0'))) {
    throw new ApiError('INVALID_OFFSET_VALUE');
  }
  const rows = (await prepared(ctx.db, visitLogSql(caller, filter, 'LIMIT :limit OFFSET :offset')).all({
    ...parameters(caller, filter),
    limit,
    offset,
  })) as VisitRow[];
  const objects = await visitObjects(ctx, caller, rows);
  // A page is at most `visitLogPaging.maxLimit` visits, each a range of the queue's unique index.
  const visits = await Promise.all(
    objects.map(async (visit, i) => ({
      ...visit,
      hostNotification: await hostNotice(ctx, caller.companyId, rows[i]?.id ?? ''),
    })),
  );
  return { visits, size: visits.length };
}

/** What the visit's state was, in one word, for a person reading the export. */
function stateOf(row: VisitRow): string {
  if (row.visitorStatus === 'BLOCKED') return 'blocked';
  if (row.authorizationStatus === 'DENIED') return 'denied';
  if (row.checkoutAt !== null) return 'checked out';
  if (row.authorizationStatus === 'AWAITING') return 'waiting';
  return 'inside';
}

export const visitLogColumns = [
  'Check-in',
  'Check-out',
  'Name',
  'Company',
  'E-mail',
  'Phone',
  'Document',
  'Host',
  'State',
  'Authorization',
  'Check-in by',
  'Visit id',
] as const;

/** The span's visits as CSV (header line first), read row by row: the rows are never all in memory beside it. */
export async function visitLogCsv(ctx: Context, caller: Caller, query: Record<string, unknown>): Promise<string> {
  const filter = visitLogFilter(query, caller.timeZone, ctx.clock.now());
  const hostNames = new Map(
    (
      (await prepared(ctx.db, 'SELECT id, name FROM hosts WHERE companyId = ?').all(caller.companyId)) as {
        id: string;
        name: string;
      }[]
    ).map((host) => [host.id, host.name]),
  );
  const time = (ms: number | null) => (ms === null ? '' : formatInZone(ms, caller.timeZone));
  const lines = [csvLine(visitLogColumns)];
  for (const row of (await prepared(ctx.db, visitLogSql(caller, filter, '')).all(
    parameters(caller, filter),
  )) as VisitRow[]) {
    lines.push(
      csvLine([
        time(row.checkinAt),
        time(row.checkoutAt),
        row.name as string | null,
        row.company as string | null,
        row.email as string | null,
        row.phone as string | null,
        (row.document ?? row.cpf ?? row.rg) as string | null,
        row.hostId ? (hostNames.get(row.hostId) ?? '') : ((row.customHostName as string | null) ?? ''),
        stateOf(row),
        row.authorizationStatus
          ? authorizationStatusOut[row.authorizationStatus as keyof typeof authorizationStatusOut]
          : '',
        row.checkinType as string | null,
        row.id,
      ]),
    );
  }
  return lines.join('');
}
