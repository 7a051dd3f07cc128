import { createRequire } from 'node:module';
import type Libpq from 'libpq';
import type { Db, RunResult, SqlStatement, Transaction } from './engine.ts';

/*
 * The store on PostgreSQL, behind the same synchronous interface as better-sqlite3 (store/db.ts), over libpq's
 * synchronous calls. The service's handlers run a request's reads and writes as one uninterrupted step, with no
 * await between a read and the write it decides; kept on PostgreSQL, that model needs no change to any store
 * module, and a hub grows by processes rather than by interleaving requests inside one (docs/deployment.md).
 *
 * Store SQL is written once, for both engines. What this module adapts, mechanically:
 * - placeholders: `?`, `:name` and `@name` become `$1`, `$2`…;
 * - identifiers: PostgreSQL folds unquoted names to lower case, so quoted ones ("end") are lowered too, and result
 *   columns are given back their camelCase names (the schema's and the statement's own spelling);
 * - values: 8-byte integers and numerics are numbers (times are milliseconds, well within 2^53), bytea is a Buffer;
 * - `rowid`: the listed tables have one, the order of creation as SQLite's rowid is (migration 0017); like SQLite's,
 *   it is not one of the row's columns, so a result leaves out a column of that name (`rowid AS x` reads it);
 * - transactions are SERIALIZABLE, as SQLite's are, and one that loses a conflict to another process runs again
 *   (its work is a synchronous function of what it reads, so running it again is safe).
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
/** Conflicts lost before a transaction runs alone (see `#outermost`); the advisory lock's key. */
const aloneAfter = 3;
const turnLock = 7364022;

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

type Value = string | null;

function sqlValue(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** Result type OIDs read as something other than text. */
const numberTypes = new Set([20, 21, 23, 26, 700, 701, 1700]);
const byteaType = 17;
/** SQLite's `SELECT *` never includes the rowid; PostgreSQL's includes the column that stands for it. */
const hiddenRowid = 'rowid';
const boolType = 16;

function parseValue(text: string, type: number): unknown {
  if (numberTypes.has(type)) return Number(text);
  if (type === byteaType) return Buffer.from(text.slice(2), 'hex');
  if (type === boolType) return text === 't';
  return text;
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

  #execute(parameters: unknown[]): Libpq {
    return this.#db.execute(this.#sql, this.#values(parameters));
  }

  all(...parameters: unknown[]): unknown[] {
    const pq = this.#execute(parameters);
    const rows = this.#db.rowsOf(pq, this.#sql.spelled, this.#plucked);
    pq.clear();
    return rows;
  }

  get(...parameters: unknown[]): unknown {
    return this.all(...parameters)[0];
  }

  *iterate(...parameters: unknown[]): IterableIterator<unknown> {
    yield* this.all(...parameters);
  }

  run(...parameters: unknown[]): RunResult {
    const pq = this.#execute(parameters);
    const changes = Number(pq.cmdTuples()) || 0;
    pq.clear();
    return { changes };
  }
}

/** libpq's calls that its published types (1.8) do not list yet. */
type Connection = Libpq & {
  /** 0 idle, 1 active, 2 in a transaction, 3 in a failed transaction, 4 the connection is bad. */
  transactionStatus(): number;
};

/**
 * libpq is loaded when a PostgreSQL database is opened, not before: a kiosk never needs it (nor its start-up time),
 * and it is an optional dependency, built only where PostgreSQL's client library is installed.
 */
function connection(): Connection {
  let Client: new () => Libpq;
  try {
    Client = createRequire(import.meta.url)('libpq') as new () => Libpq;
  } catch {
    throw new PostgresError(
      'PostgreSQL support is not installed: install libpq-dev (Debian) and run npm rebuild libpq',
      '08001',
    );
  }
  return new Client() as Connection;
}

const closing = new Set<Libpq>();

/**
 * Closes a connection. libpq's module closes its socket watcher asynchronously, and a connection collected as
 * garbage before the event loop finishes that close aborts the process: each one is kept until the loop has turned.
 */
export function finishConnection(pq: Libpq): void {
  pq.finish();
  closing.add(pq);
  setTimeout(() => closing.delete(pq), 0).unref();
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

export class PostgresDb implements Db {
  readonly engine = 'postgres';
  readonly statements = new Map<string, SqlStatement>();
  #pq = connection();
  readonly #url: string;
  /** The schema's camelCase column names by their lower-case form. */
  readonly #schemaNames: Map<string, string>;
  /** Server-side prepared statements of this connection, by SQL text. */
  #preparedNames = new Map<string, string>();
  #depth = 0;
  #failedSerialization = false;

  constructor(url: string, schemaSql: readonly string[]) {
    this.#url = url;
    this.#schemaNames = new Map();
    for (const sql of schemaSql) spellings(sql, this.#schemaNames);
    this.#connect();
  }

  #connect(): void {
    try {
      this.#pq.connectSync(this.#url);
    } catch (error) {
      throw new PostgresError(`cannot connect to PostgreSQL: ${(error as Error).message.trim()}`, '08001');
    }
    this.#preparedNames = new Map();
    this.#checked(() => this.#pq.exec("SET client_min_messages = 'warning'")).clear();
  }

  /** Runs a libpq call and answers the connection holding its result, or throws the error it reported. */
  #checked(call: () => void): Libpq {
    call();
    const pq = this.#pq;
    const status = pq.resultStatus();
    if (status === 'PGRES_COMMAND_OK' || status === 'PGRES_TUPLES_OK' || status === 'PGRES_EMPTY_QUERY') return pq;
    const fields = pq.resultErrorFields() as { sqlState?: string; messagePrimary?: string };
    const code = fields.sqlState ?? (pq.errorMessage() ? '08006' : 'XX000');
    const message = (fields.messagePrimary ?? pq.errorMessage()).trim();
    pq.clear();
    if (serializationFailure.has(code) && this.#depth > 0) this.#failedSerialization = true;
    throw new PostgresError(message, code);
  }

  /** A broken connection is opened again before a statement outside a transaction (a failed-over server). */
  #ensureConnected(): void {
    if (this.#depth === 0 && this.#pq.transactionStatus() === 4) {
      finishConnection(this.#pq);
      this.#pq = connection();
      this.#connect();
    }
  }

  execute(sql: Translated, values: Value[]): Libpq {
    this.#ensureConnected();
    const name = this.#preparedNames.get(sql.text) ?? this.#prepare(sql, values);
    return this.#checked(() => this.#pq.execPrepared(name, values as string[]));
  }

  #prepare(sql: Translated, values: Value[]): string {
    const name = `s${this.#preparedNames.size + 1}`;
    this.#checked(() => this.#pq.prepare(name, sql.text, values.length)).clear();
    this.#preparedNames.set(sql.text, name);
    return name;
  }

  rowsOf(pq: Libpq, spelled: Map<string, string>, plucked: boolean): unknown[] {
    const fieldCount = pq.nfields();
    const keys: string[] = [];
    const types: number[] = [];
    for (let f = 0; f < fieldCount; f++) {
      const name = pq.fname(f);
      keys.push(name === hiddenRowid ? '' : (spelled.get(name) ?? this.#schemaNames.get(name) ?? name));
      types.push(pq.ftype(f));
    }
    const rows: unknown[] = [];
    const count = pq.ntuples();
    for (let r = 0; r < count; r++) {
      if (plucked) {
        rows.push(pq.getisnull(r, 0) ? null : parseValue(pq.getvalue(r, 0), types[0] as number));
        continue;
      }
      const row: Record<string, unknown> = {};
      for (let f = 0; f < fieldCount; f++) {
        if (keys[f] === '') continue;
        row[keys[f] as string] = pq.getisnull(r, f) ? null : parseValue(pq.getvalue(r, f), types[f] as number);
      }
      rows.push(row);
    }
    return rows;
  }

  prepare(sql: string): SqlStatement {
    return new PostgresStatement(this, translateSql(sql));
  }

  exec(sql: string): void {
    this.#ensureConnected();
    this.#checked(() => this.#pq.exec(sql)).clear();
  }

  transaction<A extends unknown[], R>(work: (...args: A) => R): Transaction<A, R> {
    const run = (...args: A): R => (this.#depth > 0 ? this.#nested(work, args) : this.#outermost(work, args));
    return Object.assign(run, { immediate: run, deferred: run, exclusive: run });
  }

  #nested<A extends unknown[], R>(work: (...args: A) => R, args: A): R {
    const savepoint = `s${this.#depth}`;
    this.exec(`SAVEPOINT ${savepoint}`);
    this.#depth += 1;
    try {
      const result = work(...args);
      this.#depth -= 1;
      this.exec(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      this.#depth -= 1;
      if (!this.#failedSerialization) this.exec(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      throw error;
    }
  }

  /**
   * The outermost transaction. Transactions run side by side, each holding the shared side of one advisory lock;
   * one that has lost conflicts again and again (a hot row: many writers of one company's rows) runs again alone,
   * holding the lock exclusively: PostgreSQL queues new shared requests behind it, so it cannot starve.
   */
  #outermost<A extends unknown[], R>(work: (...args: A) => R, args: A): R {
    for (let attempt = 1; ; attempt++) {
      const alone = attempt > aloneAfter;
      this.exec(alone ? `SELECT pg_advisory_lock(${turnLock})` : `SELECT pg_advisory_lock_shared(${turnLock})`);
      try {
        return this.#attempt(work, args);
      } catch (error) {
        const conflict =
          this.#failedSerialization || (error instanceof PostgresError && serializationFailure.has(error.code));
        if (!conflict || attempt === maxAttempts) throw error;
      } finally {
        if (this.#pq.transactionStatus() !== 4) {
          this.exec(alone ? `SELECT pg_advisory_unlock(${turnLock})` : `SELECT pg_advisory_unlock_shared(${turnLock})`);
        }
      }
      // Another process won the conflict: wait a moment (growing, jittered) and run the work again.
      Atomics.wait(sleeper, 0, 0, Math.min(50, attempt * 2) * Math.random());
    }
  }

  #attempt<A extends unknown[], R>(work: (...args: A) => R, args: A): R {
    this.exec('BEGIN ISOLATION LEVEL SERIALIZABLE');
    if (this.#deferReferences) this.exec('SET CONSTRAINTS ALL DEFERRED');
    this.#depth = 1;
    this.#failedSerialization = false;
    try {
      const result = work(...args);
      // A statement that failed inside the work, its error caught there (not in a nested transaction, which rolls
      // back to its savepoint), leaves the transaction aborted, and COMMIT then rolls back without an error.
      const ended = this.#checked(() => this.#pq.exec('COMMIT'));
      const status = ended.cmdStatus();
      ended.clear();
      if (status !== 'COMMIT') {
        // Lost to a conflict: run again. Otherwise a caught error left the work half done: never silently.
        if (this.#failedSerialization) throw new PostgresError('the transaction lost a conflict', '40001');
        throw new PostgresError('a statement failed inside the transaction, its error caught: rolled back', '25P02');
      }
      return result;
    } catch (error) {
      if (this.#pq.transactionStatus() !== 4) this.exec('ROLLBACK');
      throw error;
    } finally {
      this.#depth = 0;
    }
  }

  #open = true;
  get open(): boolean {
    return this.#open;
  }

  #deferReferences = false;
  withoutReferenceChecks<T>(work: () => T): T {
    this.#deferReferences = true;
    try {
      return work();
    } finally {
      this.#deferReferences = false;
    }
  }

  close(): void {
    this.#open = false;
    finishConnection(this.#pq);
  }
}
