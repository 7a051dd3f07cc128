import { type Context, inTransaction, memoised } from '../context.ts';
import type { EventListener } from '../events.ts';
import { prepared } from '../store/rows.ts';
import { hourMs, localTimeSql, offsetSegments } from './zone.ts';

/*
 * The company's visits counted by local hour (docs/console.md, "Analytics"), so that a span's analytics read a few
 * thousand rows instead of every visit of the span. `visit_hours` holds, per hour of the company's zone, the
 * visits by visitor type (with how many were returning and their stays) and by kiosk; `visit_hours_built` the span
 * of instants it covers and the zone it was counted in. A span is counted from the visits the first time it is
 * asked (adjoining the covered span, or replacing it), then kept current in the transaction of each write: a
 * check-in or check-out counts its hour again; a write that may change other hours (an edit, a deletion, an
 * erasure, the retention sweep, a kiosk's pull of the hub's visits, a check-in before the visitor's later visits)
 * forgets the company's counts, which the next request counts again. A change of the company's zone does too.
 */

interface Built {
  zone: string;
  builtFrom: number;
  builtTo: number;
}

const returningSql = `CASE WHEN visitorId IS NOT NULL AND EXISTS (SELECT 1 FROM visits earlier
  WHERE earlier.companyId = visits.companyId AND earlier.visitorId = visits.visitorId
    AND earlier.deletedAt IS NULL AND earlier.checkinAt < visits.checkinAt) THEN 1 ELSE 0 END`;

/**
 * Counts the visits of [from, to) into their hours, added to what the hours hold (an hour that straddles two
 * counted spans, as a DST change at midnight makes, sums both). `hour` limits it to one local hour.
 */
async function countHours(ctx: Context, companyId: string, timeZone: string, from: number, to: number, hour?: number) {
  const local = localTimeSql('checkinAt', offsetSegments(from, to, timeZone), 'c');
  const span = `companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to
    ${hour === undefined ? '' : `AND ${local.sql} / ${hourMs} = CAST(:hour AS BIGINT)`}`;
  const sql = `INSERT INTO visit_hours (companyId, localHour, kind, groupKey, visits, returningVisits, stays, stayMs)
    SELECT companyId, localHour, kind, groupKey, visits, returningVisits, stays, stayMs FROM (
      SELECT companyId, ${local.sql} / ${hourMs} AS localHour, 'type' AS kind,
        COALESCE(visitorTypeId, '') AS groupKey, COUNT(*) AS visits, SUM(${returningSql}) AS returningVisits,
        COUNT(checkoutAt) AS stays, COALESCE(SUM(checkoutAt - checkinAt), 0) AS stayMs
      FROM visits WHERE ${span} GROUP BY companyId, localHour, groupKey
      UNION ALL
      SELECT companyId, ${local.sql} / ${hourMs} AS localHour, 'kiosk' AS kind,
        COALESCE(checkinByIpadId, '') AS groupKey, COUNT(*) AS visits, 0, 0, 0
      FROM visits WHERE ${span} GROUP BY companyId, localHour, groupKey
    ) grouped WHERE true
    ON CONFLICT (companyId, localHour, kind, groupKey) DO UPDATE SET visits = visit_hours.visits + excluded.visits,
      returningVisits = visit_hours.returningVisits + excluded.returningVisits,
      stays = visit_hours.stays + excluded.stays, stayMs = visit_hours.stayMs + excluded.stayMs`;
  await prepared(ctx.db, sql).run({
    companyId,
    from,
    to,
    ...local.parameters,
    ...(hour === undefined ? {} : { hour }),
  });
}

const builtOf = async (ctx: Context, companyId: string) =>
  (await prepared(ctx.db, 'SELECT zone, builtFrom, builtTo FROM visit_hours_built WHERE companyId = ?').get(
    companyId,
  )) as Built | undefined;

/** Forgets the company's counted hours: the next analytics request counts its span again. */
export async function forgetVisitHours(ctx: Context, companyId: string): Promise<void> {
  await prepared(ctx.db, 'DELETE FROM visit_hours WHERE companyId = ?').run(companyId);
  await prepared(ctx.db, 'DELETE FROM visit_hours_built WHERE companyId = ?').run(companyId);
}

/** Makes the hours of [from, to) counted, in the zone given (the company's now). */
export async function countedHours(
  ctx: Context,
  companyId: string,
  timeZone: string,
  from: number,
  to: number,
): Promise<void> {
  const built = await builtOf(ctx, companyId);
  if (built && built.zone === timeZone && built.builtFrom <= from && to <= built.builtTo) return;
  // One count at a time per company: two first requests would otherwise both insert the same hours.
  await ctx.db.serialized(`visit hours ${companyId}`, () =>
    inTransaction(ctx, async () => {
      const now = await builtOf(ctx, companyId);
      const adjoins = now && now.zone === timeZone && from <= now.builtTo && to >= now.builtFrom;
      if (!now || !adjoins) {
        await forgetVisitHours(ctx, companyId);
        await countHours(ctx, companyId, timeZone, from, to);
        await prepared(
          ctx.db,
          'INSERT INTO visit_hours_built (companyId, zone, builtFrom, builtTo) VALUES (?, ?, ?, ?)',
        ).run(companyId, timeZone, from, to);
        return;
      }
      if (from < now.builtFrom) await countHours(ctx, companyId, timeZone, from, now.builtFrom);
      if (to > now.builtTo) await countHours(ctx, companyId, timeZone, now.builtTo, to);
      await prepared(ctx.db, 'UPDATE visit_hours_built SET builtFrom = ?, builtTo = ? WHERE companyId = ?').run(
        Math.min(from, now.builtFrom),
        Math.max(to, now.builtTo),
        companyId,
      );
    }),
  );
}

/** A later live visit of the visitor: a check-in before it changes whether that one was returning. */
const laterVisitSql = `SELECT 1 FROM visits WHERE companyId = ? AND visitorId = ? AND deletedAt IS NULL
  AND checkinAt > ? LIMIT 1`;

/** Counts the hour of a visit's check-in again, when the company's counts cover it. */
async function countHourAgain(
  ctx: Context,
  companyId: string,
  timeZone: string,
  row: Readonly<Record<string, unknown>>,
  checkin: boolean,
) {
  // Once for a batch of a sync push (see `withMemo`): a batch only forgets counts, never makes them, so what it read
  // first stays true or costs, at worst, counting an hour that is forgotten anyway.
  const built = await memoised(ctx, `visit-hours-built:${companyId}`, () => builtOf(ctx, companyId));
  if (!built) return;
  const checkinAt = Number(row.checkinAt);
  if (built.zone !== timeZone) return await forgetVisitHours(ctx, companyId);
  if (checkinAt < built.builtFrom || checkinAt >= built.builtTo) return;
  if (checkin && row.visitorId && (await prepared(ctx.db, laterVisitSql).get(companyId, row.visitorId, checkinAt))) {
    return await forgetVisitHours(ctx, companyId);
  }
  // The local hour's instants lie within three hours of the check-in, whatever DST change falls near it.
  const window = { from: checkinAt - 3 * hourMs, to: checkinAt + 3 * hourMs };
  const [segment] = offsetSegments(checkinAt, checkinAt + 1, timeZone);
  const hour = Math.floor((checkinAt + (segment?.offsetMs ?? 0)) / hourMs);
  await prepared(ctx.db, 'DELETE FROM visit_hours WHERE companyId = ? AND localHour = ?').run(companyId, hour);
  await countHours(ctx, companyId, timeZone, window.from, window.to, hour);
}

/** Keeps the counted hours current, in the transaction of each write to the company's visits. */
export function visitHoursListener(ctx: Context): EventListener {
  return async (event) => {
    const { companyId, timeZone } = event.caller;
    switch (event.name) {
      case 'visit.checkin':
      case 'visit.checkout':
        if (event.row) await countHourAgain(ctx, companyId, timeZone, event.row, event.name === 'visit.checkin');
        return;
      case 'visit.updated':
      case 'visit.deleted':
      case 'privacy.erased':
      case 'privacy.retention.swept':
        await forgetVisitHours(ctx, companyId);
        return;
      default:
        return;
    }
  };
}
