/**
 * The service's own process: started by the shell as an Electron utility process (`utilityProcess.fork`), or by
 * `child_process.fork` in the unit tests and benches (`main/service-process.ts`). better-sqlite3 is synchronous and
 * every check-in commits with an fsync, so a burst of requests holds this process's event loop; here that delay
 * is the service's alone, and the main process (window, IPC, printing) never waits for SQLite.
 *
 * It does what the main process asks over its message channel (`main/service-protocol.ts`): start the service,
 * report its URL (and, on a first start, the company it created), stop it. The device key arrives in the `start` message, already
 * unwrapped by the main process, which alone can use Electron's safeStorage.
 */
import pino from 'pino';
import { firstStartCompany } from '../local-api/device.ts';
import { type RunningService, startService } from '../local-api/server.ts';
import { type FromService, type ToService, toService } from './service-protocol.ts';

const log = pino({ level: process.env.PORTARIA_LOG_LEVEL ?? 'info' }, pino.destination(2)).child({
  part: 'service-process',
});

interface ParentChannel {
  send(message: FromService): void;
  onMessage(listener: (message: unknown) => void): void;
}

/** What this file uses of Electron's `process.parentPort` (present only in a utility process). */
interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

function parentChannel(): ParentChannel {
  const port = (process as { parentPort?: ParentPortLike }).parentPort;
  if (port) {
    return {
      send: (message) => port.postMessage(message),
      onMessage: (listener) => port.on('message', (event) => listener(event.data)),
    };
  }
  if (process.send) {
    return {
      send: (message) => process.send?.(message),
      onMessage: (listener) => process.on('message', listener),
    };
  }
  throw new Error('the service process has no parent to talk to: the shell starts it (main/service-process.ts)');
}

const parent = parentChannel();
let service: RunningService | undefined;
let startup: Promise<void> | undefined;
let stopping: Promise<void> | undefined;

function start(message: Extract<ToService, { type: 'start' }>): void {
  if (startup || stopping) return;
  startup = (async () => {
    try {
      service = await startService({
        dataDir: message.dataDir,
        port: message.port,
        deviceKey: Buffer.from(message.deviceKey, 'base64'),
        ...(message.logLevel ? { logLevel: message.logLevel } : {}),
        ...(message.appVersion ? { appVersion: message.appVersion } : {}),
      });
      service.server.on('error', (error) => exitOnFailure(error, 'service failed'));
      const first = await firstStartCompany(service.ctx, message.companyName);
      const firstStart = first && {
        companyId: first.id,
        apiKey: first.apiKey,
        ...(first.pin ? { pin: first.pin } : {}),
      };
      parent.send({ type: 'started', url: service.url, ...(firstStart ? { firstStart } : {}) });
    } catch (error) {
      const { message: text, code } = error as NodeJS.ErrnoException;
      await service?.close().catch(() => undefined);
      service = undefined;
      // No exit here: a message sent just before an exit can be lost. The main process answers with `stop`.
      parent.send({ type: 'start-failed', message: String(text ?? error), ...(code ? { code } : {}) });
    }
  })();
}

/**
 * Closes the service (running requests answered, job queue stopped, database closed) and ends the process; a
 * start under way finishes first, so its database is closed too.
 */
function stop(): void {
  stopping ??= (async () => {
    try {
      await startup;
      await service?.close();
      process.exit(0);
    } catch (error) {
      exitOnFailure(error, 'closing the service failed');
    }
  })();
}

/** A failing service ends its process: the main process restarts it with a fresh one, after a backoff. */
function exitOnFailure(error: unknown, message: string): never {
  log.fatal({ err: error }, message);
  process.exit(1);
}

parent.onMessage((raw) => {
  const parsed = toService.safeParse(raw);
  if (!parsed.success) {
    log.warn({}, 'message from the main process not understood; ignored');
    return;
  }
  if (parsed.data.type === 'start') start(parsed.data);
  else stop();
});
process.on('uncaughtException', (error) => exitOnFailure(error, 'uncaught exception in the service process'));
process.on('unhandledRejection', (error) => exitOnFailure(error, 'unhandled rejection in the service process'));
// A Ctrl+C in a terminal, or systemd stopping the kiosk, signals every process of the group at once: the service
// closes cleanly by itself rather than dying in the middle of a request. The main process then sees it exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
// Under child_process.fork the channel closes when the parent dies: nobody is left to ask for a stop.
process.on('disconnect', stop);
parent.send({ type: 'ready' });
