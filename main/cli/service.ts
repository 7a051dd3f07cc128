/** What `serve` and `start` share: starting the service with its failures in words, and stopping it on a signal. */
import type { RunningService, StartOptions } from '../../local-api/server.ts';
import { startService } from '../../local-api/server.ts';
import { ServiceLockedError } from '../../local-api/store/service-lock.ts';
import { CommandFailure } from './command.ts';
import { listenFailure } from './inputs.ts';

export async function startServiceOrExplain(options: StartOptions): Promise<RunningService> {
  try {
    return await startService(options);
  } catch (error) {
    if (error instanceof ServiceLockedError) {
      throw new CommandFailure(`${error.message}: stop it first, or give another --data`);
    }
    throw listenFailure(error, options.host ?? '127.0.0.1', options.port) ?? error;
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
