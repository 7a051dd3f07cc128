import type Database from 'better-sqlite3';

/** What the store's two engines have in common (opened by store/db.ts; PostgreSQL's adapter: store/postgres.ts). */

export type Engine = 'sqlite' | 'postgres';

export interface RunResult {
  changes: number;
}

/** A statement, as both engines run it: asynchronously, in the caller's transaction when it is inside one. */
export interface SqlStatement {
  get(...parameters: unknown[]): Promise<unknown>;
  all(...parameters: unknown[]): Promise<unknown[]>;
  run(...parameters: unknown[]): Promise<RunResult>;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
}

/**
 * The store: a SQLite file on a kiosk, PostgreSQL on a hub that grows past one machine (docs/deployment.md). Both
 * answer the same asynchronous calls, and the store's SQL is written once for both (store/postgres.ts says what is
 * adapted). What only one engine has is reached through `sqlite` (pragmas, online backups).
 *
 * A transaction is the work of one asynchronous call chain: every statement the work runs, however deep, joins it
 * (the engines follow the chain with AsyncLocalStorage), and nothing outside the chain sees its uncommitted
 * writes. So the rule "no await between a read and the write it decides" becomes "a read and the write it
 * decides are in one transaction".
 */
export interface Db {
  readonly engine: Engine;
  prepare(sql: string): SqlStatement;
  /** The statements prepared once on this connection, by SQL text (`prepared`, store/rows.ts). */
  readonly statements: Map<string, SqlStatement>;
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` in one transaction: all of it commits, or none. Inside another, a savepoint. SQLite's take the
   * write lock at the start (BEGIN IMMEDIATE) and run one at a time; PostgreSQL's are serializable and one that
   * loses a conflict to another runs `work` again, so `work` must do nothing but read and write the store.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` (which opens its own transaction) after every other `serialized` work of the same key, in any
   * process: for transactions that would otherwise conflict and run again and again (a company's pushes from many
   * kiosks). On PostgreSQL a session's advisory lock, taken before the transaction begins so that its snapshot
   * follows the wait; on SQLite transactions already run one at a time.
   */
  serialized<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `callback` once the calling chain's outermost transaction has committed, outside it, before that
   * transaction's call resolves; never if it (or the savepoint that registered it) rolls back. Outside a
   * transaction, at once. For what must follow the commit: waking a worker, deleting the bytes of erased files.
   */
  afterCommit(callback: () => unknown): Promise<void>;
  close(): Promise<void>;
  readonly open: boolean;
  /**
   * Runs `work` (which opens its own transaction) with references not enforced: a page of a kiosk's full resync
   * may name rows that a later page brings. SQLite stops checking; PostgreSQL checks at commit.
   */
  withoutReferenceChecks<T>(work: () => Promise<T>): Promise<T>;
  /** SQLite's own handle; undefined on PostgreSQL. */
  readonly sqlite?: Database.Database;
}
