import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { prepared } from '../store/rows.ts';
import { touchRow } from './feed.ts';
import { compareHlc } from './hlc.ts';
import { type MutationKind, mutationKinds } from './mutations.ts';
import type { PendingMutation, RowRef } from './outbox.ts';
import { receiveRemoteHlc, syncState } from './state.ts';
import { feedTableNamed } from './tables.ts';

export type MutationResult =
  | { id: number; result: 'applied' | 'duplicate' }
  | { id: number; result: 'rejected'; type: string };

export interface PushResult {
  lastMutationId: number;
  results: MutationResult[];
  hlc: string;
}

interface ClientRow {
  lastMutationId: number;
  lastMutationHlc: string;
}

function rowsOf(kind: MutationKind<unknown> | undefined, args: unknown): RowRef[] {
  if (!kind) return [];
  const parsed = kind.args.safeParse(args);
  return parsed.success ? kind.rows(parsed.data) : [];
}

function rowNeeded(kind: MutationKind<unknown> | undefined, args: unknown): RowRef | undefined {
  const parsed = kind?.needs ? kind.args.safeParse(args) : undefined;
  return parsed?.success ? kind?.needs?.(parsed.data) : undefined;
}

/** Applies one mutation in a savepoint: a refused mutation leaves nothing behind, and the batch goes on. */
async function applyOne(
  ctx: Context,
  caller: Caller,
  clientId: string,
  mutation: PendingMutation,
): Promise<string | undefined> {
  const kind = mutationKinds[mutation.name];
  try {
    if (!kind) throw new ApiError('INVALID_PARAMETER', { field: 'name' });
    const replaying: Caller = { ...caller, replayedFor: clientId };
    await ctx.db.transaction(
      async () => await kind.apply(ctx, replaying, validate(kind.args, mutation.args), mutation.hlc),
    );
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error.type;
    // Not the kiosk's fault, but retrying would meet the same fault: kept as rejected, with its arguments.
    ctx.log.error({ err: error, mutation: mutation.name }, 'sync mutation failed');
    return 'INTERNAL';
  }
}

/**
 * Whether this hub has never heard of a row: no row, not even another company's, and no entry in its feed (a
 * check-in it refused leaves one). A kiosk's mutation that needs such a row (a check-out of a visit) proves the hub
 * lost the check-in it confirmed: restored from a backup.
 */
async function neverHeardOf(ctx: Pick<Context, 'db'>, row: RowRef): Promise<boolean> {
  const spec = feedTableNamed(row.table);
  if (!spec) return false;
  const held = await prepared(ctx.db, `SELECT 1 FROM ${spec.table} WHERE ${spec.key} = ?`).get(row.key);
  const fed = await prepared(ctx.db, 'SELECT 1 FROM sync_changes WHERE tableName = ? AND rowKey = ?').get(
    row.table,
    row.key,
  );
  return held === undefined && fed === undefined;
}

/**
 * Applies a kiosk's batch in one transaction. The hub keeps, per kiosk, the id of the last mutation it applied:
 * ids up to it are skipped (a batch sent again after a lost answer applies nothing twice). Ids out of step answer
 * SYNC_GAP with the last id the hub knows, and the kiosk goes on as a new client: a batch starting past the next
 * id, or a kiosk that says the hub confirmed more than it knows (`confirmedMutationId`; the hub lost mutations it had
 * confirmed: restored from a backup, and the kiosk sends again what it holds), or an id already seen with a later
 * timestamp than the last applied (the kiosk's numbering went back: its database restored). Sent again as a new
 * client's, mutations the hub already has change nothing: visit ids, check-outs that are never undone and clocked
 * decisions make each idempotent. A mutation that needs a row the hub never heard of answers SYNC_ROW_MISSING,
 * applying nothing of the batch: the hub lost it, and the kiosk sends again what it holds, the row's check-in
 * first; from a client that already did so (`resent`) it is rejected, as the kiosk holds no more, and so it is
 * from a kiosk too old to say (`resent` absent), which would not understand the answer. Mutations it cannot apply are kept in `sync_rejections` and count as done. Every row a mutation concerns
 * is moved to the end of the feed, so the kiosk pulls the hub's version of it.
 */
export async function applyPush(
  ctx: Context,
  caller: Caller,
  clientId: string,
  mutations: readonly PendingMutation[],
  kiosk: { confirmedMutationId?: number | undefined; resent?: boolean | undefined } = {},
): Promise<PushResult> {
  return await inTransaction(ctx, async () => {
    const now = ctx.clock.now();
    const first = mutations[0];
    const client = (await prepared(
      ctx.db,
      'SELECT lastMutationId, lastMutationHlc FROM sync_clients WHERE companyId = ? AND clientId = ?',
    ).get(caller.companyId, clientId)) as ClientRow | undefined;
    let last = client?.lastMutationId ?? (first ? first.id - 1 : 0);
    let lastHlc = client?.lastMutationHlc ?? '';
    if (mutations.some((m, i) => m.id !== (first?.id ?? 0) + i)) {
      throw new ApiError('INVALID_PARAMETER', { field: 'mutations' });
    }
    if ((first && first.id > last + 1) || (kiosk.confirmedMutationId ?? 0) > (client?.lastMutationId ?? 0)) {
      throw new ApiError('SYNC_GAP', { lastMutationId: client?.lastMutationId ?? null });
    }
    const latest = mutations.map((m) => m.hlc).reduce((a, b) => (compareHlc(a, b) >= 0 ? a : b), '');
    if (latest) await receiveRemoteHlc(ctx, latest);
    const results: MutationResult[] = [];
    const counts = { applied: 0, duplicates: 0, rejected: 0 };
    for (const mutation of mutations) {
      const kind = mutationKinds[mutation.name];
      if (mutation.id <= last) {
        // A retry carries the timestamp it was made with, never one later than the last applied mutation's.
        if (compareHlc(mutation.hlc, lastHlc) > 0) throw new ApiError('SYNC_GAP', { lastMutationId: last });
        results.push({ id: mutation.id, result: 'duplicate' });
        counts.duplicates++;
      } else {
        const needed = rowNeeded(kind, mutation.args);
        if (needed && kiosk.resent === false && (await neverHeardOf(ctx, needed)))
          throw new ApiError('SYNC_ROW_MISSING', { ...needed });
        const refusal = await applyOne(ctx, caller, clientId, mutation);
        if (refusal === undefined) {
          results.push({ id: mutation.id, result: 'applied' });
          counts.applied++;
        } else {
          await prepared(
            ctx.db,
            `INSERT INTO sync_rejections (companyId, clientId, mutationId, name, args, hlc, type, createdAt)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          ).run(
            caller.companyId,
            clientId,
            mutation.id,
            mutation.name,
            JSON.stringify(mutation.args),
            mutation.hlc,
            refusal,
            now,
          );
          results.push({ id: mutation.id, result: 'rejected', type: refusal });
          counts.rejected++;
        }
        last = mutation.id;
        lastHlc = mutation.hlc;
      }
      for (const row of rowsOf(kind, mutation.args)) await touchRow(ctx, row.table, row.key, caller.companyId);
    }
    await prepared(
      ctx.db,
      `INSERT INTO sync_clients (companyId, clientId, lastMutationId, lastMutationHlc, applied, duplicates, rejected,
         createdAt, lastPushAt)
       VALUES (:companyId, :clientId, :last, :lastHlc, :applied, :duplicates, :rejected, :now, :now)
       ON CONFLICT (companyId, clientId) DO UPDATE SET lastMutationId = :last, lastMutationHlc = :lastHlc,
         applied = sync_clients.applied + :applied, duplicates = sync_clients.duplicates + :duplicates,
         rejected = sync_clients.rejected + :rejected, lastPushAt = :now`,
    ).run({ companyId: caller.companyId, clientId, last, lastHlc, now, ...counts });
    return { lastMutationId: last, results, hlc: (await syncState(ctx)).hlc };
  });
}

/** The last mutation the hub applied for a kiosk's client id; null when it does not know that client. */
export async function clientLastMutationId(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  clientId: string,
): Promise<number | null> {
  const row = (await prepared(
    ctx.db,
    'SELECT lastMutationId FROM sync_clients WHERE companyId = ? AND clientId = ?',
  ).get(companyId, clientId)) as { lastMutationId: number } | undefined;
  return row?.lastMutationId ?? null;
}

export interface SyncClient {
  clientId: string;
  lastMutationId: number;
  applied: number;
  duplicates: number;
  rejected: number;
  lastPushAt: number;
}

/** The kiosks that pushed to this hub for the company, most recent first. */
export async function syncClients(ctx: Pick<Context, 'db'>, companyId: string): Promise<SyncClient[]> {
  return (await prepared(
    ctx.db,
    `SELECT clientId, lastMutationId, applied, duplicates, rejected, lastPushAt FROM sync_clients
     WHERE companyId = ? ORDER BY lastPushAt DESC LIMIT 100`,
  ).all(companyId)) as SyncClient[];
}

export interface Rejection {
  clientId: string;
  mutationId: number;
  name: string;
  args: unknown;
  hlc: string;
  type: string;
  createdAt: number;
}

/** The company's mutations the hub could not apply, newest first: what a kiosk recorded that needs a person. */
export async function syncRejections(ctx: Pick<Context, 'db'>, companyId: string, limit: number): Promise<Rejection[]> {
  const rows = (await prepared(
    ctx.db,
    `SELECT clientId, mutationId, name, args, hlc, type, createdAt FROM sync_rejections
     WHERE companyId = ? ORDER BY createdAt DESC, id DESC LIMIT ?`,
  ).all(companyId, limit)) as (Omit<Rejection, 'args'> & { args: string })[];
  return rows.map((row) => ({ ...row, args: JSON.parse(row.args) as unknown }));
}
