/** What `serve` and `start` share: starting the service with its failures in words, and stopping it on a signal. */
import type { Context } from '../../local-api/context.ts';
import type { RunningService, StartOptions } from '../../local-api/server.ts';
import { openService, startService } from '../../local-api/server.ts';
import { PostgresError } from '../../local-api/store/postgres.ts';
import { ServiceLockedError } from '../../local-api/store/service-lock.ts';
import { CommandFailure } from './command.ts';
import { database, dataFolder, listenFailure } from './inputs.ts';

/** A database that cannot be reached, in one line (node-postgres's words never hold the password). */
function databaseFailure(error: unknown): CommandFailure | undefined {
  if (error instanceof PostgresError && error.code.startsWith('08')) {
    return new CommandFailure(`${error.message}: check --database (or PORTARIA_DATABASE) and that the server runs`);
  }
  return undefined;
}

export async function startServiceOrExplain(options: StartOptions): Promise<RunningService> {
  try {
    return await startService(options);
  } catch (error) {
    if (error instanceof ServiceLockedError) {
      throw new CommandFailure(`${error.message}: stop it first, or give another --data`);
    }
    throw databaseFailure(error) ?? listenFailure(error, options.host ?? '127.0.0.1', options.port) ?? error;
  }
}

/** The service's context for a command that works on the store itself (`company create`, `keys`, `kiosk enrol`…). */
export async function openCommandService(values: { data: string; database?: string | undefined }): Promise<Context> {
  try {
    return await openService({
      dataDir: dataFolder(values.data),
      database: database(values.database),
      logLevel: 'warn',
    });
  } catch (error) {
    throw databaseFailure(error) ?? error;
  }
}

/**
 * Closes what runs on Ctrl+C or a stop by the system, once, then ends the process. Called before the address is
 * printed: until Node listens for a signal, the signal's default ends the process at once, and whoever read the
 * address may already be stopping it.
 */
export function closeOnSignal(close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`portaria: stopping failed: ${error instanceof Error ? error.message : error}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
