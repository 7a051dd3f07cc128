import type { Context } from '../context.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { updateSyncState } from './state.ts';

/** A row a mutation concerns, by table and primary key. */
export interface RowRef {
  table: string;
  key: string;
}

export interface PendingMutation {
  id: number;
  name: string;
  args: unknown;
  hlc: string;
}

/** Mutations pushed at once at most, and the size of their arguments: a batch is one transaction at the hub. */
export const batchLimits = { count: 100, bytes: 1_000_000 };

const wakers = new WeakMap<Db, () => void>();

/** What runs once a mutation is recorded (the sync agent, to push it soon). */
export function onMutationRecorded(db: Db, wake: (() => void) | undefined): void {
  if (wake) wakers.set(db, wake);
  else wakers.delete(db);
}

/** Writes a mutation to the outbox; call it inside the transaction of the change it describes. */
export async function recordMutation(
  ctx: Pick<Context, 'db' | 'clock'>,
  companyId: string,
  mutation: { name: string; args: unknown; rows: readonly RowRef[] },
  hlc: string,
): Promise<void> {
  const mutationId = await prepared(
    ctx.db,
    'INSERT INTO sync_outbox (companyId, name, args, hlc, createdAt) VALUES (?, ?, ?, ?, ?) RETURNING id',
  )
    .pluck()
    .get(companyId, mutation.name, JSON.stringify(mutation.args), hlc, ctx.clock.now());
  for (const row of mutation.rows) {
    await prepared(
      ctx.db,
      'INSERT INTO sync_outbox_rows (mutationId, tableName, rowKey) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(mutationId, row.table, row.key);
  }
  const wake = wakers.get(ctx.db);
  if (wake) await ctx.db.afterCommit(wake);
}

/** Whether a mutation the hub has not confirmed concerns the row: the pull must not overwrite it meanwhile. */
export async function hasPendingMutation(ctx: Pick<Context, 'db'>, table: string, key: string): Promise<boolean> {
  return (
    (await prepared(ctx.db, 'SELECT 1 FROM sync_outbox_rows WHERE tableName = ? AND rowKey = ? LIMIT 1').get(
      table,
      key,
    )) !== undefined
  );
}

/** The oldest pending mutations of the company, within the batch limits (at least one). */
export async function pendingBatch(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  limits = batchLimits,
): Promise<PendingMutation[]> {
  const rows = (await prepared(
    ctx.db,
    'SELECT id, name, args, hlc FROM sync_outbox WHERE companyId = ? ORDER BY id LIMIT ?',
  ).all(companyId, limits.count)) as { id: number; name: string; args: string; hlc: string }[];
  const batch: PendingMutation[] = [];
  let bytes = 0;
  for (const row of rows) {
    bytes += row.args.length;
    if (batch.length > 0 && bytes > limits.bytes) break;
    batch.push({ id: row.id, name: row.name, hlc: row.hlc, args: JSON.parse(row.args) as unknown });
  }
  return batch;
}

/**
 * Removes what the hub confirmed (its rows are released to the pull with it, by cascade), and remembers how far the
 * hub has confirmed: a hub that later knows less lost it (see recovery.ts).
 */
export async function acknowledge(ctx: Pick<Context, 'db'>, companyId: string, lastMutationId: number): Promise<void> {
  await prepared(ctx.db, 'DELETE FROM sync_outbox WHERE companyId = ? AND id <= ?').run(companyId, lastMutationId);
  await updateSyncState(ctx, { confirmedMutationId: lastMutationId });
}

/** Every pending mutation counts, also those of a company the kiosk no longer follows: they are not at a hub. */
export async function pendingSummary(
  ctx: Pick<Context, 'db'>,
): Promise<{ pending: number; oldestPendingAt: number | null }> {
  const row = (await prepared(
    ctx.db,
    'SELECT COUNT(*) AS pending, MIN(createdAt) AS oldest FROM sync_outbox',
  ).get()) as {
    pending: number;
    oldest: number | null;
  };
  return { pending: row.pending, oldestPendingAt: row.oldest };
}
