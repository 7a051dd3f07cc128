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
import { type VisitState, visitStates } from './states.ts';

const dayMs = 86_400_000;
const maxSearchLength = 200;
const maxIdLength = 64;

export interface VisitLogFilter {
  /** Unix ms, inclusive. */
  from: number;
  /** Unix ms, exclusive. */
  to: number;
  /** A LIKE pattern, or undefined for every visit of the span. */
  pattern: string | undefined;
  /** Only the visits of this host, visitor type or kiosk device (`checkinByIpadId`), in this state. */
  hostId: string | undefined;
  visitorTypeId: string | undefined;
  kioskId: string | undefined;
  state: VisitState | undefined;
}

/** Where a page of the log ends: the last visit's check-in and row number (the order's tie-break). */
export interface VisitLogCursor {
  checkinAt: number;
  row: number;
}

const cursorPattern = /^(\d{1,15})\.(\d{1,15})$/;

export const formatVisitLogCursor = (cursor: VisitLogCursor): string => `${cursor.checkinAt}.${cursor.row}`;

/** A cursor as `formatVisitLogCursor` wrote it; anything else is INVALID_PARAMETER. */
export function parseVisitLogCursor(text: unknown): VisitLogCursor | undefined {
  if (text === undefined) return undefined;
  const match = typeof text === 'string' ? cursorPattern.exec(text) : null;
  if (!match) throw new ApiError('INVALID_PARAMETER', { field: 'cursor' });
  return { checkinAt: Number(match[1]), row: Number(match[2]) };
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

/** Reads `from`, `to` (whole days in the company's zone, inclusive), `search` and the filters of a visit-log request. */
export function visitLogFilter(query: Record<string, unknown>, timeZone: string, now: number): VisitLogFilter {
  const text = (key: string) => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new ApiError('INVALID_PARAMETER', { field: key });
    return value.trim();
  };
  const id = (key: string) => {
    const value = text(key);
    if (value !== undefined && value.length > maxIdLength) throw new ApiError('INVALID_PARAMETER', { field: key });
    return value || undefined;
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
  const status = text('status') || undefined;
  if (status !== undefined && !(visitStates as readonly string[]).includes(status)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'status' });
  }
  const pattern = search ? containing(search) : undefined;
  return {
    from,
    to,
    pattern,
    hostId: id('host'),
    visitorTypeId: id('visitorType'),
    kioskId: id('kiosk'),
    state: status as VisitState | undefined,
  };
}

// SQLite's LIKE ignores the case of ASCII letters; on PostgreSQL so do the case-insensitive (citext) columns, and
// the document, stored as plain text, is compared in lower case on both.
const searched = `AND (name LIKE :pattern ESCAPE '\\' OR company LIKE :pattern ESCAPE '\\'
  OR email LIKE :pattern ESCAPE '\\' OR lower(document) LIKE lower(:pattern) ESCAPE '\\'
  OR hostId IN (SELECT id FROM hosts WHERE companyId = :companyId AND name LIKE :pattern ESCAPE '\\'))`;

/** Each state as a condition on the row, the same as `stateOf` says it (the first that holds wins). */
const stateConditions: Readonly<Record<VisitState, string>> = {
  blocked: "visitorStatus = 'BLOCKED'",
  denied: "visitorStatus IS NULL AND authorizationStatus = 'DENIED'",
  out: "visitorStatus IS NULL AND (authorizationStatus IS NULL OR authorizationStatus <> 'DENIED') AND checkoutAt IS NOT NULL",
  waiting: "visitorStatus IS NULL AND authorizationStatus = 'AWAITING' AND checkoutAt IS NULL",
  inside:
    "visitorStatus IS NULL AND (authorizationStatus IS NULL OR authorizationStatus = 'ALLOWED') AND checkoutAt IS NULL",
};

/**
 * The visits checked in within the span (newest first), those the search and filters find, after the cursor; a
 * `host` person's own visits only. Each filter by a reference reads its own index's range of the span (migration
 * 0032), so a page costs its rows, not the span's.
 */
function visitLogSql(caller: Caller, filter: VisitLogFilter, cursor: VisitLogCursor | undefined, page: string): string {
  const scope = guestsScope(caller);
  return `SELECT *, rowid AS logRow FROM visits
    WHERE companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to
    ${scope ? `AND ${scope.sql}` : ''}
    ${filter.hostId ? 'AND hostId = :hostId' : ''}
    ${filter.visitorTypeId ? 'AND visitorTypeId = :visitorTypeId' : ''}
    ${filter.kioskId ? 'AND checkinByIpadId = :kioskId' : ''}
    ${filter.state ? `AND ${stateConditions[filter.state]}` : ''}
    ${cursor ? 'AND checkinAt <= :cursorAt AND (checkinAt < :cursorAt OR rowid < :cursorRow)' : ''}
    ${filter.pattern ? searched : ''}
    ORDER BY checkinAt DESC, rowid DESC ${page}`;
}

const parameters = (caller: Caller, filter: VisitLogFilter, cursor?: VisitLogCursor) => ({
  companyId: caller.companyId,
  from: filter.from,
  to: filter.to,
  ...guestsScope(caller)?.params,
  ...(filter.pattern ? { pattern: filter.pattern } : {}),
  ...(filter.hostId ? { hostId: filter.hostId } : {}),
  ...(filter.visitorTypeId ? { visitorTypeId: filter.visitorTypeId } : {}),
  ...(filter.kioskId ? { kioskId: filter.kioskId } : {}),
  ...(cursor ? { cursorAt: cursor.checkinAt, cursorRow: cursor.row } : {}),
});

type LogRow = VisitRow & { logRow: number };

/**
 * A page of the visit log, as visit objects, and the cursor of the next page (null after the last). A page is read
 * after a cursor (the console's "more"), or at an offset (older clients).
 */
export async function visitHistory(ctx: Context, caller: Caller, query: Record<string, unknown>) {
  const filter = visitLogFilter(query, caller.timeZone, ctx.clock.now());
  const limit = parseLimit(query, visitLogPaging);
  const cursor = parseVisitLogCursor(query.cursor);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (!Number.isSafeInteger(offset) || offset < 0 || !/^\d+$/.test(String(query.offset ?? '0'))) {
    throw new ApiError('INVALID_OFFSET_VALUE');
  }
  // One more than the page: whether a next page exists, without counting the span.
  const read = (await prepared(ctx.db, visitLogSql(caller, filter, cursor, 'LIMIT :limit OFFSET :offset')).all({
    ...parameters(caller, filter, cursor),
    limit: limit + 1,
    offset,
  })) as LogRow[];
  const rows = read.slice(0, limit);
  const last = rows.at(-1);
  const nextCursor =
    read.length > limit && last ? formatVisitLogCursor({ checkinAt: last.checkinAt, row: Number(last.logRow) }) : null;
  for (const row of rows) delete (row as Partial<LogRow>).logRow;
  const objects = await visitObjects(ctx, caller, rows);
  // A page is at most `visitLogPaging.maxLimit` visits, each a range of the queue's unique index.
  const visits = await Promise.all(
    objects.map(async (visit, i) => ({
      ...visit,
      hostNotification: await hostNotice(ctx, caller.companyId, rows[i]?.id ?? ''),
    })),
  );
  return { visits, size: visits.length, nextCursor };
}

/** What the visit's state was, in one word, for a person reading the export. */
function stateOf(row: VisitRow): VisitState {
  if (row.visitorStatus === 'BLOCKED') return 'blocked';
  if (row.authorizationStatus === 'DENIED') return 'denied';
  if (row.checkoutAt !== null) return 'out';
  if (row.authorizationStatus === 'AWAITING') return 'waiting';
  return 'inside';
}

/** The export's words for the states (its column headers are English too). */
const stateWords: Readonly<Record<VisitState, string>> = {
  inside: 'inside',
  waiting: 'waiting',
  out: 'checked out',
  denied: 'denied',
  blocked: 'blocked',
};

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
  for (const row of (await prepared(ctx.db, visitLogSql(caller, filter, undefined, '')).all(
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
        stateWords[stateOf(row)],
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
