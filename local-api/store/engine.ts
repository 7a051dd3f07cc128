import type Database from 'better-sqlite3';

/** What the store's two engines have in common (opened by store/db.ts; PostgreSQL's adapter: store/postgres.ts). */

export type Engine = 'sqlite' | 'postgres';

export interface RunResult {
  changes: number;
}

/** A prepared statement, as both engines give it (better-sqlite3's own on SQLite). */
export interface SqlStatement {
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): RunResult;
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  /** Rows as their first column's value. */
  pluck(toggle?: boolean): this;
}

/** A function that runs its work in one transaction: all of it commits, or none. Nested, a savepoint. */
export type Transaction<A extends unknown[], R> = ((...args: A) => R) & {
  /** Takes the write lock at the start (SQLite's BEGIN IMMEDIATE; PostgreSQL's transactions are all serializable). */
  immediate(...args: A): R;
};

/**
 * The store: a SQLite file on a kiosk, PostgreSQL on a hub that grows past one machine (docs/deployment.md). Both
 * answer the same synchronous calls, and the store's SQL is written once for both (store/postgres.ts says what is
 * adapted). What only one engine has is reached through `sqlite` (pragmas, online backups).
 */
export interface Db {
  readonly engine: Engine;
  prepare(sql: string): SqlStatement;
  /** The statements prepared once on this connection, by SQL text (`prepared`, store/rows.ts). */
  readonly statements: Map<string, SqlStatement>;
  exec(sql: string): void;
  transaction<A extends unknown[], R>(work: (...args: A) => R): Transaction<A, R>;
  close(): void;
  readonly open: boolean;
  /**
   * Runs `work` (which opens its own transaction) with references not enforced: a page of a kiosk's full resync
   * may name rows that a later page brings. SQLite stops checking; PostgreSQL checks at commit.
   */
  withoutReferenceChecks<T>(work: () => T): T;
  /** SQLite's own handle; undefined on PostgreSQL. */
  readonly sqlite?: Database.Database;
}
