import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { Db, RunResult, SqlStatement } from './engine.ts';
import { runInTurn } from './sqlite.ts';

/*
 * The store on PostgreSQL, behind the same asynchronous interface as SQLite's (store/sqlite.ts), over node-postgres
 * with a pool of connections: a hub process serves many requests while their statements travel to a database on
 * another machine. A transaction holds one connection of the pool for its whole call chain (AsyncLocalStorage);
 * a statement outside any transaction takes whichever connection is free.
 *
 * Store SQL is written once, for both engines. What this module adapts, mechanically:
 * - placeholders: `?`, `:name` and `@name` become `$1`, `$2`…;
 * - identifiers: PostgreSQL folds unquoted names to lower case, so quoted ones ("end") are lowered too, and result
 *   columns are given back their camelCase names (the schema's and the statement's own spelling);
 * - values: 8-byte integers and numerics are numbers (times are milliseconds, well within 2^53), bytea is a Buffer,
 *   other types their text, as SQLite gives them;
 * - `rowid`: the listed tables have one, the order of creation as SQLite's rowid is (migration 0017); like SQLite's,
 *   it is not one of the row's columns, so a result leaves out a column of that name (`rowid AS x` reads it);
 * - transactions are SERIALIZABLE, as SQLite's are, and one that loses a conflict to another runs its work again
 *   (the work only reads and writes the store, so running it again is safe).
 */

export class PostgresError extends Error {
  /** The SQLSTATE (`23505` a unique violation, `40001` a serialization failure…). */
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'PostgresError';
    this.code = code;
  }
}

const serializationFailure = new Set(['40001', '40P01']);
const maxAttempts = 30;

/** The SQL as PostgreSQL reads it, and the order in which named or positional parameters fill `$n`. */
interface Translated {
  text: string;
  /** Parameter names in `$n` order; empty when the statement uses `?`. */
  names: string[];
  positional: number;
  /** The camelCase identifiers the statement spells, by their lower-case form. */
  spelled: Map<string, string>;
}

const camelIdentifier = /\b[a-z_][a-z0-9_]*[A-Z][A-Za-z0-9_]*\b/g;

function spellings(sql: string, into = new Map<string, string>()): Map<string, string> {
  for (const [name] of sql.matchAll(camelIdentifier)) into.set(name.toLowerCase(), name);
  return into;
}

export function translateSql(sql: string): Translated {
  let text = '';
  const names: string[] = [];
  let positional = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i] as string;
    if (c === "'") {
      const end = sql.indexOf("'", i + 1);
      const stop = end === -1 ? sql.length - 1 : end;
      text += sql.slice(i, stop + 1);
      i = stop;
      // '' inside a literal: the loop meets the second quote as a new literal's start, which is the same text.
    } else if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      const stop = end === -1 ? sql.length - 1 : end;
      text += sql.slice(i, stop + 1).toLowerCase();
      i = stop;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length - 1 : end;
      text += sql.slice(i, stop + 1);
      i = stop;
    } else if (c === '?') {
      positional += 1;
      text += `$${positional}`;
    } else if (
      (c === ':' || c === '@') &&
      sql[i + 1] !== ':' &&
      sql[i - 1] !== ':' &&
      /[A-Za-z_]/.test(sql[i + 1] ?? '')
    ) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i + 1))?.[0] as string;
      let index = names.indexOf(name);
      if (index === -1) index = names.push(name) - 1;
      text += `$${index + 1}`;
      i += name.length;
    } else {
      text += c;
    }
  }
  return { text, names, positional, spelled: spellings(sql) };
}

type Value = string | Buffer | null;

function sqlValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** Result type OIDs read as something other than text. */
const numberTypes = new Set([20, 21, 23, 26, 700, 701, 1700]);
const byteaType = 17;
const boolType = 16;
const readText = (text: string): string => text;
const readBoolean = (text: string): boolean => text === 't';

/** Per query rather than pg's global parsers, which other code in the process may rely on. */
function storeTypes(driver: typeof pg): pg.CustomTypesConfig {
  const readBytea = driver.types.getTypeParser(byteaType);
  return {
    getTypeParser: ((oid: number) => {
      if (numberTypes.has(oid)) return Number;
      if (oid === byteaType) return readBytea;
      if (oid === boolType) return readBoolean;
      return readText;
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}
/** SQLite's `SELECT *` never includes the rowid; PostgreSQL's includes the column that stands for it. */
const hiddenRowid = 'rowid';

/** Server-side prepared statements are named by their text, the same on every connection of the process. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `p${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** node-postgres's errors as the store's: the SQLSTATE, and connection failures as class 08. */
function storeError(error: unknown): Error {
  if (error instanceof PostgresError) return error;
  // The server's errors (pg's DatabaseError) carry a severity and a SQLSTATE; a socket's error has neither.
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown };
  if (typeof severity === 'string' && typeof code === 'string' && error instanceof Error) {
    return new PostgresError(error.message, code);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PostgresError(`cannot connect to PostgreSQL: ${message.trim()}`, '08006');
}

class PostgresStatement implements SqlStatement {
  #plucked = false;
  readonly #db: PostgresDb;
  readonly #sql: Translated;

  constructor(db: PostgresDb, sql: Translated) {
    this.#db = db;
    this.#sql = sql;
  }

  pluck(toggle = true): this {
    this.#plucked = toggle;
    return this;
  }

  #values(parameters: unknown[]): Value[] {
    const [first] = parameters;
    if (this.#sql.names.length > 0) {
      const named = (first ?? {}) as Record<string, unknown>;
      return this.#sql.names.map((name) => {
        if (!(name in named)) throw new RangeError(`missing named parameter "${name}"`);
        return sqlValue(named[name]);
      });
    }
    const flat = parameters.flatMap((value) => (Array.isArray(value) ? value : [value]));
    return flat.map(sqlValue);
  }

  async all(...parameters: unknown[]): Promise<unknown[]> {
    const plucked = this.#plucked;
    const result = await this.#db.query(this.#sql, this.#values(parameters));
    return this.#db.rowsOf(result, this.#sql.spelled, plucked);
  }

  async get(...parameters: unknown[]): Promise<unknown> {
    return (await this.all(...parameters))[0];
  }

  async run(...parameters: unknown[]): Promise<RunResult> {
    const result = await this.#db.query(this.#sql, this.#values(parameters));
    return { changes: result.rowCount ?? 0 };
  }
}

/** A connection held by a call chain: a transaction's, or one taken for session-level work (`onOneConnection`). */
interface Session {
  client: pg.PoolClient;
  /** Open savepoints (nested transactions); -1 outside a transaction. */
  depth: number;
  /** False once the chain gave the connection back: a timer its work left behind is outside it. */
  active: boolean;
  /** A statement lost a serialization conflict: the transaction is aborted and runs again. */
  lostConflict: boolean;
  /** What runs once the transaction commits (`afterCommit`). */
  committed: (() => unknown)[];
}

/** How many connections a hub process opens at most (PORTARIA_PG_POOL); PostgreSQL's default limit is 100. */
const defaultPoolSize = 10;

export class PostgresDb implements Db {
  readonly engine = 'postgres';
  readonly statements = new Map<string, SqlStatement>();
  readonly #pool: pg.Pool;
  readonly #types: pg.CustomTypesConfig;
  /** The schema's camelCase column names by their lower-case form. */
  readonly #schemaNames: Map<string, string>;
  readonly #session = new AsyncLocalStorage<Session>();
  /**
   * Set by `withoutReferenceChecks` for the next outermost transaction of its chain, and taken by it: what that
   * transaction's work starts (a worker it wakes) inherits the chain, not the exemption.
   */
  readonly #uncheckedReferences = new AsyncLocalStorage<{ untaken: boolean }>();
  #open = true;

  /**
   * Opens a pool on `url` and checks that the database answers. The driver is loaded here, not before: a kiosk
   * never needs it, nor its start-up time.
   */
  static async connect(url: string, schemaSql: readonly string[]): Promise<PostgresDb> {
    const { default: driver } = await import('pg');
    const db = new PostgresDb(driver, url, schemaSql);
    try {
      await db.exec('SELECT 1');
    } catch (error) {
      await db.close();
      const failure = storeError(error) as PostgresError;
      throw failure.code.startsWith('08') ? new PostgresError(failure.message, '08001') : failure;
    }
    return db;
  }

  private constructor(driver: typeof pg, url: string, schemaSql: readonly string[]) {
    this.#types = storeTypes(driver);
    this.#schemaNames = new Map();
    for (const sql of schemaSql) spellings(sql, this.#schemaNames);
    const max = Number(process.env.PORTARIA_PG_POOL) || defaultPoolSize;
    this.#pool = new driver.Pool({ connectionString: url, max, options: '-c client_min_messages=warning' });
    // An idle connection the server closed (a restart, a fail-over) is dropped by the pool, which opens another
    // when one is needed; the error itself needs no one.
    this.#pool.on('error', () => {});
  }

  get open(): boolean {
    return this.#open;
  }

  async query(sql: Translated, values: Value[]): Promise<pg.QueryArrayResult> {
    const config: pg.QueryArrayConfig = {
      name: statementName(sql.text),
      text: sql.text,
      values,
      rowMode: 'array',
      types: this.#types,
    };
    const session = this.#session.getStore();
    try {
      return session?.active ? await session.client.query(config) : await this.#pool.query(config);
    } catch (error) {
      const failure = storeError(error) as PostgresError;
      if (session?.active && serializationFailure.has(failure.code)) session.lostConflict = true;
      throw failure;
    }
  }

  rowsOf(result: pg.QueryArrayResult, spelled: Map<string, string>, plucked: boolean): unknown[] {
    if (plucked) return result.rows.map((row) => row[0] ?? null);
    const keys = result.fields.map(({ name }) =>
      name === hiddenRowid ? '' : (spelled.get(name) ?? this.#schemaNames.get(name) ?? name),
    );
    return result.rows.map((values) => {
      const row: Record<string, unknown> = {};
      for (let f = 0; f < keys.length; f++) {
        if (keys[f] !== '') row[keys[f] as string] = values[f] ?? null;
      }
      return row;
    });
  }

  prepare(sql: string): SqlStatement {
    return new PostgresStatement(this, translateSql(sql));
  }

  /** Runs SQL as it is written (several statements, no parameters): migrations and session settings. */
  async exec(sql: string): Promise<void> {
    const session = this.#session.getStore();
    try {
      if (session?.active) await session.client.query(sql);
      else await this.#pool.query(sql);
    } catch (error) {
      throw storeError(error);
    }
  }

  /** Runs `work` with one connection of the pool for all its statements (an advisory lock is a connection's). */
  async onOneConnection<T>(work: () => Promise<T>): Promise<T> {
    const client = await this.#connection();
    const session: Session = { client, depth: -1, active: true, lostConflict: false, committed: [] };
    try {
      return await this.#session.run(session, work);
    } finally {
      session.active = false;
      client.release();
    }
  }

  async #connection(): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw storeError(error);
    }
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.#session.getStore();
    if (outer?.active && outer.depth >= 0) return await this.#savepoint(outer, work);
    const exemption = this.#uncheckedReferences.getStore();
    const unchecked = exemption?.untaken === true;
    if (exemption) exemption.untaken = false;
    for (let attempt = 1; ; attempt++) {
      // Another transaction won the last conflict: wait a moment (growing, jittered) and run the work again.
      if (attempt > 1) await sleep(Math.min(50, attempt * 2) * Math.random());
      const client = outer?.active ? outer.client : await this.#connection();
      const session: Session = { client, depth: 0, active: true, lostConflict: false, committed: [] };
      let broken: Error | undefined;
      let result: T;
      try {
        result = await this.#session.run(session, () => this.#attempt(session, unchecked, work));
      } catch (error) {
        broken = await this.#rollback(client);
        const conflict =
          session.lostConflict || (error instanceof PostgresError && serializationFailure.has(error.code));
        if (!conflict || attempt === maxAttempts) throw error;
        continue;
      } finally {
        session.active = false;
        if (!outer?.active) client.release(broken);
      }
      await this.#session.exit(() => runInTurn(session.committed));
      return result;
    }
  }

  async #attempt<T>(session: Session, unchecked: boolean, work: () => Promise<T>): Promise<T> {
    await this.exec('BEGIN ISOLATION LEVEL SERIALIZABLE');
    if (unchecked) await this.exec('SET CONSTRAINTS ALL DEFERRED');
    const result = await work();
    // A statement that failed inside the work, its error caught there (not in a nested transaction, which rolls
    // back to its savepoint), leaves the transaction aborted, and COMMIT then rolls back without an error.
    const ended = await session.client.query('COMMIT').catch((error: unknown) => {
      throw storeError(error);
    });
    if (ended.command !== 'COMMIT') {
      if (session.lostConflict) throw new PostgresError('the transaction lost a conflict', '40001');
      throw new PostgresError('a statement failed inside the transaction, its error caught: rolled back', '25P02');
    }
    return result;
  }

  /** Ends a failed transaction; answers the error when the connection itself is broken (the pool drops it). */
  async #rollback(client: pg.PoolClient): Promise<Error | undefined> {
    try {
      await client.query('ROLLBACK');
      return undefined;
    } catch (error) {
      return storeError(error);
    }
  }

  async serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
    // Inside a transaction its snapshot is taken already: waiting would not spare the conflict.
    if (this.#session.getStore()?.active) return await work();
    return await this.onOneConnection(async () => {
      await this.prepare('SELECT pg_advisory_lock(hashtext(?))').run(key);
      try {
        return await work();
      } finally {
        await this.prepare('SELECT pg_advisory_unlock(hashtext(?))').run(key);
      }
    });
  }

  async afterCommit(callback: () => unknown): Promise<void> {
    const session = this.#session.getStore();
    if (session?.active && session.depth >= 0) session.committed.push(callback);
    else await callback();
  }

  async #savepoint<T>(session: Session, work: () => Promise<T>): Promise<T> {
    session.depth += 1;
    const savepoint = `s${session.depth}`;
    const registered = session.committed.length;
    await this.exec(`SAVEPOINT ${savepoint}`);
    try {
      const result = await work();
      await this.exec(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      if (!session.lostConflict) await this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      session.committed.length = registered;
      throw error;
    } finally {
      session.depth -= 1;
    }
  }

  withoutReferenceChecks<T>(work: () => Promise<T>): Promise<T> {
    return this.#uncheckedReferences.run({ untaken: true }, work);
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    await this.#pool.end();
  }
}
