import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { formatInZone } from '../rules/time.ts';
import { findLiveRow, prepared } from '../store/rows.ts';
import type { RosterCheck, RosterTick } from './schema.ts';

interface TickRow {
  visitId: string;
  checkedAt: number;
  checkedBy: string;
}

interface RollCallRow {
  startedAt: number;
  startedBy: string;
}

const tickObject = (row: TickRow, caller: Caller): RosterTick => ({
  visitId: row.visitId,
  checkedAt: formatInZone(Number(row.checkedAt), caller.timeZone),
  checkedBy: row.checkedBy,
});

const rollCallOf = async (ctx: Context, caller: Caller) =>
  (await prepared(ctx.db, 'SELECT startedAt, startedBy FROM roster_roll_calls WHERE companyId = ?').get(
    caller.companyId,
  )) as RollCallRow | undefined;

/** The company's roll call as it stands. */
export async function rosterCheck(ctx: Context, caller: Caller): Promise<RosterCheck> {
  const rollCall = await rollCallOf(ctx, caller);
  const ticks = (await prepared(
    ctx.db,
    'SELECT visitId, checkedAt, checkedBy FROM roster_checks WHERE companyId = ? ORDER BY checkedAt, visitId',
  ).all(caller.companyId)) as TickRow[];
  return {
    startedAt: rollCall ? formatInZone(Number(rollCall.startedAt), caller.timeZone) : null,
    startedBy: rollCall?.startedBy ?? null,
    accounted: ticks.map((row) => tickObject(row, caller)),
  };
}

/** Makes the caller's roll call the company's current one, begun now; its ticks are the next ones made. */
async function beginRollCall(ctx: Context, caller: Caller, now: number): Promise<void> {
  await prepared(
    ctx.db,
    `INSERT INTO roster_roll_calls (companyId, startedAt, startedBy) VALUES (?, ?, ?)
     ON CONFLICT (companyId) DO UPDATE SET startedAt = excluded.startedAt, startedBy = excluded.startedBy`,
  ).run(caller.companyId, now, caller.credentialId);
}

/** A new evacuation: the last roll call's ticks are cleared, and this one begins now. */
export async function startRollCall(ctx: Context, caller: Caller): Promise<RosterCheck> {
  await inTransaction(ctx, async () => {
    const cleared = (await prepared(ctx.db, 'DELETE FROM roster_checks WHERE companyId = ?').run(caller.companyId))
      .changes;
    await beginRollCall(ctx, caller, ctx.clock.now());
    await recordAudit(ctx, auditActor(caller), {
      action: 'roster.check.started',
      objectType: 'rosterCheck',
      details: { cleared },
    });
  });
  return await rosterCheck(ctx, caller);
}

/**
 * Accounts for the person of a visit. Ticking them again keeps the first tick (who found them first, and when); the
 * first tick of a company that never began a roll call begins one.
 */
export async function tickVisit(ctx: Context, caller: Caller, visitId: string): Promise<RosterTick> {
  if (!(await findLiveRow(ctx.db, 'visits', caller.companyId, visitId))) throw new ApiError('NOT_FOUND');
  return await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    if (!(await rollCallOf(ctx, caller))) await beginRollCall(ctx, caller, now);
    const added = (
      await prepared(
        ctx.db,
        `INSERT INTO roster_checks (companyId, visitId, checkedAt, checkedBy) VALUES (?, ?, ?, ?)
       ON CONFLICT (companyId, visitId) DO NOTHING`,
      ).run(caller.companyId, visitId, now, caller.credentialId)
    ).changes;
    if (added > 0) {
      await recordAudit(ctx, auditActor(caller), {
        action: 'roster.check.ticked',
        objectType: 'visit',
        objectId: visitId,
      });
    }
    const row = (await prepared(
      ctx.db,
      'SELECT visitId, checkedAt, checkedBy FROM roster_checks WHERE companyId = ? AND visitId = ?',
    ).get(caller.companyId, visitId)) as TickRow;
    return tickObject(row, caller);
  });
}

/** Takes a tick back (made on the wrong row); a visit not ticked is NOT_FOUND. */
export async function untickVisit(ctx: Context, caller: Caller, visitId: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const removed = (
      await prepared(ctx.db, 'DELETE FROM roster_checks WHERE companyId = ? AND visitId = ?').run(
        caller.companyId,
        visitId,
      )
    ).changes;
    if (removed === 0) throw new ApiError('NOT_FOUND');
    await recordAudit(ctx, auditActor(caller), {
      action: 'roster.check.unticked',
      objectType: 'visit',
      objectId: visitId,
    });
  });
}
