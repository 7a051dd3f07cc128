import { zoneOffsetMinutes } from '../rules/time.ts';

/*
 * Days in the company's zone, counted by the database on both engines. Neither SQLite nor PostgreSQL is asked to
 * know time zones: over a span the zone's offset changes only at a few known instants (its DST changes), so the
 * local time of an instant is the instant plus a piecewise-constant offset, written as one CASE with the span's
 * transitions as parameters. From the local time, integer division gives the local hour; days, weekdays and weeks
 * follow from the hour in JavaScript.
 */

const minuteMs = 60_000;
export const hourMs = 3_600_000;
export const dayMs = 86_400_000;

/** From `start` on (until the next segment's start), the zone is `offsetMs` ahead of UTC. */
export interface OffsetSegment {
  start: number;
  offsetMs: number;
}

const offsetMsAt = (at: number, timeZone: string) => zoneOffsetMinutes(at, timeZone) * minuteMs;

/**
 * The zone's offsets over [from, to): sampled every 12 hours (a zone changes its offset at most a few times a year,
 * never twice in half a day), each change then found to the minute by bisection.
 */
export function offsetSegments(from: number, to: number, timeZone: string): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ start: from, offsetMs: offsetMsAt(from, timeZone) }];
  const samples: number[] = [];
  for (let at = from + dayMs / 2; at < to - 1; at += dayMs / 2) samples.push(at);
  samples.push(to - 1);
  let before = from;
  for (const at of samples) {
    const offsetMs = offsetMsAt(at, timeZone);
    const last = segments[segments.length - 1] as OffsetSegment;
    if (offsetMs !== last.offsetMs) {
      // The change lies in (before, at]: whole minutes of UTC, as every zone's rules have them.
      let low = Math.floor(before / minuteMs);
      let high = Math.ceil(at / minuteMs);
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (offsetMsAt(middle * minuteMs, timeZone) === last.offsetMs) low = middle;
        else high = middle;
      }
      segments.push({ start: high * minuteMs, offsetMs });
    }
    before = at;
  }
  return segments;
}

/**
 * SQL for the local time of a column's instant over the segments, and its parameters (named after `prefix`, so one
 * statement may hold two columns' expressions). CAST keeps PostgreSQL from reading the offsets as text.
 */
export function localTimeSql(
  column: string,
  segments: readonly OffsetSegment[],
  prefix: string,
): { sql: string; parameters: Record<string, number> } {
  const parameters: Record<string, number> = {};
  const offset = (i: number) => {
    parameters[`${prefix}o${i}`] = (segments[i] as OffsetSegment).offsetMs;
    return `CAST(:${prefix}o${i} AS BIGINT)`;
  };
  if (segments.length === 1) return { sql: `(${column} + ${offset(0)})`, parameters };
  const cases = segments.slice(1).map((segment, i) => {
    parameters[`${prefix}t${i + 1}`] = segment.start;
    return `WHEN ${column} < CAST(:${prefix}t${i + 1} AS BIGINT) THEN ${offset(i)}`;
  });
  return { sql: `(${column} + CASE ${cases.join(' ')} ELSE ${offset(segments.length - 1)} END)`, parameters };
}

/** A local hour number (hours since 1970-01-01T00:00 local) as its day number and hour of the day. */
export const dayOfHour = (hour: number) => Math.floor(hour / 24);
export const hourOfDay = (hour: number) => ((hour % 24) + 24) % 24;

/** ISO weekday of a day number: 1 Monday … 7 Sunday (day 0, 1970-01-01, was a Thursday). */
export const isoWeekday = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;

export const dayText = (day: number) => new Date(day * dayMs).toISOString().slice(0, 10);
export const dayNumber = (text: string) => Math.floor(Date.parse(`${text}T00:00:00Z`) / dayMs);
