import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes, randomFillSync } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventBus } from './events.ts';
import type { Random } from './rules/ids.ts';
import type { SecretBox } from './secrets/box.ts';
import type { Db } from './store/db.ts';
import type { Pokes } from './sync/pokes.ts';

export interface Clock {
  now(): number;
}

/** What every handler and store function needs: injected so tests can fix the clock and randomness. */
export interface Context {
  db: Db;
  clock: Clock;
  random: Random;
  secrets: SecretBox;
  log: Logger;
  dataDir: string;
  events: EventBus;
  /** What the service keeps in memory while it runs (`createRuntime`). */
  runtime: Runtime;
  /** The kiosks subscribed to this service's change feed, told when it moves (sync/pokes.ts). */
  pokes: Pokes;
}

/**
 * A running service's state in memory, one per context: never module-level registries keyed by the database.
 * Each part of the service keeps its own under its name; `transactions` is this module's.
 */
export interface Runtime {
  transactions: TransactionState;
  /** Parts of the service register what they keep here (the sync agent, its clock, the outbox's waker…). */
  parts: Map<string, unknown>;
}

interface TransactionState {
  /** The outermost transaction the calling chain runs in, as `inTransaction` opened it. */
  scope: AsyncLocalStorage<TransactionScope>;
}

type Hook = () => void | Promise<void>;

interface TransactionScope {
  /**
   * While true, a nested `inTransaction` runs its work in this transaction instead of a savepoint: a sync push
   * applies a batch so, and runs it again with savepoints when one of its mutations fails.
   */
  joinNested: boolean;
  /** Run at the end of the transaction's work, inside it, once per key. */
  beforeCommit: Map<string, Hook>;
  /** Values read once per scope (`memoised`), while `withMemo` runs; undefined otherwise. */
  memo: Map<string, unknown> | undefined;
}

export function createRuntime(): Runtime {
  return { transactions: { scope: new AsyncLocalStorage() }, parts: new Map() };
}

/** This service's own state of a part, made on first use. */
export function runtimePart<T>(ctx: Pick<Context, 'runtime'>, name: string, make: () => T): T {
  let part = ctx.runtime.parts.get(name) as T | undefined;
  if (part === undefined) {
    part = make();
    ctx.runtime.parts.set(name, part);
  }
  return part;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Random bytes from the system's CSPRNG, drawn 4 KiB at a time (as `crypto.randomUUID` does): ids and card numbers
 * take a few bytes per request, and each separate draw is a call into OpenSSL.
 */
function pooledRandom(poolSize = 4096): Random {
  const pool = Buffer.alloc(poolSize);
  let used = poolSize;
  return {
    bytes(n) {
      if (n > poolSize) return randomBytes(n);
      if (used + n > poolSize) {
        randomFillSync(pool);
        used = 0;
      }
      used += n;
      return Buffer.from(pool.subarray(used - n, used));
    },
  };
}

export const systemRandom: Random = pooledRandom();

/**
 * Runs `work` in one write transaction: a request that writes commits all of it or none. Nested, a savepoint (or,
 * inside `joiningNested`, the enclosing transaction itself).
 */
export async function inTransaction<T>(ctx: Pick<Context, 'db' | 'runtime'>, work: () => Promise<T>): Promise<T> {
  const scopes = ctx.runtime.transactions.scope;
  const enclosing = scopes.getStore();
  if (enclosing?.joinNested) return await work();
  if (enclosing) return await ctx.db.transaction(work);
  return await ctx.db.transaction(() => {
    // Each attempt afresh: PostgreSQL runs the work again after a lost conflict.
    const own: TransactionScope = { joinNested: false, beforeCommit: new Map(), memo: undefined };
    return scopes.run(own, async () => {
      const done = await work();
      for (const hook of own.beforeCommit.values()) await hook();
      return done;
    });
  });
}

/**
 * Runs `work` in one transaction in which store functions' own transactions join it rather than nest (no
 * savepoints): for work that is all or nothing, whose caller runs it again otherwise if one part may fail alone.
 */
export async function joiningNested<T>(ctx: Pick<Context, 'db' | 'runtime'>, work: () => Promise<T>): Promise<T> {
  return await inTransaction(ctx, async () => {
    const scope = ctx.runtime.transactions.scope.getStore();
    if (!scope) return await work();
    const before = scope.joinNested;
    scope.joinNested = true;
    try {
      return await work();
    } finally {
      scope.joinNested = before;
    }
  });
}

/**
 * Inside a transaction: `hook` runs at the end of its work, inside it, once for the key (the first hook given it
 * stays). Answers whether it was added now; undefined outside a transaction. What must follow the commit goes to
 * `ctx.db.afterCommit`.
 */
export function onceBeforeCommit(ctx: Pick<Context, 'runtime'>, key: string, hook: Hook): boolean | undefined {
  const scope = ctx.runtime.transactions.scope.getStore();
  if (!scope) return undefined;
  if (scope.beforeCommit.has(key)) return false;
  scope.beforeCommit.set(key, hook);
  return true;
}

/**
 * Runs `work` (inside a transaction) with reads of settings memoised (`memoised`): a sync push reads a company's
 * webhooks, notification channels and blocklist once for a batch of check-ins, not once per check-in. Only for work
 * that does not change what it memoises.
 */
export async function withMemo<T>(ctx: Pick<Context, 'runtime'>, work: () => Promise<T>): Promise<T> {
  const scope = ctx.runtime.transactions.scope.getStore();
  if (!scope) return await work();
  const before = scope.memo;
  scope.memo = new Map();
  try {
    return await work();
  } finally {
    scope.memo = before;
  }
}

/** `read()`, or inside `withMemo` what it gave the first time under this key. */
export async function memoised<T>(ctx: Pick<Context, 'runtime'>, key: string, read: () => Promise<T>): Promise<T> {
  const memo = ctx.runtime.transactions.scope.getStore()?.memo;
  if (!memo) return await read();
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = read();
    memo.set(key, value);
  }
  return await value;
}
