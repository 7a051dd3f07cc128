import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { unansweredHosts } from '../host-replies/escalation.ts';
import { notificationJobKind } from '../notifications/settings.ts';
import { rosterCounts } from '../roster/store.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { visitLogFilter } from '../visit-log/store.ts';
import type { Today } from './schema.ts';

/** Today's visits turned away, by their two marks; a visit both blocked and denied counts as blocked. */
const turnedAwaySql = `SELECT visitorStatus, authorizationStatus, COUNT(*) AS n FROM visits
  WHERE companyId = ? AND deletedAt IS NULL AND checkinAt >= ? AND checkinAt < ?
    AND (visitorStatus = 'BLOCKED' OR authorizationStatus = 'DENIED')
  GROUP BY visitorStatus, authorizationStatus`;

const expectedSql = `SELECT COUNT(*) AS n FROM invitees
  WHERE companyId = ? AND deletedAt IS NULL AND expectedAt >= ? AND expectedAt < ? AND status = 'confirmed'`;

/** A message is failing once an attempt failed and it was not delivered since: given up, or waiting for a retry. */
const failingNotificationsSql = `SELECT COUNT(*) AS n FROM jobs
  WHERE companyId = ? AND kind = ? AND createdAt >= ?
    AND (status = 'failed' OR (status = 'pending' AND lastError IS NOT NULL))`;

/**
 * The front desk's counts for today in the company's zone: five indexed reads (open visits, today's visits
 * turned away, today's invitees, today's host messages, today's escalations), no rows sent, nothing audited (it holds no one's data).
 */
export async function todayCounts(ctx: Context, caller: Caller): Promise<Today> {
  const now = ctx.clock.now();
  const { from, to } = visitLogFilter({}, caller.timeZone, now);
  const turnedAway = (await prepared(ctx.db, turnedAwaySql).all(caller.companyId, from, to)) as {
    visitorStatus: string | null;
    n: number;
  }[];
  const blocked = turnedAway.filter((group) => group.visitorStatus === 'BLOCKED');
  const sum = (groups: readonly { n: number }[]) => groups.reduce((total, group) => total + group.n, 0);
  const single = async (sql: string, ...args: unknown[]) =>
    ((await prepared(ctx.db, sql).get(...args)) as { n: number }).n;
  const at = formatInZone(now, caller.timeZone);
  const unanswered = await unansweredHosts(ctx, caller.companyId, from);
  return {
    day: at.slice(0, 10),
    at,
    ...(await rosterCounts(ctx, caller.companyId)),
    expected: await single(expectedSql, caller.companyId, from, to),
    blocked: sum(blocked),
    denied: sum(turnedAway) - sum(blocked),
    notificationFailures: await single(failingNotificationsSql, caller.companyId, notificationJobKind, from),
    unanswered: unanswered.length,
    unansweredHosts: unanswered,
  };
}
