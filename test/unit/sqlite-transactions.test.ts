/**
 * The SQLite store's transactions with an asynchronous interface (store/sqlite.ts): one connection serves every
 * request, so a transaction's uncommitted writes must stay invisible to the requests that run while its work awaits.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { sqliteDb } from '../../local-api/store/db.ts';

async function counter() {
  const db = sqliteDb(new Database(':memory:'));
  await db.exec('CREATE TABLE n (id TEXT PRIMARY KEY, value INTEGER NOT NULL)');
  await db.prepare("INSERT INTO n VALUES ('a', 0)").run();
  const read = async () => (await db.prepare("SELECT value FROM n WHERE id = 'a'").pluck().get()) as number;
  const write = (value: number) => db.prepare("UPDATE n SET value = ? WHERE id = 'a'").run(value);
  return { db, read, write };
}

test('a read outside a transaction waits for it, and never sees its uncommitted write', async () => {
  const { db, read, write } = await counter();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const transaction = db.transaction(async () => {
    await write(1);
    await held;
    await write(2);
  });
  await turn();
  let seen: number | undefined;
  const outside = read().then((value) => {
    seen = value;
  });
  await turn();
  assert.equal(seen, undefined, 'the read waits while the transaction is open');
  release();
  await Promise.all([transaction, outside]);
  assert.equal(seen, 2, 'it reads what the transaction committed');
});

test('two transactions that read and then write run one after the other: no update is lost', async () => {
  const { db, read, write } = await counter();
  const increment = () =>
    db.transaction(async () => {
      const value = await read();
      await turn();
      await write(value + 1);
    });
  await Promise.all(Array.from({ length: 20 }, increment));
  assert.equal(await read(), 20);
});

test('a failed nested transaction rolls back its own writes only; a failed one rolls back everything', async () => {
  const { db, read, write } = await counter();
  await db.transaction(async () => {
    await write(1);
    await assert.rejects(
      db.transaction(async () => {
        await write(5);
        throw new Error('refused');
      }),
      /refused/,
    );
    assert.equal(await read(), 1, 'the savepoint rolled back');
  });
  assert.equal(await read(), 1);
  await assert.rejects(
    db.transaction(async () => {
      await write(7);
      throw new Error('refused');
    }),
  );
  assert.equal(await read(), 1, 'nothing of the failed transaction stays');
  assert.equal(db.sqlite?.inTransaction, false);
});

test('what waits for a commit runs once it committed, outside it, before the transaction resolves; never after a rollback', async () => {
  const { db, read, write } = await counter();
  const seen: number[] = [];
  await db.transaction(async () => {
    await write(3);
    await db.transaction(async () => {
      await db.afterCommit(async () => {
        seen.push(await read());
      });
    });
    await assert.rejects(
      db.transaction(async () => {
        await db.afterCommit(() => seen.push(-2));
        throw new Error('refused');
      }),
    );
    await turn();
    assert.deepEqual(seen, [], 'not before the commit');
  });
  assert.deepEqual(seen, [3], 'once committed, and before the transaction resolved; not the rolled-back savepoint’s');
  await assert.rejects(
    db.transaction(async () => {
      await write(4);
      await db.afterCommit(() => seen.push(-1));
      throw new Error('refused');
    }),
  );
  await turn();
  assert.deepEqual(seen, [3]);
});

test('withoutReferenceChecks exempts its first transaction only, not what runs after it in the same chain', async () => {
  const db = sqliteDb(new Database(':memory:'));
  await db.exec('PRAGMA foreign_keys = ON');
  await db.exec(
    'CREATE TABLE parent (id TEXT PRIMARY KEY); CREATE TABLE child (id TEXT, parentId TEXT REFERENCES parent (id))',
  );
  const insertChild = (id: string, parentId: string) =>
    db.transaction(async () => {
      await db.prepare('INSERT INTO child VALUES (?, ?)').run(id, parentId);
    });
  await assert.rejects(
    db.withoutReferenceChecks(async () => {
      await insertChild('c1', 'later');
      // A worker the exempt transaction woke runs in its chain: it is checked.
      await insertChild('c2', 'never');
    }),
    /FOREIGN KEY/,
  );
  assert.deepEqual(await db.prepare('SELECT id FROM child').pluck().all(), ['c1']);
  await assert.rejects(insertChild('c3', 'never'), /FOREIGN KEY/);
});
