import type { Context } from '../context.ts';
import { hexId } from '../rules/ids.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import type { VisitRow } from '../visits/contract.ts';
import { formatHlc } from './hlc.ts';
import { registerHlc, visitMutations } from './mutations.ts';
import { recordMutation } from './outbox.ts';
import { nextHlc, type SyncState, syncState, updateSyncState } from './state.ts';
import { recentVisitsMs } from './tables.ts';

/*
 * A hub restored from an older backup has lost what happened after the backup: the check-ins, check-outs and
 * decisions its kiosks pushed and it confirmed, and those of its own desk. Its kiosks still hold them. A kiosk
 * notices the loss and sends again every visit it holds that the hub may have lost, so a restore costs no visitor.
 */

/**
 * How a kiosk sees that its hub lost writes: the hub's feed starts over under a cursor the kiosk had from it (the
 * cursor lies beyond the restored feed's end, or the feed is another one: a database made anew or restored), the
 * hub knows fewer of this kiosk's mutations than it had confirmed (said by a page, or by a push it refuses), or the
 * hub never heard of a visit this kiosk changes (a check-out of a visit another kiosk made, whose check-in the hub
 * confirmed and lost). Whichever comes first, the kiosk sends again what it holds.
 */
export type HubLoss = 'feed' | 'pushes' | 'row';

export function hubLoss(
  state: Pick<SyncState, 'cursor' | 'companyId' | 'confirmedMutationId'>,
  page: { companyId: string; reset: boolean; lastMutationId?: number | null | undefined },
): HubLoss | undefined {
  if (page.reset && state.cursor !== null && state.companyId === page.companyId) return 'feed';
  if (page.lastMutationId !== undefined && (page.lastMutationId ?? 0) < state.confirmedMutationId) return 'pushes';
  return undefined;
}

/**
 * What a push the hub refused says: the hub lost writes (SYNC_GAP under the last id the kiosk knows confirmed, or
 * SYNC_ROW_MISSING), or this kiosk's numbering went back (SYNC_GAP at or past it: its database restored), when it
 * goes on as a new client without sending anything again.
 */
export function pushRefusal(
  state: Pick<SyncState, 'confirmedMutationId'>,
  refusal: { type?: string | undefined; details?: Record<string, unknown> | undefined },
): HubLoss | 'renumbered' | undefined {
  if (refusal.type === 'SYNC_ROW_MISSING') return 'row';
  if (refusal.type !== 'SYNC_GAP') return undefined;
  const known = refusal.details?.lastMutationId;
  return (typeof known === 'number' ? known : 0) < state.confirmedMutationId ? 'pushes' : 'renumbered';
}

/**
 * The visits a hub restored from a backup may lack: every open one, every one that changed within the span a full
 * pass covers (the last 7 days; scheduled backups are daily, the newest 7 kept), and every one with a change not
 * yet pushed. Deleted and anonymised ones are not sent back.
 */
async function visitsToResend(ctx: Pick<Context, 'db' | 'clock'>, companyId: string): Promise<VisitRow[]> {
  return (await prepared(
    ctx.db,
    `SELECT * FROM visits WHERE companyId = ? AND deletedAt IS NULL AND (checkoutAt IS NULL OR updatedAt >= ?
       OR id IN (SELECT rowKey FROM sync_outbox_rows WHERE tableName = 'visits'))
     ORDER BY checkinAt, id`,
  ).all(companyId, ctx.clock.now() - recentVisitsMs)) as VisitRow[];
}

/** Each database's last resend: the client id it went on as, and the last mutation it queued. */
const resends = new WeakMap<Db, { clientId: string; lastId: number }>();

/**
 * Whether a batch is part of a resend, which holds every visit the kiosk has (see `applyPush`); what the kiosk
 * queues after it is not.
 */
export function sendsEverything(ctx: Pick<Context, 'db'>, clientId: string, firstId: number): boolean {
  const resend = resends.get(ctx.db);
  return resend?.clientId === clientId && firstId <= resend.lastId;
}

/**
 * Rebuilds the kiosk's outbox from the visits it holds, inside the caller's transaction: each visit's check-in,
 * check-out and decision, as they are now, replacing the pending mutations (they say no more than the rows). The
 * hub applies what it lacks and recognises the rest: visits by id, check-outs never undone, decisions by their own
 * timestamps. The kiosk goes on as a new client, so the hub takes the new numbering from its first id, and pulls
 * the restored hub's feed from the top: a position in the feed it had may name other entries there. The pending
 * mutations keep the rows from being overwritten by the hub's older copies until the hub has them.
 */
export async function resendVisits(ctx: Context, companyId: string, loss: HubLoss): Promise<number> {
  const { nodeId } = await syncState(ctx);
  const visits = await visitsToResend(ctx, companyId);
  await prepared(
    ctx.db,
    'DELETE FROM sync_outbox_rows WHERE mutationId IN (SELECT id FROM sync_outbox WHERE companyId = ?)',
  ).run(companyId);
  await prepared(ctx.db, 'DELETE FROM sync_outbox WHERE companyId = ?').run(companyId);
  const clientId = hexId(ctx.random, 16);
  await updateSyncState(ctx, { clientId, confirmedMutationId: 0, cursor: null, resyncing: 0 });
  for (const row of visits) {
    const decidedHlc =
      (await registerHlc(ctx, 'visits', row.id, 'authorization')) ??
      formatHlc({ wallMs: Number(row.authorizedAt ?? 0), counter: 0, node: nodeId });
    for (const mutation of await visitMutations(ctx, row, decidedHlc)) {
      await recordMutation(ctx, companyId, mutation, await nextHlc(ctx));
    }
  }
  const lastId = await prepared(ctx.db, 'SELECT MAX(id) FROM sync_outbox WHERE companyId = ?').pluck().get(companyId);
  resends.set(ctx.db, { clientId, lastId: Number(lastId ?? 0) });
  ctx.log.warn(
    { loss, visits: visits.length },
    'sync: the hub lost writes it had confirmed (restored from a backup?); sending again the visits this kiosk holds',
  );
  return visits.length;
}
