import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { ToService } from './service-protocol.ts';

/**
 * A running service process (`main/service-child.ts`) as the supervisor sees it: a message channel, an exit, and a
 * forced end. Two implementations: Electron's utility process in the shell, Node's `child_process.fork` in the
 * unit tests and benches (and anywhere Electron is absent); the supervisor and the child are the same code in both.
 */
export interface ServiceProcess {
  readonly pid: number | undefined;
  send(message: ToService): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once, when the process has ended (exit code, or the signal that ended it). */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /** Ends the process at once (SIGKILL): for a process that did not stop when asked. */
  kill(): void;
}

export type ForkService = () => ServiceProcess;

/** The service process's entry beside this file: TypeScript from the sources, JavaScript once built. */
export function serviceChildEntry(extension: 'ts' | 'js'): string {
  return join(import.meta.dirname, `service-child.${extension}`);
}

/** The part of Electron's `utilityProcess` used here: a parameter, so this module loads without Electron. */
export interface UtilityProcessLike {
  fork(
    modulePath: string,
    args?: string[],
    options?: { serviceName?: string; stdio?: 'inherit' },
  ): {
    pid: number | undefined;
    postMessage(message: unknown): void;
    on(event: 'message', listener: (message: unknown) => void): unknown;
    on(event: 'exit', listener: (code: number) => void): unknown;
    kill(): boolean;
  };
}

/**
 * The shell's implementation: an Electron utility process (a Node.js child process that Electron starts and
 * ends with the app, with its own event loop and Electron's Node ABI, so the native SQLite module built for the
 * app loads there too). Its log goes to the app's stderr.
 */
export function utilityServiceProcess(utilityProcess: UtilityProcessLike, entry: string): ForkService {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Portaria service', stdio: 'inherit' });
    return {
      get pid() {
        return child.pid;
      },
      send: (message) => child.postMessage(message),
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code, null)),
      kill() {
        // utilityProcess.kill() sends SIGTERM, which the child answers by closing gracefully: too gentle here.
        if (child.pid === undefined) return;
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          child.kill();
        }
      },
    };
  };
}

/**
 * The plain-Node implementation: `child_process.fork` of the same entry. From the sources (a `.ts` entry) the
 * child loads tsx, as the tests do. `execArgv` adds Node options (the benches add a probe module).
 */
export function nodeServiceProcess(entry = serviceChildEntry('ts'), execArgv: string[] = []): ForkService {
  const loader = entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : [];
  return () => {
    const child = fork(entry, [], { execArgv: [...loader, ...execArgv], stdio: 'inherit' });
    type ExitListener = (code: number | null, signal: string | null) => void;
    const exitListeners: ExitListener[] = [];
    let ended: [code: number | null, signal: string | null] | undefined;
    const end = (code: number | null, signal: string | null) => {
      if (ended) return;
      ended = [code, signal];
      for (const listener of exitListeners) listener(code, signal);
    };
    child.on('exit', end);
    // A process that could not be spawned emits `error`, and maybe no `exit`.
    child.on('error', () => {
      if (child.pid === undefined) end(null, null);
    });
    return {
      get pid() {
        return child.pid;
      },
      send(message) {
        // A child that has just died closes its channel before its `exit` arrives: the message has nobody to read it.
        if (child.connected) child.send(message, () => undefined);
      },
      onMessage: (listener) => child.on('message', listener),
      onExit(listener) {
        if (ended) listener(...ended);
        else exitListeners.push(listener);
      },
      kill: () => child.kill('SIGKILL'),
    };
  };
}
