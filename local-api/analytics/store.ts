import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { visitLogFilter } from '../visit-log/store.ts';
import { type Analytics, analyticsLimits } from './schema.ts';
import {
  dayNumber,
  dayOfHour,
  dayText,
  hourMs,
  hourOfDay,
  isoWeekday,
  localTimeSql,
  type OffsetSegment,
  offsetSegments,
} from './zone.ts';

/** The span asked: whole days in the company's zone, as instants, with the zone's offsets over it. */
interface Span {
  fromDay: string;
  toDay: string;
  from: number;
  to: number;
  segments: OffsetSegment[];
}

/** `from` and `to` as the visit log reads them (whole days, a year at most); `from` defaults to 30 days back. */
function spanOf(query: Record<string, unknown>, timeZone: string, now: number): Span {
  const given = (key: string) => (typeof query[key] === 'string' ? (query[key] as string).trim() : query[key]);
  const toDay = given('to') || formatInZone(now, timeZone).slice(0, 10);
  const fromDay =
    given('from') ||
    (typeof toDay === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(toDay)
      ? dayText(dayNumber(toDay) - analyticsLimits.defaultDays + 1)
      : undefined);
  const { from, to } = visitLogFilter({ from: fromDay, to: toDay }, timeZone, now);
  return { fromDay: String(fromDay), toDay: String(toDay), from, to, segments: offsetSegments(from, to, timeZone) };
}

function topOf(query: Record<string, unknown>): number {
  if (query.top === undefined) return analyticsLimits.defaultTop;
  const top = Number(query.top);
  if (!/^\d+$/.test(String(query.top)) || top < 1 || top > analyticsLimits.maxTop) {
    throw new ApiError('INVALID_PARAMETER', { field: 'top' });
  }
  return top;
}

const spanned = `companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to`;

/**
 * The span's visits by local hour: how many, how many checked out and their stays, how many by a visitor seen
 * before (an earlier live visit of the same visitor record, found by the (companyId, visitorId, checkinAt) index).
 * A visit without a visitor record counts as a first visit.
 */
const hoursSql = (local: string) => `SELECT ${local} / ${hourMs} AS localHour, COUNT(*) AS visits,
    COUNT(checkoutAt) AS stays, SUM(checkoutAt - checkinAt) AS stayMs,
    SUM(CASE WHEN visitorId IS NOT NULL AND EXISTS (SELECT 1 FROM visits earlier
      WHERE earlier.companyId = visits.companyId AND earlier.visitorId = visits.visitorId
        AND earlier.deletedAt IS NULL AND earlier.checkinAt < visits.checkinAt) THEN 1 ELSE 0 END) AS returningVisits
  FROM visits WHERE ${spanned} GROUP BY 1`;

/** Invitees expected in the span by local hour; a no-show is one still only confirmed once its time has passed. */
const expectedSql = (local: string) => `SELECT ${local} / ${hourMs} AS localHour, COUNT(*) AS expected,
    SUM(CASE WHEN status = 'confirmed' AND expectedAt < :now THEN 1 ELSE 0 END) AS noShows
  FROM invitees WHERE companyId = :companyId AND deletedAt IS NULL AND expectedAt >= :from AND expectedAt < :to
    AND status <> 'canceled'
  GROUP BY 1`;

/**
 * Visits grouped by a column, each group named from its table (the company's own rows only); `top` ranks only the
 * visits that have one, and keeps the first `:top`.
 */
function rankedSql(column: string, names: string, nameColumn: string, top = false): string {
  return `SELECT grouped.id AS id, named.${nameColumn} AS name, grouped.visits AS visits
  FROM (SELECT ${column} AS id, COUNT(*) AS visits FROM visits WHERE ${spanned}
    ${top ? `AND ${column} IS NOT NULL` : ''}
    GROUP BY ${column} ORDER BY visits DESC, id ${top ? 'LIMIT :top' : ''}) grouped
  LEFT JOIN ${names} named ON named.id = grouped.id AND named.companyId = :companyId
  ORDER BY grouped.visits DESC, name, grouped.id`;
}

const visitorTypesSql = rankedSql('visitorTypeId', 'visitor_types', 'name');
const hostsSql = rankedSql('hostId', 'hosts', 'name', true);
const kiosksSql = rankedSql('checkinByIpadId', 'credentials', 'label');

interface HourRow {
  localHour: number;
  visits: number;
  stays: number;
  stayMs: number | null;
  returningVisits: number;
}

interface ExpectedRow {
  localHour: number;
  expected: number;
  noShows: number;
}

interface Ranked {
  id: string | null;
  name: string | null;
  visits: number;
}

const averageSeconds = (stayMs: number, stays: number) => (stays === 0 ? null : Math.round(stayMs / stays / 1000));

/**
 * The span's analytics: five reads, each an aggregate over an index range of the span (docs/console.md,
 * "Analytics"), whatever the span's length or the company's history; days, weeks and peak hours are summed here
 * from the hours.
 */
export async function analytics(ctx: Context, caller: Caller, query: Record<string, unknown>): Promise<Analytics> {
  const now = ctx.clock.now();
  const span = spanOf(query, caller.timeZone, now);
  const top = topOf(query);
  const bounds = { companyId: caller.companyId, from: span.from, to: span.to };
  const checkin = localTimeSql('checkinAt', span.segments, 'c');
  const expectedAt = localTimeSql('expectedAt', span.segments, 'e');
  const hours = (await prepared(ctx.db, hoursSql(checkin.sql)).all({ ...bounds, ...checkin.parameters })) as HourRow[];
  const expected = (await prepared(ctx.db, expectedSql(expectedAt.sql)).all({
    ...bounds,
    ...expectedAt.parameters,
    now,
  })) as ExpectedRow[];
  const ranked = async (sql: string, extra: Record<string, number> = {}) =>
    (await prepared(ctx.db, sql).all({ ...bounds, ...extra })) as Ranked[];
  const visitorTypes = await ranked(visitorTypesSql);
  const hosts = await ranked(hostsSql, { top });
  const kiosks = await ranked(kiosksSql);
  return {
    from: span.fromDay,
    to: span.toDay,
    timeZone: caller.timeZone,
    ...summed(span, hours, expected),
    visitorTypes,
    hosts,
    kiosks,
  };
}

/** Totals, days, weeks and peak hours from the hourly counts. */
function summed(span: Span, hours: readonly HourRow[], expected: readonly ExpectedRow[]) {
  const first = dayNumber(span.fromDay);
  const last = dayNumber(span.toDay);
  const days = Array.from({ length: last - first + 1 }, (_, i) => ({
    day: dayText(first + i),
    visits: 0,
    returning: 0,
    stays: 0,
    stayMs: 0,
    expected: 0,
    noShows: 0,
  }));
  const peakHours = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const row of hours) {
    const day = dayOfHour(row.localHour);
    const into = days[day - first];
    if (into) {
      into.visits += row.visits;
      into.returning += row.returningVisits;
      into.stays += row.stays;
      into.stayMs += row.stayMs ?? 0;
    }
    const weekday = peakHours[isoWeekday(day) - 1] as number[];
    weekday[hourOfDay(row.localHour)] = (weekday[hourOfDay(row.localHour)] ?? 0) + row.visits;
  }
  for (const row of expected) {
    const into = days[dayOfHour(row.localHour) - first];
    if (into) {
      into.expected += row.expected;
      into.noShows += row.noShows;
    }
  }
  const weeks: Analytics['weeks'] = [];
  for (const [i, day] of days.entries()) {
    const number = first + i;
    const monday = dayText(number - isoWeekday(number) + 1);
    const week = weeks[weeks.length - 1];
    if (week?.week === monday) {
      week.days++;
      week.visits += day.visits;
    } else weeks.push({ week: monday, days: 1, visits: day.visits });
  }
  const total = (key: 'visits' | 'returning' | 'stays' | 'stayMs' | 'expected' | 'noShows') =>
    days.reduce((sum, day) => sum + day[key], 0);
  return {
    totals: {
      visits: total('visits'),
      firstTime: total('visits') - total('returning'),
      returning: total('returning'),
      averageStaySeconds: averageSeconds(total('stayMs'), total('stays')),
      expected: total('expected'),
      noShows: total('noShows'),
    },
    days: days.map(({ stays, stayMs, ...day }) => ({
      day: day.day,
      visits: day.visits,
      firstTime: day.visits - day.returning,
      returning: day.returning,
      averageStaySeconds: averageSeconds(stayMs, stays),
      expected: day.expected,
      noShows: day.noShows,
    })),
    weeks,
    peakHours,
  };
}
