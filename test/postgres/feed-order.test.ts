/**
 * The change feed's cursor with concurrent writers on PostgreSQL (sync/feed.ts, the schema's
 * `sync_changes_in_order`): a feed number drawn by a transaction still open is never passed over by a reader that
 * read a larger one, whether the larger one is the same company's (its writer waits for the open transaction) or
 * another company's (each company's cursor stops at its own entries).
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type Libpq from 'libpq';
import type { Context } from '../../local-api/context.ts';
import { openService } from '../../local-api/server.ts';
import { finishConnection } from '../../local-api/store/postgres.ts';
import { readChanges } from '../../local-api/sync/feed.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/service.ts';

/** A connection of its own (not the store's): one holds a transaction open, one writes behind it without blocking. */
function connection(url: string): Libpq {
  const pq = new (createRequire(import.meta.url)('libpq') as new () => Libpq)();
  pq.connectSync(url);
  return pq;
}

function run(pq: Libpq, sql: string): void {
  pq.exec(sql);
  assert.equal(pq.resultStatus(), 'PGRES_COMMAND_OK', pq.resultErrorMessage());
}

/** A feed entry of `company`'s, as the feed tables' triggers write it. */
const entrySql = (company: string, key: string) =>
  `INSERT INTO sync_changes (tableName, rowKey, companyId, deleted) VALUES ('hosts', '${key}', '${company}', 1)`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the statement sent with sendQuery is still waiting after a moment. */
async function stillWaiting(pq: Libpq): Promise<boolean> {
  await sleep(300);
  assert.ok(pq.consumeInput(), pq.errorMessage());
  return pq.isBusy();
}

async function finished(pq: Libpq): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    assert.ok(pq.consumeInput(), pq.errorMessage());
    if (!pq.isBusy()) break;
    if (Date.now() > deadline) throw new Error('the waiting write never went through');
    await sleep(10);
  }
  while (pq.getResult()) assert.equal(pq.resultStatus(), 'PGRES_COMMAND_OK', pq.resultErrorMessage());
}

describe('the change feed with concurrent writers', { skip: withoutPostgres }, () => {
  let url: string;
  let reader: Context;
  let held: Libpq;
  let behind: Libpq;

  before(async () => {
    url = freshDatabase('feed_order');
    reader = await openService({ dataDir: tempDir(), database: url, logLevel: 'silent' });
    held = connection(url);
    behind = connection(url);
  });
  after(async () => {
    finishConnection(held);
    finishConnection(behind);
    await reader.db.close();
  });

  const read = async (company: string, cursor: string | undefined) => await readChanges(reader, company, cursor, 100);
  const keys = (page: ReturnType<typeof read>) => page.changes.map((change) => change.key);

  it("a company's later write waits for the open one, and the reader gets both, in order", async () => {
    const start = (await read('A', undefined)).cursor;
    run(held, 'BEGIN');
    run(held, entrySql('A', 'a-first'));
    assert.ok(behind.sendQuery(entrySql('A', 'a-second')));
    assert.ok(await stillWaiting(behind), "the second writer waits for the first's transaction");

    const during = await read('A', start);
    assert.deepEqual(keys(during), [], 'nothing committed yet');
    assert.equal(during.cursor, start, 'the cursor does not move past numbers not yet committed');

    run(held, 'COMMIT');
    await finished(behind);
    const afterwards = await read('A', during.cursor);
    assert.deepEqual(keys(afterwards), ['a-first', 'a-second']);
  });

  it("another company's larger number, committed and read first, does not hide the smaller one", async () => {
    const startA = (await read('A', undefined)).cursor;
    const startB = (await read('B', undefined)).cursor;
    run(held, 'BEGIN');
    run(held, entrySql('A', 'a-late'));
    assert.ok(behind.sendQuery(entrySql('B', 'b-early')));
    await finished(behind);

    const seqOf = async (key: string) =>
      await reader.db.prepare('SELECT seq FROM sync_changes WHERE rowKey = ?').pluck().get(key) as number | undefined;
    const bPage = await read('B', startB);
    assert.deepEqual(keys(bPage), ['b-early'], "B's entry is read while A's transaction is open");
    const aDuring = await read('A', startA);
    assert.deepEqual(keys(aDuring), []);

    run(held, 'COMMIT');
    assert.ok((await seqOf('a-late') ?? 0) < (await seqOf('b-early') ?? 0), "A's number is the smaller, committed after B's");
    assert.deepEqual(keys(await read('A', aDuring.cursor)), ['a-late'], "A's entry is not skipped");
    assert.deepEqual(keys(await read('B', bPage.cursor)), [], 'B has nothing more');
  });
});
