/**
 * The store's PostgreSQL adapter (local-api/store/postgres.ts): the same calls as better-sqlite3, on a real server.
 * Runs under `npm run test:postgres` (test/helpers/with-postgres.ts gives the server).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Db, loadMigrations, openPostgres } from '../../local-api/store/db.ts';
import { PostgresError, translateSql } from '../../local-api/store/postgres.ts';
import { createDatabase } from '../helpers/postgres.ts';

const server = process.env.PORTARIA_TEST_POSTGRES;
const skip = server ? false : 'needs PostgreSQL: run through npm run test:postgres (test/helpers/with-postgres.ts)';

describe('SQL written once, read by PostgreSQL', () => {
  it('numbers ? placeholders, and names :name and @name once each, in order', () => {
    assert.equal(translateSql('SELECT a FROM t WHERE b = ? AND c = ?').text, 'SELECT a FROM t WHERE b = $1 AND c = $2');
    const named = translateSql('UPDATE t SET x = :x WHERE id = :id AND y = :x AND z = @z');
    assert.equal(named.text, 'UPDATE t SET x = $1 WHERE id = $2 AND y = $1 AND z = $3');
    assert.deepEqual(named.names, ['x', 'id', 'z']);
  });

  it('leaves literals, comments and casts alone, and lowers quoted identifiers', () => {
    const translated = translateSql(`SELECT "end", 'it''s ? :no' AS t, x::text -- what? :no\nFROM m WHERE a = ?`);
    assert.equal(translated.text, `SELECT "end", 'it''s ? :no' AS t, x::text -- what? :no\nFROM m WHERE a = $1`);
    assert.equal(translateSql('SELECT "companyId" FROM t').text, 'SELECT "companyid" FROM t');
  });
});

describe('the PostgreSQL store', { skip }, () => {
  let db: Db;
  let other: Db;

  before(async () => {
    const url = await createDatabase(server as string, `portaria_store_${randomBytes(6).toString('hex')}`);
    db = await openPostgres(url);
    other = await openPostgres(url);
    await db.exec('CREATE TABLE trial (id TEXT PRIMARY KEY, createdAt BIGINT NOT NULL, picture BYTEA, count BIGINT)');
  });
  after(async () => {
    await db?.close();
    await other?.close();
  });

  it('migrates once, and a second process opening the same database finds it migrated', async () => {
    const versions = await db.prepare('SELECT version FROM __migrations__ ORDER BY version').pluck().all();
    assert.deepEqual(
      versions,
      loadMigrations('postgres').map((migration) => migration.version),
    );
  });

  it('gives rows back with their camelCase names, numbers as numbers and bytes as a Buffer', async () => {
    const picture = Buffer.from([0, 1, 2, 255]);
    await db
      .prepare('INSERT INTO trial (id, createdAt, picture, count) VALUES (:id, :createdAt, :picture, :count)')
      .run({
        id: 'a',
        createdAt: 1_790_000_000_123,
        picture,
        count: null,
      });
    const row = await db.prepare('SELECT * FROM trial WHERE id = ?').get('a');
    assert.deepEqual(row, { id: 'a', createdAt: 1_790_000_000_123, picture, count: null });
    const counted = await db.prepare('SELECT COUNT(*) AS rowsFound FROM trial').get();
    assert.deepEqual(counted, { rowsFound: 1 });
    assert.equal((await db.prepare("UPDATE trial SET count = 2 WHERE id = 'a'").run()).changes, 1);
  });

  it('commits all of a transaction or none of it, and nests as savepoints', async () => {
    await assert.rejects(
      async () =>
        await db.transaction(async () => {
          await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('b', 1)").run();
          await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('a', 1)").run();
        }),
      (error: unknown) => error instanceof PostgresError && error.code === '23505',
    );
    assert.equal(await db.prepare("SELECT 1 FROM trial WHERE id = 'b'").get(), undefined);
    await db.transaction(async () => {
      await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('c', 1)").run();
      await assert.rejects(
        async () =>
          await db.transaction(async () => {
            await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('d', 1)").run();
            throw new Error('inner work fails');
          }),
      );
    });
    const ids = await db.prepare("SELECT id FROM trial WHERE id IN ('c', 'd') ORDER BY id").pluck().all();
    assert.deepEqual(ids, ['c']);
  });

  it('runs a transaction again when another process wins a conflict on the same rows', async () => {
    await db.prepare("INSERT INTO trial (id, createdAt, count) VALUES ('n', 1, 0)").run();
    let runs = 0;
    await db.transaction(async () => {
      runs += 1;
      const count = (await db.prepare("SELECT count FROM trial WHERE id = 'n'").pluck().get()) as number;
      // The first time, another process commits an increment between this read and the write below.
      if (runs === 1) await other.prepare("UPDATE trial SET count = count + 1 WHERE id = 'n'").run();
      await db.prepare("UPDATE trial SET count = ? WHERE id = 'n'").run(count + 1);
    });
    assert.equal(runs, 2);
    assert.equal(await db.prepare("SELECT count FROM trial WHERE id = 'n'").pluck().get(), 2);
  });
  it('a transaction that loses every conflict gives up with the serialization failure, after its attempts', async () => {
    await db.prepare("INSERT INTO trial (id, createdAt, count) VALUES ('hot', 1, 0)").run();
    let runs = 0;
    await assert.rejects(
      async () =>
        await db.transaction(async () => {
          runs += 1;
          const count = (await db.prepare("SELECT count FROM trial WHERE id = 'hot'").pluck().get()) as number;
          // Another process writes the hot row under every attempt.
          await other.prepare("UPDATE trial SET count = count + 1 WHERE id = 'hot'").run();
          await db.prepare("UPDATE trial SET count = ? WHERE id = 'hot'").run(count + 1);
        }),
      (error: unknown) => error instanceof PostgresError && error.code === '40001',
    );
    assert.equal(runs, 30);
    assert.equal(await db.prepare("SELECT count FROM trial WHERE id = 'hot'").pluck().get(), 30, "only the other's");
  });

  it('serialized transactions of one key take turns: none loses a conflict and runs again', async () => {
    await db.prepare("INSERT INTO trial (id, createdAt, count) VALUES ('turns', 1, 0)").run();
    let runs = 0;
    const increment = (on: Db) =>
      on.serialized('trial turns', () =>
        on.transaction(async () => {
          runs += 1;
          const count = (await on.prepare("SELECT count FROM trial WHERE id = 'turns'").pluck().get()) as number;
          await new Promise((resolve) => setTimeout(resolve, 5));
          await on.prepare("UPDATE trial SET count = ? WHERE id = 'turns'").run(count + 1);
        }),
      );
    await Promise.all(Array.from({ length: 10 }, (_, i) => increment(i % 2 ? db : other)));
    assert.equal(runs, 10, 'no transaction ran again');
    assert.equal(await db.prepare("SELECT count FROM trial WHERE id = 'turns'").pluck().get(), 10);
  });

  it('never commits half of a transaction whose failed statement was caught inside it', async () => {
    await assert.rejects(
      async () =>
        await db.transaction(async () => {
          await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('half', 1)").run();
          try {
            await db.prepare("INSERT INTO trial (id, createdAt) VALUES ('a', 1)").run();
          } catch {
            // SQLite would go on with the transaction; PostgreSQL has aborted it.
          }
        }),
      (error: unknown) => error instanceof PostgresError && error.code === '25P02',
    );
    assert.equal(await db.prepare("SELECT 1 FROM trial WHERE id = 'half'").get(), undefined);
  });
});
