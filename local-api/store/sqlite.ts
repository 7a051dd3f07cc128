import { AsyncLocalStorage } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import type { Db, RunResult, SqlStatement } from './engine.ts';

/** A transaction, as the call chain that opened it sees it. */
interface Scope {
  /** Open savepoints (nested transactions). */
  depth: number;
  /** False once the transaction ended: a timer the work left behind is outside it. */
  active: boolean;
  /** What runs once it commits (`afterCommit`). */
  committed: (() => unknown)[];
}

/**
 * The store on SQLite: better-sqlite3 runs each statement synchronously, on the one connection of the process, and
 * this adapter gives it the store's asynchronous interface. A transaction's work awaits, so other requests run
 * meanwhile: they would see its uncommitted writes (one connection), so every statement outside the transaction
 * waits until it has ended, and transactions run one at a time. A kiosk's transactions are short; a hub that needs
 * more goes to PostgreSQL (docs/deployment.md).
 */
export class SqliteDb implements Db {
  readonly engine = 'sqlite';
  readonly statements = new Map<string, SqlStatement>();
  readonly sqlite: Database.Database;
  readonly #scope = new AsyncLocalStorage<Scope>();
  /**
   * Set by `withoutReferenceChecks` for the next outermost transaction of its chain, and taken by it: what that
   * transaction's work starts (a worker it wakes) inherits the chain, not the exemption.
   */
  readonly #uncheckedReferences = new AsyncLocalStorage<{ untaken: boolean }>();
  /** The transaction running now, settled when it ends. */
  #running: Promise<void> | undefined;

  constructor(database: Database.Database) {
    this.sqlite = database;
  }

  get open(): boolean {
    return this.sqlite.open;
  }

  /** Whether the calling chain is inside its own open transaction. */
  get #inOwnTransaction(): boolean {
    return this.#scope.getStore()?.active === true;
  }

  /**
   * Runs a statement once this chain may: at once inside its own transaction or when none is open, else when the
   * open one has ended. The last check and the call are one synchronous step, so no transaction starts between them.
   */
  whenFree<T>(call: () => T): Promise<T> {
    // The usual case, no transaction open elsewhere: at once, without an async function's frame and turns.
    if (!this.#running || this.#inOwnTransaction) {
      try {
        return Promise.resolve(call());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.#afterTransaction(call);
  }

  async #afterTransaction<T>(call: () => T): Promise<T> {
    while (this.#running && !this.#inOwnTransaction) await this.#running;
    return call();
  }

  prepare(sql: string): SqlStatement {
    return new SqliteStatement(this, this.sqlite.prepare(sql));
  }

  async exec(sql: string): Promise<void> {
    await this.whenFree(() => this.sqlite.exec(sql));
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const scope = this.#scope.getStore();
    if (scope?.active) return await this.#savepoint(scope, work);
    while (this.#running) await this.#running;
    let ended = () => {};
    this.#running = new Promise((resolve) => {
      ended = resolve;
    });
    const exemption = this.#uncheckedReferences.getStore();
    const unchecked = exemption?.untaken === true;
    if (exemption) exemption.untaken = false;
    const own: Scope = { depth: 0, active: true, committed: [] };
    let result: T;
    try {
      // Outside a transaction only: SQLite ignores the pragma inside one.
      if (unchecked) this.sqlite.pragma('foreign_keys = OFF');
      this.sqlite.exec('BEGIN IMMEDIATE');
      result = await this.#scope.run(own, work);
      this.sqlite.exec('COMMIT');
    } catch (error) {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
      throw error;
    } finally {
      own.active = false;
      if (unchecked) this.sqlite.pragma('foreign_keys = ON');
      this.#running = undefined;
      ended();
    }
    await this.#scope.exit(() => runInTurn(own.committed));
    return result;
  }

  serialized<T>(_key: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  async afterCommit(callback: () => unknown): Promise<void> {
    const scope = this.#scope.getStore();
    if (scope?.active) scope.committed.push(callback);
    else await callback();
  }

  async #savepoint<T>(scope: Scope, work: () => Promise<T>): Promise<T> {
    scope.depth += 1;
    const savepoint = `s${scope.depth}`;
    const registered = scope.committed.length;
    this.sqlite.exec(`SAVEPOINT ${savepoint}`);
    try {
      const result = await work();
      this.sqlite.exec(`RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      // A disk-full or an interrupted write may have rolled back the whole transaction already.
      if (this.sqlite.inTransaction) this.sqlite.exec(`ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      scope.committed.length = registered;
      throw error;
    } finally {
      scope.depth -= 1;
    }
  }

  withoutReferenceChecks<T>(work: () => Promise<T>): Promise<T> {
    return this.#uncheckedReferences.run({ untaken: true }, work);
  }

  async close(): Promise<void> {
    while (this.#running) await this.#running;
    this.sqlite.close();
  }
}

/** Runs what waited for a commit, one after the other. */
export async function runInTurn(callbacks: readonly (() => unknown)[]): Promise<void> {
  for (const callback of callbacks) await callback();
}

class SqliteStatement implements SqlStatement {
  readonly #db: SqliteDb;
  readonly #statement: Database.Statement;

  constructor(db: SqliteDb, statement: Database.Statement) {
    this.#db = db;
    this.#statement = statement;
  }

  pluck(toggle = true): this {
    this.#statement.pluck(toggle);
    return this;
  }

  async get(...parameters: unknown[]): Promise<unknown> {
    return await this.#db.whenFree(() => this.#statement.get(...parameters));
  }

  async all(...parameters: unknown[]): Promise<unknown[]> {
    return await this.#db.whenFree(() => this.#statement.all(...parameters));
  }

  async run(...parameters: unknown[]): Promise<RunResult> {
    return await this.#db.whenFree(() => ({ changes: this.#statement.run(...parameters).changes }));
  }
}
