import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { visitLogFilter } from '../visit-log/store.ts';
import { countedHours } from './hours.ts';
import { type Analytics, analyticsLimits, type TopHosts } from './schema.ts';
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

/** The span's counted hours, summed by local hour (the visitor-type rows hold every visit once). */
const hoursSql = `SELECT localHour, SUM(visits) AS visits, SUM(returningVisits) AS returningVisits,
    SUM(stays) AS stays, SUM(stayMs) AS stayMs
  FROM visit_hours WHERE companyId = :companyId AND kind = 'type' AND localHour >= :fromHour AND localHour < :toHour
  GROUP BY localHour`;

/** Invitees expected in the span by local hour; a no-show is one still only confirmed once its time has passed. */
const expectedSql = (local: string) => `SELECT ${local} / ${hourMs} AS localHour, COUNT(*) AS expected,
    SUM(CASE WHEN status = 'confirmed' AND expectedAt < :now THEN 1 ELSE 0 END) AS noShows
  FROM invitees WHERE companyId = :companyId AND deletedAt IS NULL AND expectedAt >= :from AND expectedAt < :to
    AND status <> 'canceled'
  GROUP BY 1`;

/** The span's visits by visitor type or by kiosk, from the counted hours, each named from its table. */
const groupsSql = (kind: 'type' | 'kiosk', names: string, nameColumn: string) => `SELECT
    NULLIF(grouped.groupKey, '') AS id, named.${nameColumn} AS name, grouped.visits AS visits
  FROM (SELECT groupKey, SUM(visits) AS visits FROM visit_hours
    WHERE companyId = :companyId AND kind = '${kind}' AND localHour >= :fromHour AND localHour < :toHour
    GROUP BY groupKey) grouped
  LEFT JOIN ${names} named ON named.id = grouped.groupKey AND named.companyId = :companyId
  WHERE grouped.visits > 0
  ORDER BY grouped.visits DESC, grouped.groupKey`;

const visitorTypesSql = groupsSql('type', 'visitor_types', 'name');
const kiosksSql = groupsSql('kiosk', 'credentials', 'label');

/**
 * The hosts who received the most visits in the span, counted from the (companyId, checkinAt, hostId) index: a
 * company may have as many hosts as visits, so no hourly count would be smaller than the visits themselves.
 */
const hostsSql = `SELECT grouped.id AS id, hosts.name AS name, grouped.visits AS visits
  FROM (SELECT hostId AS id, COUNT(*) AS visits FROM visits
    WHERE companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to
      AND hostId IS NOT NULL
    GROUP BY hostId ORDER BY visits DESC, id LIMIT :top) grouped
  LEFT JOIN hosts ON hosts.id = grouped.id AND hosts.companyId = :companyId
  ORDER BY grouped.visits DESC, grouped.id`;

interface HourRow {
  localHour: number;
  visits: number;
  stays: number;
  stayMs: number;
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

/** The local hour an instant falls in, over the span's offsets. */
function localHourOf(at: number, segments: readonly OffsetSegment[]): number {
  const segment = segments.findLast((s) => s.start <= at) ?? segments[0];
  return Math.floor((at + (segment?.offsetMs ?? 0)) / hourMs);
}

/**
 * The span's analytics (docs/console.md, "Analytics"): the visits from the counted hours (hours.ts: a few
 * thousand rows for a quarter of a year, counted from the visits the first time a span is asked), the invitees
 * from their (companyId, expectedAt) index; three reads. Days, weeks and peak hours are summed here from the hours.
 */
export async function analytics(ctx: Context, caller: Caller, query: Record<string, unknown>): Promise<Analytics> {
  const now = ctx.clock.now();
  const span = spanOf(query, caller.timeZone, now);
  await countedHours(ctx, caller.companyId, caller.timeZone, span.from, span.to);
  const hourBounds = {
    companyId: caller.companyId,
    fromHour: localHourOf(span.from, span.segments),
    toHour: localHourOf(span.to - 1, span.segments) + 1,
  };
  const hours = (await prepared(ctx.db, hoursSql).all(hourBounds)) as HourRow[];
  const expectedAt = localTimeSql('expectedAt', span.segments, 'e');
  const expected = (await prepared(ctx.db, expectedSql(expectedAt.sql)).all({
    companyId: caller.companyId,
    from: span.from,
    to: span.to,
    ...expectedAt.parameters,
    now,
  })) as ExpectedRow[];
  const visitorTypes = (await prepared(ctx.db, visitorTypesSql).all(hourBounds)) as Ranked[];
  const kiosks = (await prepared(ctx.db, kiosksSql).all(hourBounds)) as Ranked[];
  return {
    from: span.fromDay,
    to: span.toDay,
    timeZone: caller.timeZone,
    ...summed(span, hours, expected),
    visitorTypes,
    kiosks,
  };
}

/** The hosts who received the most visits in the span (GET /v1/analytics/hosts): one read of an index range. */
export async function topHosts(ctx: Context, caller: Caller, query: Record<string, unknown>): Promise<TopHosts> {
  const span = spanOf(query, caller.timeZone, ctx.clock.now());
  const hosts = (await prepared(ctx.db, hostsSql).all({
    companyId: caller.companyId,
    from: span.from,
    to: span.to,
    top: topOf(query),
  })) as Ranked[];
  return { from: span.fromDay, to: span.toDay, hosts };
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
      into.stayMs += row.stayMs;
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
