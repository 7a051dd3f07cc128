import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '../../local-api/context.ts';
import type { Db, SqlStatement } from '../../local-api/store/db.ts';

/**
 * Counts the statements a service sends its database, as a server's statement log would: every statement run
 * (`get`, `all`, `run`, `exec`), and each transaction's own: BEGIN and COMMIT for the outermost one, SAVEPOINT and
 * RELEASE for a nested one. Triggers' statements run inside the server and are not counted.
 */
export interface StatementCounter {
  /** Statements since the last `reset`. */
  readonly count: number;
  /** Their SQL, in order (a transaction's as BEGIN/COMMIT, SAVEPOINT/RELEASE). */
  readonly log: readonly string[];
  reset(): void;
}

function countingStatement(statement: SqlStatement, sql: string, seen: (sql: string) => void): SqlStatement {
  const counted: SqlStatement = {
    get: (...parameters) => {
      seen(sql);
      return statement.get(...parameters);
    },
    all: (...parameters) => {
      seen(sql);
      return statement.all(...parameters);
    },
    run: (...parameters) => {
      seen(sql);
      return statement.run(...parameters);
    },
    pluck(toggle) {
      statement.pluck(toggle);
      return counted;
    },
  };
  return counted;
}

/**
 * Puts a counter between the context and its database, from now on: every part of the service reads `ctx.db` when
 * it runs a statement, listeners included, so each is counted. Answers the counter.
 */
export function countStatements(ctx: Context): StatementCounter {
  const db = ctx.db;
  const log: string[] = [];
  const seen = (sql: string) => void log.push(sql.replace(/\s+/g, ' ').trim());
  // Whether the calling chain is inside a transaction of this database, as the engines follow it.
  const inside = new AsyncLocalStorage<true>();
  const counting: Db = {
    engine: db.engine,
    ...(db.sqlite ? { sqlite: db.sqlite } : {}),
    get open() {
      return db.open;
    },
    prepare: (sql) => countingStatement(db.prepare(sql), sql, seen),
    statements: new Map(),
    async exec(sql) {
      seen(sql);
      await db.exec(sql);
    },
    async transaction(work) {
      const nested = inside.getStore() === true;
      return await db.transaction(() =>
        inside.run(true, async () => {
          seen(nested ? 'SAVEPOINT' : 'BEGIN');
          try {
            return await work();
          } finally {
            seen(nested ? 'RELEASE' : 'COMMIT');
          }
        }),
      );
    },
    async serialized(key, work) {
      // PostgreSQL's turn is an advisory lock and its release, sent by the engine itself: counted here.
      const turn = db.engine === 'postgres';
      if (turn) seen('SELECT pg_advisory_lock(hashtext(?))');
      try {
        return await db.serialized(key, work);
      } finally {
        if (turn) seen('SELECT pg_advisory_unlock(hashtext(?))');
      }
    },
    afterCommit: (callback) => db.afterCommit(callback),
    close: () => db.close(),
    withoutReferenceChecks: (work) => db.withoutReferenceChecks(work),
  };
  ctx.db = counting;
  return {
    get count() {
      return log.length;
    },
    log,
    reset: () => void log.splice(0),
  };
}
