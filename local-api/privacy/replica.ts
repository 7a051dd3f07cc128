import { companyCaller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { storedFileId } from '../files/store.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import type { FeedRow } from '../sync/feed.ts';
import { type PersonalTable, personalTables } from './personal-data.ts';
import { applyHubErasure, forgetDeletedRow, settleErasures, sweepCompany } from './store.ts';

/** The feed table that carries a hub's erasures to its kiosks. */
export const erasureFeedTable = 'privacy_erasures';

/** Kiosks that received their company's retention setting in the page being applied: they apply it after. */
const retentionReceived = new WeakMap<Db, string>();

const holdsData = (table: PersonalTable, row: FeedRow) => table.personal.some((column) => row[column] != null);

/** Whether the path names a file this service holds for the company (a picture taken at this kiosk). */
async function isLocalFile(ctx: Pick<Context, 'db'>, companyId: string, path: unknown): Promise<boolean> {
  const id = storedFileId(path);
  return (
    id !== undefined &&
    (await prepared(ctx.db, 'SELECT 1 FROM files WHERE id = ? AND companyId = ? AND deletedAt IS NULL').get(
      id,
      companyId,
    )) !== undefined
  );
}

/**
 * What a kiosk does with a row of its hub's feed before writing it, for data protection; answers the row to write.
 * - An erasure: the kiosk erases its own copies of the person (see `applyHubErasure`).
 * - A row the hub deleted or anonymised (an erasure, the retention, a deletion) that the kiosk still holds with
 *   data: the kiosk forgets its copy as the hub did, its files and queued deliveries included.
 * - A live row: the pictures and NDAs taken at this kiosk stay named in it (the hub does not hold their bytes),
 *   so that erasure and retention here still find them.
 * Runs inside the pull's transaction; `settleErasures` deletes the files and empties the WAL after it.
 */
export async function receivePulledRow(
  ctx: Context,
  tableName: string,
  companyId: string,
  row: FeedRow,
): Promise<FeedRow> {
  if (tableName === erasureFeedTable) {
    await applyHubErasure(ctx, companyId, String(row.rowIds));
    return row;
  }
  if (tableName === 'privacy_settings') retentionReceived.set(ctx.db, companyId);
  const table = personalTables.find((t) => t.table === tableName);
  if (!table) return row;
  const local = (await prepared(ctx.db, `SELECT * FROM ${table.table} WHERE id = ? AND companyId = ?`).get(
    row.id,
    companyId,
  )) as FeedRow | undefined;
  if (!local) return row;
  if (typeof row.deletedAt === 'number') {
    if (holdsData(table, local)) await forgetDeletedRow(ctx, companyId, table.table, String(row.id), ctx.clock.now());
    return row;
  }
  const kept: string[] = [];
  for (const column of table.files) {
    if (row[column] == null && (await isLocalFile(ctx, companyId, local[column]))) kept.push(column);
  }
  return kept.length === 0
    ? row
    : { ...row, ...Object.fromEntries(kept.map((column) => [column, local[column] ?? null])) };
}

/**
 * After a page of the hub's feed is applied: a retention the hub set or changed is applied to what this kiosk
 * holds at once (not at the next daily sweep), and the files of what was forgotten are deleted, the WAL emptied.
 */
export async function afterPulledPage(ctx: Context): Promise<void> {
  const companyId = retentionReceived.get(ctx.db);
  retentionReceived.delete(ctx.db);
  const caller = companyId === undefined ? undefined : await companyCaller(ctx, companyId);
  if (caller) await sweepCompany(ctx, caller);
  await ctx.db.afterCommit(() => settleErasures(ctx));
}
