import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { createApp, eventListeners, jobHandlers } from './app.ts';
import { type Clock, type Context, systemClock, systemRandom } from './context.ts';
import { createEventBus } from './events.ts';
import { startWorker } from './queue/queue.ts';
import type { Random } from './rules/ids.ts';
import { type KeyWrapper, loadDeviceKey, secretBox } from './secrets/box.ts';
import { openDatabase } from './store/db.ts';

export interface ServiceOptions {
  dataDir: string;
  clock?: Clock;
  random?: Random;
  keyWrapper?: KeyWrapper;
  logLevel?: string;
}

/** Opens (and migrates) the data folder and assembles the context every part of the service runs on. */
export function openService(options: ServiceOptions): Context {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = pino({ level: options.logLevel ?? process.env.PORTARIA_LOG_LEVEL ?? 'info' }, pino.destination(2));
  return {
    db: openDatabase(join(dataDir, 'portaria.db')),
    clock: options.clock ?? systemClock,
    random: options.random ?? systemRandom,
    secrets: secretBox(loadDeviceKey(dataDir, options.keyWrapper)),
    log,
    dataDir,
    events: createEventBus(),
  };
}

/** How long answers under way may take to finish when the service stops. */
const closeGraceMs = 2000;

export interface RunningService {
  ctx: Context;
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP service. It binds 127.0.0.1 unless told otherwise: the kiosk's port is not for the network. */
export async function startService(options: ServiceOptions & { port: number; host?: string }): Promise<RunningService> {
  const ctx = openService(options);
  for (const listener of eventListeners(ctx)) ctx.events.subscribe(listener);
  const app = createApp(ctx);
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<Server>((resolveServer, reject) => {
    const s = app.listen(options.port, host, (error?: Error) => (error ? reject(error) : resolveServer(s)));
  });
  // Slow clients cannot hold the service: headers within 10 s, a whole request within 60 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  const worker = startWorker(ctx, jobHandlers(ctx));
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  return {
    ctx,
    server,
    url,
    async close() {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
        // A client that keeps its connections alive (the kiosk's page, open while the service stops) goes on
        // sending requests on them, and `close` would wait for it forever: answers under way get a moment to
        // finish, then every connection is closed.
        setTimeout(() => server.closeAllConnections(), closeGraceMs).unref();
      });
      await worker.stop();
      ctx.db.close();
    },
  };
}
