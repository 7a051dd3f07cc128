/**
 * The change feed's cursor with concurrent writers on PostgreSQL (sync/feed.ts, the schema's
 * `sync_changes_in_order`): a feed number drawn by a transaction still open is never passed over by a reader that
 * read a larger one, whether the larger one is the same company's (its writer waits for the open transaction) or
 * another company's (each company's cursor stops at its own entries).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Context } from '../../local-api/context.ts';
import { openService } from '../../local-api/server.ts';
import { readChanges } from '../../local-api/sync/feed.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/service.ts';

/** A connection of its own (not the store's): one holds a transaction open, one writes behind it without blocking. */
async function connection(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** A feed entry of `company`'s, as the feed tables' triggers write it. */
const entrySql = (company: string, key: string) =>
  `INSERT INTO sync_changes (tableName, rowKey, companyId, deleted) VALUES ('hosts', '${key}', '${company}', 1)`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a statement sent and not awaited is still waiting after a moment. */
async function stillWaiting(statement: Promise<unknown>): Promise<boolean> {
  return await Promise.race([statement.then(() => false), sleep(300).then(() => true)]);
}

async function finished(statement: Promise<unknown>): Promise<void> {
  const late = sleep(10_000).then(() => {
    throw new Error('the waiting write never went through');
  });
  await Promise.race([statement, late]);
}

describe('the change feed with concurrent writers', { skip: withoutPostgres }, () => {
  let url: string;
  let reader: Context;
  let held: pg.Client;
  let behind: pg.Client;

  before(async () => {
    url = await freshDatabase('feed_order');
    reader = await openService({ dataDir: tempDir(), database: url, logLevel: 'silent' });
    held = await connection(url);
    behind = await connection(url);
  });
  after(async () => {
    await held.end();
    await behind.end();
    await reader.db.close();
  });

  const read = async (company: string, cursor: string | undefined) => await readChanges(reader, company, cursor, 100);
  const keys = (page: Awaited<ReturnType<typeof read>>) => page.changes.map((change) => change.key);

  it("a company's later write waits for the open one, and the reader gets both, in order", async () => {
    const start = (await read('A', undefined)).cursor;
    await held.query('BEGIN');
    await held.query(entrySql('A', 'a-first'));
    const second = behind.query(entrySql('A', 'a-second'));
    assert.ok(await stillWaiting(second), "the second writer waits for the first's transaction");

    const during = await read('A', start);
    assert.deepEqual(keys(during), [], 'nothing committed yet');
    assert.equal(during.cursor, start, 'the cursor does not move past numbers not yet committed');

    await held.query('COMMIT');
    await finished(second);
    const afterwards = await read('A', during.cursor);
    assert.deepEqual(keys(afterwards), ['a-first', 'a-second']);
  });

  it("another company's larger number, committed and read first, does not hide the smaller one", async () => {
    const startA = (await read('A', undefined)).cursor;
    const startB = (await read('B', undefined)).cursor;
    await held.query('BEGIN');
    await held.query(entrySql('A', 'a-late'));
    await finished(behind.query(entrySql('B', 'b-early')));

    const seqOf = async (key: string) =>
      (await reader.db.prepare('SELECT seq FROM sync_changes WHERE rowKey = ?').pluck().get(key)) as number | undefined;
    const bPage = await read('B', startB);
    assert.deepEqual(keys(bPage), ['b-early'], "B's entry is read while A's transaction is open");
    const aDuring = await read('A', startA);
    assert.deepEqual(keys(aDuring), []);

    await held.query('COMMIT');
    assert.ok(
      ((await seqOf('a-late')) ?? 0) < ((await seqOf('b-early')) ?? 0),
      "A's number is the smaller, committed after B's",
    );
    assert.deepEqual(keys(await read('A', aDuring.cursor)), ['a-late'], "A's entry is not skipped");
    assert.deepEqual(keys(await read('B', bPage.cursor)), [], 'B has nothing more');
  });
});
