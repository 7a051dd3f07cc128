import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createApp, eventListeners, jobHandlers, writeRules } from './app.ts';
import { flushReads } from './audit/store.ts';
import { type BackupSchedule, databaseFile, defaultBackupSchedule, startBackupSchedule } from './backup/backup.ts';
import { type ConsoleEventLimits, consoleChannel, consoleEventLimits } from './console-events/channel.ts';
import { type Clock, type Context, createRuntime, systemClock, systemRandom } from './context.ts';
import { createEventBus } from './events.ts';
import { answerClientError, closeSilentConnections, type ServerTimeouts, serverTimeouts } from './http/limits.ts';
import { setAppVersion } from './kiosks/version.ts';
import { createLogger } from './log.ts';
import type { Cidr } from './outgoing/destinations.ts';
import { registerOwnPort, saveAllowedDestinations } from './outgoing/policy.ts';
import { startRetentionSweeper } from './privacy/store.ts';
import { setPublicAddress } from './public/address.ts';
import { ensureLinkKeys } from './public/links.ts';
import { startWorker } from './queue/queue.ts';
import type { Random } from './rules/ids.ts';
import { loadDeviceKey, secretBox } from './secrets/box.ts';
import { openDatabase, openPostgres } from './store/db.ts';
import { privateDataFolder, privateFolder } from './store/private-files.ts';
import { type HeldServiceLock, lockDataFolder } from './store/service-lock.ts';
import { prepareSync, startSyncAgent } from './sync/agent.ts';
import { HubTime } from './sync/hub-time.ts';
import { createPokes, type PokeLimits, pokeLimits } from './sync/pokes.ts';
import { awaitPairing, configureUpstream, refuseUpstreamKeyLocally } from './sync/state.ts';

export interface ServiceOptions {
  dataDir: string;
  /**
   * A PostgreSQL database (`postgres://user:password@host:port/db`) for a hub that outgrows one machine; without
   * it, the SQLite file in the data folder. Several hub processes may share one database (docs/deployment.md).
   */
  database?: string;
  clock?: Clock;
  random?: Random;
  /**
   * The device key, when the caller holds it (the Electron shell unwraps it with the OS keychain and hands it to
   * the service's process); otherwise it is read from, or created in, `<data>/device.key`.
   */
  deviceKey?: Buffer;
  logLevel?: string;
  /** Shorter time-outs for tests of slow clients; the defaults are serverTimeouts. */
  timeouts?: Partial<ServerTimeouts>;
  /** Scheduled backups into `<data>/backups/`; the default is defaultBackupSchedule. */
  backups?: BackupSchedule;
  /** Caps and coalescing of the hub's poke streams, for tests; the defaults are pokeLimits. */
  pokes?: Partial<PokeLimits>;
  /** Caps of the console's event streams, for tests; the defaults are consoleEventLimits. */
  consoleEvents?: Partial<ConsoleEventLimits>;
  /** A kiosk's pause between syncs while its hub answers, when no poke comes sooner; the default is `pollMs`. */
  syncPollMs?: number;
  /**
   * The address people outside reach this service at (`serve --public-url`): links in e-mails and messages point
   * there (docs/api.md, "Public pages"). Without it, a kiosk uses its hub's; a service with neither sends no link.
   */
  publicUrl?: string;
  /** Portaria's version, which a kiosk reports to its hub (docs/console.md, "Kiosks"). */
  appVersion?: string;
}

export interface StartOptions extends ServiceOptions {
  port: number;
  host?: string;
  /**
   * Makes the service a kiosk of this hub (the same as PUT /v1/sync/upstream; stored). Without a key it shows a
   * pairing code until an administrator enrols it at the hub (docs/sync.md, "Pairing").
   */
  upstream?: { url: string; apiKey?: string | undefined };
  /**
   * The address ranges the device owner lets outgoing requests reach besides the defaults (stored; an empty list
   * clears them): `portaria serve --allow-destinations`. See docs/reliability.md, "Outgoing requests".
   */
  allowDestinations?: readonly Cidr[];
  /**
   * The proxies (a load balancer) whose `X-Forwarded-For` names the client: `portaria serve --trust-proxy`. Not
   * stored. Without it the socket's peer is the client (docs/deployment.md, "Load balancer").
   */
  trustProxy?: readonly Cidr[];
}

/** Opens (and migrates) the data folder and assembles the context every part of the service runs on. */
export async function openService(options: ServiceOptions): Promise<Context> {
  const dataDir = resolve(options.dataDir);
  privateDataFolder(dataDir);
  // The key first: a wrong one fails the start before the database is open.
  const secrets = secretBox(options.deviceKey ?? loadDeviceKey(dataDir));
  const log = createLogger(options.logLevel ?? process.env.PORTARIA_LOG_LEVEL ?? 'info');
  const db = options.database ? await openPostgres(options.database) : await openDatabase(databaseFile(dataDir));
  const random = options.random ?? systemRandom;
  const ctx: Context = {
    db,
    clock: new HubTime(options.clock ?? systemClock),
    random,
    secrets,
    log,
    dataDir,
    events: createEventBus(),
    runtime: createRuntime(),
    pokes: createPokes(options.database ? { postgres: options.database } : { sqlite: db }, {
      log,
      random,
      limits: { ...pokeLimits, ...options.pokes },
    }),
  };
  setPublicAddress(ctx, options.publicUrl);
  setAppVersion(ctx, options.appVersion);
  consoleChannel(ctx, { ...consoleEventLimits, ...options.consoleEvents });
  await prepareSync(ctx);
  await ensureLinkKeys(ctx);
  return ctx;
}

/** How long answers under way may take to finish when the service stops. */
const closeGraceMs = 2000;

export interface RunningService {
  ctx: Context;
  server: Server;
  url: string;
  /** Runs the queue's due jobs now: for tests that move the clock (a reminder's time), which no timer follows. */
  drainQueue(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the HTTP service. It binds 127.0.0.1 unless told otherwise: the kiosk's port is not for the network. It
 * holds the data folder's lock while it runs (`store/service-lock.ts`): a second service on the same folder is
 * refused with ServiceLockedError before anything is opened.
 */
export async function startService(options: StartOptions): Promise<RunningService> {
  const dataDir = resolve(options.dataDir);
  privateFolder(dataDir);
  // The lock guards the SQLite file; processes sharing a PostgreSQL database share its data folder as they wish.
  const lock = options.database ? undefined : lockDataFolder(dataDir);
  let ctx: Context | undefined;
  try {
    ctx = await openService({ ...options, dataDir });
    return await listen(ctx, options, lock);
  } catch (error) {
    await ctx?.db.close();
    lock?.release();
    throw error;
  }
}

async function listen(ctx: Context, options: StartOptions, lock: HeldServiceLock | undefined): Promise<RunningService> {
  const upstream = options.upstream;
  if (upstream?.apiKey !== undefined) await configureUpstream(ctx, { url: upstream.url, apiKey: upstream.apiKey });
  else if (upstream) await awaitPairing(ctx, upstream.url);
  await refuseUpstreamKeyLocally(ctx);
  if (options.allowDestinations) await saveAllowedDestinations(ctx, options.allowDestinations);
  for (const rule of writeRules(ctx)) ctx.events.addRule(rule);
  for (const listener of eventListeners(ctx)) ctx.events.subscribe(listener);
  const app = createApp(ctx, { trustProxy: options.trustProxy ?? [] });
  const host = options.host ?? '127.0.0.1';
  const timeouts = { ...serverTimeouts, ...options.timeouts };
  // Slow clients cannot hold the service: see serverTimeouts.
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    app,
  );
  server.on('clientError', answerClientError);
  closeSilentConnections(server, timeouts);
  await new Promise<void>((listening, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      listening();
    });
  });
  const address = server.address() as AddressInfo;
  registerOwnPort(ctx, address.port);
  const worker = await startWorker(ctx, jobHandlers(ctx));
  const sweeper = startRetentionSweeper(ctx);
  const backups = startBackupSchedule(ctx, options.backups ?? defaultBackupSchedule);
  const sync = await startSyncAgent(ctx, { pollMs: options.syncPollMs });
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  lock?.describe(url);
  return {
    ctx,
    server,
    url,
    drainQueue: () => worker.drain(),
    async close() {
      try {
        // The agent first: a POST /v1/sync/run waiting on the hub is answered before the server waits for it.
        await sync.stop();
        // Subscribed kiosks' streams never end by themselves: ended now, they do not hold the server's close.
        await ctx.pokes.close();
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeIdleConnections();
          // A browser keeps connections it opened ahead of need (Chromium's preconnect) with no request on them,
          // which `close` would wait for forever (the kiosk's page is open while the service stops): answers under
          // way get a moment to finish, then every connection is closed (test/api/service-stop.test.ts).
          setTimeout(() => server.closeAllConnections(), closeGraceMs).unref();
        });
        sweeper.stop();
        await Promise.all([worker.stop(), backups.stop()]);
        await flushReads(ctx);
      } finally {
        await ctx.db.close();
        lock?.release();
      }
    },
  };
}
