import { forgetVisitHours } from '../analytics/hours.ts';
import { type Context, inTransaction } from '../context.ts';
import { deviceEnrolment, enrolDevice } from '../device.ts';
import { afterPulledPage, receivePulledRow } from '../privacy/replica.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import type { Change, ChangesPage, FeedRow } from './feed.ts';
import { hasPendingMutation } from './outbox.ts';
import { hubLoss, resendVisits } from './recovery.ts';
import { receiveRemoteHlc, syncState, updateSyncState } from './state.ts';
import { type FeedTable, feedTableNamed, feedTables, recentVisitsMs } from './tables.ts';

/** A page of the hub's feed as the kiosk receives it, with the hub's clock and what it knows of this kiosk. */
export interface PulledPage extends ChangesPage {
  hlc: string;
  /** The last mutation the hub applied for this kiosk's client id (null: none); absent from older hubs. */
  lastMutationId?: number | null | undefined;
}

/** The columns of the tables here, read once a page: a hub newer than its kiosk may send columns it lacks. */
function columnsReader(db: Db): (table: string) => Promise<Set<string>> {
  const known = new Map<string, Set<string>>();
  // PostgreSQL folds column names to lower case: there the set holds them, and the feed's names are compared so.
  const read = db
    .prepare(
      db.sqlite
        ? 'SELECT name FROM pragma_table_info(?)'
        : `SELECT column_name FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = ?`,
    )
    .pluck();
  return async (table) => {
    let columns = known.get(table);
    if (!columns) {
      columns = new Set((await read.all(table)) as string[]);
      known.set(table, columns);
    }
    return columns;
  };
}

/**
 * The kiosk's company is the hub company its key belongs to (the agent checked that this device may follow it):
 * it is created here with the hub's id (its details follow in the feed), and a device not yet enrolled is enrolled
 * to it. The hub key opens nothing here (docs/sync.md): the kiosk's local clients use keys made on the kiosk.
 */
async function adoptCompany(ctx: Context, companyId: string): Promise<void> {
  const now = ctx.clock.now();
  await prepared(
    ctx.db,
    `INSERT INTO companies (id, createdAt, updatedAt, name, trialUntil) VALUES (?, ?, ?, '', ?)
     ON CONFLICT (id) DO NOTHING`,
  ).run(companyId, now, now, now);
  if (!(await deviceEnrolment(ctx))) await enrolDevice(ctx, companyId);
}

/** Writes the hub's row as it is (columns this kiosk lacks left out, secrets sealed with this device's key). */
async function writeRow(ctx: Context, spec: FeedTable, row: FeedRow, known: Set<string>): Promise<void> {
  const values: FeedRow = {};
  for (const [column, value] of Object.entries(row)) {
    if (!known.has(ctx.db.sqlite ? column : column.toLowerCase())) continue;
    values[column] = spec.sealed.includes(column) && typeof value === 'string' ? ctx.secrets.seal(value) : value;
  }
  const columns = Object.keys(values);
  const insert = `INTO ${spec.table} (${columns.join(', ')}) VALUES (${columns.map((c) => `:${c}`).join(', ')})`;
  // REPLACE also clears a row that holds a unique value (an e-mail, a card number) the hub has since given to
  // this one: the feed sends each row once, at its latest change, so such swaps can arrive in either order.
  // PostgreSQL has no REPLACE: a store there that follows a hub updates the row by its key.
  const sql = ctx.db.sqlite
    ? `INSERT OR REPLACE ${insert}`
    : `INSERT ${insert} ON CONFLICT (${spec.key}) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  await prepared(ctx.db, sql).run(values);
}

async function applyChange(
  ctx: Context,
  page: { companyId: string; resyncing: boolean; columns: (table: string) => Promise<Set<string>> },
  change: Change,
): Promise<void> {
  const spec = feedTableNamed(change.table);
  if (!spec) return;
  if (change.row && change.row[spec.company] !== page.companyId) return;
  if (page.resyncing) {
    await prepared(ctx.db, 'INSERT INTO sync_resync_seen (tableName, rowKey) VALUES (?, ?) ON CONFLICT DO NOTHING').run(
      spec.table,
      change.key,
    );
  }
  // The kiosk's own change is newer than the hub's copy until the hub has it; the hub re-sends the row after.
  if (await hasPendingMutation(ctx, spec.table, change.key)) return;
  if (!change.row) {
    if (!spec.witnessed) await prepared(ctx.db, `DELETE FROM ${spec.table} WHERE ${spec.key} = ?`).run(change.key);
    return;
  }
  // A row that arrives deleted and was never here (an old visit anonymised at the hub) need not be kept.
  const known =
    (await prepared(ctx.db, `SELECT 1 FROM ${spec.table} WHERE ${spec.key} = ?`).get(change.key)) !== undefined;
  if (typeof change.row.deletedAt === 'number' && !known) return;
  await writeRow(
    ctx,
    spec,
    await receivePulledRow(ctx, spec.table, page.companyId, change.row),
    await page.columns(spec.table),
  );
}

/**
 * The end of a full resync: rows of the company the hub did not send are gone there (unless pending here). Of a
 * table the hub sends in part, only the rows it would have sent are looked at (an invitation of next week, not one
 * of last year); witnessed rows (visits) are left alone: a row missing may be one the hub lost (restored from a
 * backup) that only this kiosk still has.
 */
async function sweep(ctx: Context, companyId: string): Promise<void> {
  for (const spec of feedTables.filter((t) => !t.witnessed)) {
    const sent = spec.snapshot ? `AND ((${spec.snapshot.join(') OR (')}))` : '';
    await prepared(
      ctx.db,
      `DELETE FROM ${spec.table} WHERE ${spec.company} = :companyId ${sent}
       AND CAST(${spec.key} AS TEXT) NOT IN (SELECT rowKey FROM sync_resync_seen WHERE tableName = :table)
       AND CAST(${spec.key} AS TEXT) NOT IN (SELECT rowKey FROM sync_outbox_rows WHERE tableName = :table)`,
    ).run({
      companyId,
      table: spec.table,
      ...(spec.snapshot ? { recentSince: ctx.clock.now() - recentVisitsMs } : {}),
    });
  }
  await prepared(ctx.db, 'DELETE FROM sync_resync_seen').run();
}

/**
 * Applies one page of the hub's feed in one transaction, cursor included, without publishing domain events: what
 * comes from the hub is not the kiosk's to push back. Foreign keys are not checked while it runs: the feed sends
 * each row at its latest change, so an invitee may come a page before the host it refers to; the hub holds them
 * consistent, and the kiosk mirrors it.
 *
 * A page that shows the hub lost writes (see recovery.ts) first queues the kiosk's visits to be sent again, so the
 * page cannot overwrite them with the hub's older copies. Answers true when the pull must start over from the top
 * (the hub lost this kiosk's pushes without its feed starting over): the kiosk then mirrors the restored hub whole.
 */
export async function applyPulledPage(ctx: Context, page: PulledPage): Promise<boolean> {
  const before = await syncState(ctx);
  const loss = hubLoss(before, page);
  const idle =
    loss === undefined &&
    page.changes.length === 0 &&
    !page.reset &&
    before.resyncing === 0 &&
    page.cursor === before.cursor &&
    page.companyId === before.companyId;
  // Nothing new (the usual answer to a poll): no write, sparing kiosks that run on flash storage.
  if (idle) return false;
  const startOver = await ctx.db.withoutReferenceChecks(
    async () =>
      await inTransaction(ctx, async () => {
        if (loss) await resendVisits(ctx, page.companyId, loss);
        if (loss && !page.reset) return true;
        const state = await syncState(ctx);
        let resyncing = page.reset || state.resyncing === 1;
        if (page.reset) await prepared(ctx.db, 'DELETE FROM sync_resync_seen').run();
        if (page.reset || state.companyId !== page.companyId) await adoptCompany(ctx, page.companyId);
        const columns = columnsReader(ctx.db);
        for (const change of page.changes)
          await applyChange(ctx, { companyId: page.companyId, resyncing, columns }, change);
        // Visits from the hub come without events: the analytics' hourly counts are counted again when next asked.
        if (page.reset || page.changes.some((change) => change.table === 'visits')) {
          await forgetVisitHours(ctx, page.companyId);
        }
        if (resyncing && !page.hasMore) {
          await sweep(ctx, page.companyId);
          resyncing = false;
        }
        await receiveRemoteHlc(ctx, page.hlc);
        await updateSyncState(ctx, {
          cursor: page.cursor,
          companyId: page.companyId,
          resyncing: resyncing ? 1 : 0,
        });
        return false;
      }),
  );
  await afterPulledPage(ctx);
  return startOver;
}
