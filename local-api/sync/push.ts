import { type Context, inTransaction, joiningNested, withMemo } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { isTransactionFailure } from '../store/db.ts';
import { jsonTextElements, prepared } from '../store/rows.ts';
import { compareHlc } from './hlc.ts';
import { type MutationKind, mutationKinds } from './mutations.ts';
import type { PendingMutation, RowRef } from './outbox.ts';
import { currentHlc, receiveRemoteHlc } from './state.ts';
import { type FeedTable, feedTableNamed } from './tables.ts';

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

/** A mutation of a batch with what the hub makes of it before applying anything. */
interface Planned {
  mutation: PendingMutation;
  kind: MutationKind<unknown> | undefined;
  /** Its arguments as the kind reads them; undefined when they do not fit (rejected, without applying). */
  args: unknown;
  refusal: string | undefined;
  rows: RowRef[];
  needs: RowRef | undefined;
}

/** Each mutation's arguments checked with the API's own schemas, before the batch's transaction begins. */
function plan(mutation: PendingMutation): Planned {
  const kind = mutationKinds[mutation.name];
  if (!kind) return { mutation, kind, args: undefined, refusal: 'INVALID_PARAMETER', rows: [], needs: undefined };
  try {
    const args = validate(kind.args, mutation.args);
    return { mutation, kind, args, refusal: undefined, rows: kind.rows(args), needs: kind.needs?.(args) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { mutation, kind, args: undefined, refusal: error.type, rows: [], needs: undefined };
  }
}

/** Thrown out of a batch applied without savepoints when one of its mutations failed: it runs again with them. */
class FailedAlone extends Error {}

/**
 * Applies one mutation. Without savepoints (`careful` false), a failure ends the batch's attempt (`FailedAlone`):
 * the batch runs again, each mutation in a savepoint, so a refused mutation leaves nothing behind and the batch goes
 * on. Most batches hold no mutation that fails, and run once without a savepoint.
 */
async function applyOne(
  ctx: Context,
  caller: Caller,
  clientId: string,
  planned: Planned,
  careful: boolean,
): Promise<string | undefined> {
  const { kind, args, mutation } = planned;
  if (!kind || planned.refusal !== undefined) return planned.refusal;
  const replaying: Caller = { ...caller, replayedFor: clientId };
  if (!careful) {
    try {
      await kind.apply(ctx, replaying, args, mutation.hlc);
      return undefined;
    } catch (error) {
      // A conflict lost to another transaction is the batch's, which the store runs again, not the mutation's.
      if (isTransactionFailure(error)) throw error;
      throw new FailedAlone();
    }
  }
  try {
    await inTransaction(ctx, () => kind.apply(ctx, replaying, args, mutation.hlc));
    return undefined;
  } catch (error) {
    if (isTransactionFailure(error)) throw error;
    if (error instanceof ApiError) return error.type;
    // Not the kiosk's fault, but retrying would meet the same fault: kept as rejected, with its arguments.
    ctx.log.error({ err: error, mutation: mutation.name }, 'sync mutation failed');
    return 'INTERNAL';
  }
}

/** Groups rows by their feed table (rows of tables outside the feed are left out). */
function byTable(rows: readonly RowRef[]): Map<FeedTable, string[]> {
  const groups = new Map<FeedTable, string[]>();
  for (const row of rows) {
    const spec = feedTableNamed(row.table);
    if (!spec) continue;
    const keys = groups.get(spec) ?? [];
    if (!keys.includes(row.key)) keys.push(row.key);
    groups.set(spec, keys);
  }
  return groups;
}

const refKey = (table: string, key: string) => `${table}\n${key}`;

/**
 * Where the rows stand in the feed (their entries' sequence numbers), in one statement: compared before and after
 * the batch, they say which rows the batch's writes moved (the tables' triggers did) and which it did not.
 */
async function feedPositions(ctx: Pick<Context, 'db'>, rows: readonly RowRef[]): Promise<Map<string, number>> {
  const groups = [...byTable(rows)];
  if (groups.length === 0) return new Map();
  const sql = groups
    .map(
      ([spec], i) => `SELECT tableName, rowKey, seq FROM sync_changes
        WHERE tableName = '${spec.table}' AND rowKey IN (SELECT value FROM ${jsonTextElements(ctx.db, `:keys${i}`)})`,
    )
    .join(' UNION ALL ');
  const parameters = Object.fromEntries(groups.map(([, keys], i) => [`keys${i}`, JSON.stringify(keys)]));
  const entries = (await prepared(ctx.db, sql).all(parameters)) as { tableName: string; rowKey: string; seq: number }[];
  return new Map(entries.map((entry) => [refKey(entry.tableName, entry.rowKey), entry.seq]));
}

/**
 * Moves rows' entries to the end of the feed without writing the rows: the hub does so for every row a kiosk's
 * mutation concerns that the batch's writes did not move, so the kiosk receives the hub's version even when the
 * mutation changed nothing there (a duplicate, a rejection, a check-out already made). Two statements per table,
 * whatever the rows. A row gone gets a tombstone; a key naming another company's row is left alone: that row is
 * not the kiosk's to receive.
 */
async function touchRows(ctx: Pick<Context, 'db'>, companyId: string, rows: readonly RowRef[]): Promise<void> {
  for (const [spec, keys] of byTable(rows)) {
    const parameters = { companyId, keys: JSON.stringify(keys) };
    const elements = jsonTextElements(ctx.db, ':keys');
    await prepared(
      ctx.db,
      `DELETE FROM sync_changes WHERE tableName = '${spec.table}' AND companyId = :companyId
       AND rowKey IN (SELECT value FROM ${elements})`,
    ).run(parameters);
    await prepared(
      ctx.db,
      `INSERT INTO sync_changes (tableName, rowKey, companyId, deleted)
       SELECT '${spec.table}', value, :companyId, CASE WHEN r.${spec.key} IS NULL THEN 1 ELSE 0 END
       FROM ${elements} LEFT JOIN ${spec.table} r ON r.${spec.key} = value
       WHERE (r.${spec.key} IS NULL OR r.${spec.company} = :companyId)
         AND NOT EXISTS (SELECT 1 FROM sync_changes c WHERE c.tableName = '${spec.table}' AND c.rowKey = value)`,
    ).run(parameters);
  }
}

/**
 * The rows of `needed` this hub has never heard of: no row, not even another company's, and no entry in its feed
 * (a check-in it refused leaves one). A kiosk's mutation that needs such a row (a check-out of a visit) proves the
 * hub lost the check-in it confirmed: restored from a backup. One statement for the batch.
 */
async function neverHeardOf(ctx: Pick<Context, 'db'>, needed: readonly RowRef[]): Promise<Set<string>> {
  const groups = [...byTable(needed)];
  if (groups.length === 0) return new Set();
  const sql = groups
    .map(([spec], i) => {
      const elements = `SELECT value FROM ${jsonTextElements(ctx.db, `:keys${i}`)}`;
      return `SELECT '${spec.table}' AS tableName, ${spec.key} AS rowKey FROM ${spec.table} WHERE ${spec.key} IN (${elements})
        UNION ALL SELECT tableName, rowKey FROM sync_changes WHERE tableName = '${spec.table}' AND rowKey IN (${elements})`;
    })
    .join(' UNION ALL ');
  const parameters = Object.fromEntries(groups.map(([, keys], i) => [`keys${i}`, JSON.stringify(keys)]));
  const found = (await prepared(ctx.db, sql).all(parameters)) as { tableName: string; rowKey: string }[];
  const heard = new Set(found.map((row) => refKey(row.tableName, row.rowKey)));
  return new Set(needed.map((row) => refKey(row.table, row.key)).filter((key) => !heard.has(key)));
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
 * from a kiosk too old to say (`resent` absent), which would not understand the answer. Mutations it cannot apply
 * are kept in `sync_rejections` and count as done. Every row a mutation concerns is moved to the end of the feed,
 * so the kiosk pulls the hub's version of it.
 *
 * What it costs the database: the batch's reads (the kiosk's last id, the rows it needs, the feed's positions of its
 * rows, the company's settings its listeners read) once for the batch; each mutation's own reads and writes, with
 * no savepoint unless one of the batch's mutations fails (then the batch runs again, each in a savepoint).
 */
export async function applyPush(
  ctx: Context,
  caller: Caller,
  clientId: string,
  mutations: readonly PendingMutation[],
  kiosk: { confirmedMutationId?: number | undefined; resent?: boolean | undefined } = {},
): Promise<PushResult> {
  const first = mutations[0];
  if (mutations.some((m, i) => m.id !== (first?.id ?? 0) + i)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'mutations' });
  }
  const planned = mutations.map(plan);
  const attempt = (careful: boolean) =>
    (careful ? inTransaction : joiningNested)(ctx, () =>
      withMemo(ctx, () => applyBatch(ctx, caller, clientId, planned, kiosk, careful)),
    );
  // A company's kiosks push at once; under SERIALIZABLE their batches would conflict and run again, each costing
  // its statements every time (docs/sync.md): they take turns instead.
  return await ctx.db.serialized(`sync push ${caller.companyId}`, async () => {
    try {
      return await attempt(false);
    } catch (error) {
      if (!(error instanceof FailedAlone)) throw error;
      return await attempt(true);
    }
  });
}

async function applyBatch(
  ctx: Context,
  caller: Caller,
  clientId: string,
  planned: readonly Planned[],
  kiosk: { confirmedMutationId?: number | undefined; resent?: boolean | undefined },
  careful: boolean,
): Promise<PushResult> {
  const now = ctx.clock.now();
  const first = planned[0]?.mutation;
  const client = (await prepared(
    ctx.db,
    'SELECT lastMutationId, lastMutationHlc FROM sync_clients WHERE companyId = ? AND clientId = ?',
  ).get(caller.companyId, clientId)) as ClientRow | undefined;
  let last = client?.lastMutationId ?? (first ? first.id - 1 : 0);
  let lastHlc = client?.lastMutationHlc ?? '';
  if ((first && first.id > last + 1) || (kiosk.confirmedMutationId ?? 0) > (client?.lastMutationId ?? 0)) {
    throw new ApiError('SYNC_GAP', { lastMutationId: client?.lastMutationId ?? null });
  }
  const latest = planned.map((p) => p.mutation.hlc).reduce((a, b) => (compareHlc(a, b) >= 0 ? a : b), '');
  if (latest) await receiveRemoteHlc(ctx, latest);
  const fresh = planned.filter((p) => p.mutation.id > last);
  const missing =
    kiosk.resent === false
      ? await neverHeardOf(
          ctx,
          fresh.flatMap((p) => (p.needs ? [p.needs] : [])),
        )
      : new Set();
  const rows = planned.flatMap((p) => p.rows);
  const before = await feedPositions(ctx, rows);
  const results: MutationResult[] = [];
  const counts = { applied: 0, duplicates: 0, rejected: 0 };
  // Rows an earlier mutation of the batch concerns: heard of by the time a later one needs them.
  const mentioned = new Set<string>();
  for (const entry of planned) {
    const { mutation } = entry;
    if (mutation.id <= last) {
      // A retry carries the timestamp it was made with, never one later than the last applied mutation's.
      if (compareHlc(mutation.hlc, lastHlc) > 0) throw new ApiError('SYNC_GAP', { lastMutationId: last });
      results.push({ id: mutation.id, result: 'duplicate' });
      counts.duplicates++;
    } else {
      const needed = entry.needs && refKey(entry.needs.table, entry.needs.key);
      if (needed && missing.has(needed) && !mentioned.has(needed)) {
        throw new ApiError('SYNC_ROW_MISSING', { ...entry.needs });
      }
      const refusal = await applyOne(ctx, caller, clientId, entry, careful);
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
    for (const row of entry.rows) mentioned.add(refKey(row.table, row.key));
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
  const after = await feedPositions(ctx, rows);
  const unmoved = rows.filter((row) => {
    const key = refKey(row.table, row.key);
    return !after.has(key) || after.get(key) === before.get(key);
  });
  if (unmoved.length > 0) await touchRows(ctx, caller.companyId, unmoved);
  return { lastMutationId: last, results, hlc: await currentHlc(ctx) };
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
