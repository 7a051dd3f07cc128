import type pg from 'pg';
import type { Logger } from 'pino';
import { ApiError } from '../http/errors.ts';
import { retryDelay } from '../queue/retry.ts';
import type { Random } from '../rules/ids.ts';
import type { Db } from '../store/db.ts';

/*
 * Pokes, as Replicache has them: a hub tells the kiosks subscribed to a company that its change feed moved, and
 * each pulls at once, so a check-in made at one kiosk reaches its siblings in a round trip instead of a poll
 * interval. A poke carries no data (the pull does, with its usual scope and checks). What notices the feed's
 * writes depends on the engine:
 * - PostgreSQL: the feed's trigger NOTIFYs the company's id on commit (migrations/postgres/0023_sync_pokes.sql), and
 *   every hub process LISTENs on a connection of its own, so a write made by any process (or by the command line)
 *   pokes the kiosks subscribed to every process.
 * - SQLite: one process owns the file; a temporary trigger (its connection's alone) reports the feed's writes, and
 *   they are told once the connection is outside a transaction (committed, or rolled back: a needless pull).
 */

/** The channel of the feed's notifications (migrations/postgres/0023_sync_pokes.sql). */
export const pokeChannel = 'portaria_sync_changes';

export interface PokeLimits {
  /** Pokes of one company are told at most once per this: a burst of writes is one pull per kiosk. */
  coalesceMs: number;
  /**
   * Streams of one kiosk (a credential and the client id it gives); a new one past it ends the oldest (a kiosk's
   * stream the network lost unseen).
   */
  perKiosk: number;
  /** Streams of one company in this process; a new one past it is refused 429 TOO_MANY_STREAMS. */
  perCompany: number;
  /**
   * A comment this often on every stream keeps proxies and the kiosk from taking a quiet stream for a dead one; at
   * each, a stream whose credential was revoked or expired meanwhile is ended.
   */
  heartbeatMs: number;
}

export const pokeLimits: PokeLimits = { coalesceMs: 50, perKiosk: 2, perCompany: 200, heartbeatMs: 20_000 };

/** One open stream: told when its company's feed moved, ended when replaced or when the service stops. */
export interface PokeSubscriber {
  /** The credential and the client id of the kiosk that holds the stream. */
  kiosk: string;
  poke(): void;
  end(): void;
}

export interface Pokes {
  readonly limits: PokeLimits;
  /**
   * Registers a stream of the company (refused with TOO_MANY_STREAMS past `perCompany`); answers the function that
   * removes it. The first subscription starts watching the feed: a service no kiosk subscribes to (a kiosk, the
   * command line) watches nothing.
   */
  subscribe(companyId: string, subscriber: PokeSubscriber): () => void;
  /** Ends every stream and stops watching, for good: the service is stopping. */
  close(): Promise<void>;
}

/** Where the feed's writes are noticed: a PostgreSQL URL, or the SQLite database of this process. */
export type FeedWatch = { postgres: string } | { sqlite: Db };

/** The longest pause between attempts to LISTEN again while the database is away. */
const listenRetryCapMs = 30_000;
/** How often the LISTEN connection is asked a trivial query: a connection the network lost unseen is noticed. */
const listenPingMs = 30_000;
/** How long the SQLite watch waits for a transaction under way to end before it tells its writes. */
const transactionPollMs = 10;

interface Watch {
  stop(): Promise<void>;
}

/**
 * The LISTEN connection of this process: node-postgres, outside the store's pool (a session that waits for
 * notifications cannot be lent to requests). Dropped, it is opened again with backoff, and then every subscribed
 * company is poked: what was notified meanwhile is lost. The driver is loaded with the first stream, as the store
 * loads it: a kiosk never needs it.
 */
function listenPostgres(
  url: string,
  deps: { log: Logger; random: Random },
  changed: (companyId: string) => void,
  reconnected: () => void,
): Watch {
  let stopped = false;
  let attempt = 0;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;
  let lostLogged = false;

  const open = async () => {
    const { default: driver } = await import('pg');
    if (stopped) return;
    const client = new driver.Client({
      connectionString: url,
      keepAlive: true,
      query_timeout: 10_000,
      // Named in pg_stat_activity, where an operator tells it from the store's connection.
      application_name: 'portaria-pokes',
    });
    let gone = false;
    const drop = (error?: unknown) => {
      if (gone) return;
      gone = true;
      clearInterval(ping);
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      if (!lostLogged) {
        deps.log.warn({ err: error }, 'sync pokes: LISTEN connection lost; listening again with backoff');
        lostLogged = true;
      }
      retry = setTimeout(start, retryDelay(attempt++, deps.random, listenRetryCapMs));
      retry.unref();
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('connection ended')));
    client.on('notification', (message) => {
      if (message.channel === pokeChannel && message.payload) changed(message.payload);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${pokeChannel}`))
      .then(() => {
        if (gone) return;
        if (stopped) return drop();
        current = client;
        const again = attempt > 0;
        attempt = 0;
        if (lostLogged) deps.log.info('sync pokes: listening again');
        lostLogged = false;
        ping = setInterval(() => client.query('SELECT 1').catch(drop), listenPingMs);
        ping.unref();
        if (again) reconnected();
      }, drop);
  };
  const start = () => {
    open().catch((error: unknown) => deps.log.error({ err: error }, 'sync pokes: cannot load the PostgreSQL driver'));
  };
  start();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      await current?.end().catch(() => undefined);
    },
  };
}

/**
 * The SQLite watch: a TEMP trigger lives on this connection only, so the command line writing the same file is not
 * burdened with it (its writes reach the kiosks at their next poll). The function it calls only notes the company;
 * the note is told once no transaction is open, so a kiosk never pulls before the write is readable. The trigger is
 * created through the store, outside any request's transaction (one that rolled back would take it along).
 */
function watchSqlite(db: Db, log: Logger, changed: (companyId: string) => void): Watch | undefined {
  const database = db.sqlite;
  if (!database) return undefined;
  const written = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tell = () => {
    timer = undefined;
    if (stopped || !database.open) return;
    if (database.inTransaction) {
      timer = setTimeout(tell, transactionPollMs);
      return;
    }
    const companies = [...written];
    written.clear();
    for (const companyId of companies) changed(companyId);
  };
  database.function('portaria_feed_written', { deterministic: false }, (companyId: unknown) => {
    if (stopped) return null;
    if (typeof companyId === 'string') written.add(companyId);
    timer ??= setTimeout(tell, 0);
    return null;
  });
  db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS portaria_feed_poke AFTER INSERT ON main.sync_changes
    BEGIN SELECT portaria_feed_written(NEW.companyId); END`).catch((error: unknown) =>
    log.error({ err: error }, 'sync pokes: cannot watch the change feed; kiosks will poll'),
  );
  return {
    // The trigger goes with the connection, which the service closes next; its calls are ignored meanwhile.
    async stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** The pokes of this service's companies: who subscribed, what notices the feed's writes, and their coalescing. */
export function createPokes(watch: FeedWatch, deps: { log: Logger; random: Random; limits?: PokeLimits }): Pokes {
  const limits = deps.limits ?? pokeLimits;
  const subscribers = new Map<string, PokeSubscriber[]>();
  /** Companies poked within the last `coalesceMs`, and whether they changed again since. */
  const windows = new Map<string, { again: boolean; timer: NodeJS.Timeout }>();
  let watching: Watch | undefined;
  let closed = false;

  const tell = (companyId: string) => {
    for (const subscriber of subscribers.get(companyId) ?? []) subscriber.poke();
  };

  // The first change is told at once; more within the window are told once, at its end.
  const changed = (companyId: string) => {
    if (!subscribers.has(companyId)) return;
    const open = windows.get(companyId);
    if (open) {
      open.again = true;
      return;
    }
    tell(companyId);
    const window = {
      again: false,
      timer: setTimeout(() => {
        windows.delete(companyId);
        if (window.again) changed(companyId);
      }, limits.coalesceMs).unref(),
    };
    windows.set(companyId, window);
  };

  const startWatching = (): Watch | undefined => {
    if ('postgres' in watch) {
      return listenPostgres(watch.postgres, deps, changed, () => {
        for (const companyId of subscribers.keys()) changed(companyId);
      });
    }
    return watchSqlite(watch.sqlite, deps.log, changed);
  };

  const remove = (companyId: string, subscriber: PokeSubscriber) => {
    const remaining = (subscribers.get(companyId) ?? []).filter((s) => s !== subscriber);
    if (remaining.length > 0) subscribers.set(companyId, remaining);
    else subscribers.delete(companyId);
  };

  return {
    limits,
    subscribe(companyId, subscriber) {
      // A request that arrives while the service stops: no stream, and nothing watched again.
      if (closed) {
        subscriber.end();
        return () => {};
      }
      const own = (subscribers.get(companyId) ?? []).filter((s) => s.kiosk === subscriber.kiosk);
      // The kiosk's oldest streams make room first: a kiosk whose last stream died unseen reconnects at once.
      for (const stale of own.slice(0, Math.max(0, own.length - limits.perKiosk + 1))) {
        remove(companyId, stale);
        stale.end();
      }
      const streams = subscribers.get(companyId) ?? [];
      if (streams.length >= limits.perCompany) {
        throw new ApiError('TOO_MANY_STREAMS', { maxStreams: limits.perCompany });
      }
      subscribers.set(companyId, [...streams, subscriber]);
      watching ??= startWatching();
      return () => remove(companyId, subscriber);
    },
    async close() {
      closed = true;
      for (const streams of [...subscribers.values()]) for (const subscriber of streams) subscriber.end();
      subscribers.clear();
      for (const window of windows.values()) clearTimeout(window.timer);
      windows.clear();
      await watching?.stop();
      watching = undefined;
    },
  };
}
