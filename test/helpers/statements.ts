import type { Context } from '../../local-api/context.ts';
import type { Db, SqlStatement } from '../../local-api/store/db.ts';

/**
 * Counts the statements a service sends its database, as a server's statement log would: every statement run
 * (`get`, `all`, `run`, `iterate`, `exec`), and each transaction's own: BEGIN and COMMIT for the outermost one,
 * SAVEPOINT and RELEASE for a nested one. Triggers' statements run inside the server and are not counted.
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
    iterate: (...parameters) => {
      seen(sql);
      return statement.iterate(...parameters);
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
  let depth = 0;
  const counting: Db = {
    engine: db.engine,
    ...(db.sqlite ? { sqlite: db.sqlite } : {}),
    get open() {
      return db.open;
    },
    prepare: (sql) => countingStatement(db.prepare(sql), sql, seen),
    statements: new Map(),
    exec(sql) {
      seen(sql);
      db.exec(sql);
    },
    transaction(work) {
      const run = db.transaction((...args: Parameters<typeof work>) => {
        const nested = depth > 0;
        seen(nested ? 'SAVEPOINT' : 'BEGIN');
        depth++;
        try {
          return work(...args);
        } finally {
          depth--;
          seen(nested ? 'RELEASE' : 'COMMIT');
        }
      });
      return run;
    },
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
