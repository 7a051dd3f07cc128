import type { Context } from '../context.ts';
import { type Caller, readsGuestsOf } from '../credentials/caller.ts';
import { guestsScope } from '../credentials/guests.ts';
import { unansweredHosts } from '../host-replies/escalation.ts';
import { notificationJobKind } from '../notifications/settings.ts';
import { rosterCounts } from '../roster/store.ts';
import { formatInZone } from '../rules/time.ts';
import type { Db } from '../store/db.ts';
import { prepared, textPosition } from '../store/rows.ts';
import { visitLogFilter } from '../visit-log/store.ts';
import type { Today } from './schema.ts';

/** A `host` person's own rows only, in the statements below: the condition on `column`, else nothing. */
function scoped(caller: Caller, column: string) {
  const scope = guestsScope(caller, column);
  return { sql: scope ? `AND ${scope.sql}` : '', params: scope?.params ?? {} };
}

/** Today's visits turned away, by their two marks; a visit both blocked and denied counts as blocked. */
const turnedAwaySql = (scope: string) => `SELECT visitorStatus, authorizationStatus, COUNT(*) AS n FROM visits
  WHERE companyId = :companyId AND deletedAt IS NULL AND checkinAt >= :from AND checkinAt < :to
    AND (visitorStatus = 'BLOCKED' OR authorizationStatus = 'DENIED') ${scope}
  GROUP BY visitorStatus, authorizationStatus`;

const expectedSql = (scope: string) => `SELECT COUNT(*) AS n FROM invitees
  WHERE companyId = :companyId AND deletedAt IS NULL AND expectedAt >= :from AND expectedAt < :to
    AND status = 'confirmed' ${scope}`;

/**
 * A message is failing once an attempt failed and it was not delivered since: given up, or waiting for a retry.
 * A check-in's messages are keyed `checkin:<visit>:<host>:<channel>`: a host's own are those naming them.
 */
const failingNotificationsSql = (db: Db, forHost: boolean) => `SELECT COUNT(*) AS n FROM jobs
  WHERE companyId = :companyId AND kind = :kind AND createdAt >= :from
    AND (status = 'failed' OR (status = 'pending' AND lastError IS NOT NULL))
    ${forHost ? `AND idempotencyKey LIKE 'checkin:%' AND ${textPosition(db, 'idempotencyKey', ':hostKey')} > 0` : ''}`;

/**
 * The front desk's counts for today in the company's zone: five indexed reads (open visits, today's visits
 * turned away, today's invitees, today's host messages, today's escalations), no rows sent, nothing audited (it
 * holds no one's data). A `host` person's counts are of their own guests.
 */
export async function todayCounts(ctx: Context, caller: Caller): Promise<Today> {
  const now = ctx.clock.now();
  const { from, to } = visitLogFilter({}, caller.timeZone, now);
  const span = { companyId: caller.companyId, from, to };
  const own = scoped(caller, 'hostId');
  const turnedAway = (await prepared(ctx.db, turnedAwaySql(own.sql)).all({ ...span, ...own.params })) as {
    visitorStatus: string | null;
    n: number;
  }[];
  const blocked = turnedAway.filter((group) => group.visitorStatus === 'BLOCKED');
  const sum = (groups: readonly { n: number }[]) => groups.reduce((total, group) => total + group.n, 0);
  const single = async (sql: string, parameters: Record<string, unknown>) =>
    ((await prepared(ctx.db, sql).get(parameters)) as { n: number }).n;
  const at = formatInZone(now, caller.timeZone);
  const unanswered = await unansweredHosts(ctx, caller, from);
  const hostId = readsGuestsOf(caller);
  return {
    day: at.slice(0, 10),
    at,
    ...(await rosterCounts(ctx, caller)),
    expected: await single(expectedSql(own.sql), { ...span, ...own.params }),
    blocked: sum(blocked),
    denied: sum(turnedAway) - sum(blocked),
    notificationFailures: await single(failingNotificationsSql(ctx.db, hostId !== undefined), {
      companyId: caller.companyId,
      kind: notificationJobKind,
      from,
      ...(hostId !== undefined ? { hostKey: `:${hostId}:` } : {}),
    }),
    unanswered: unanswered.length,
    unansweredHosts: unanswered,
  };
}
