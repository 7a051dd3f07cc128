import type { AddressInfo } from 'node:net';
import type { KeyWrapper } from '../local-api/secrets/box.ts';
import { type RunningService, startService } from '../local-api/server.ts';
import { type BackoffPolicy, backoff } from './recovery.ts';

/** The part of a pino logger the supervisor writes to. */
export interface SupervisorLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

export interface SupervisorOptions {
  dataDir: string;
  /** The preferred port; if it is taken at the first start the service takes a free one (and says so). */
  port: number;
  keyWrapper?: KeyWrapper;
  log: SupervisorLog;
  /** Starts the service; tests pass one that fails on purpose. */
  start?: typeof startService;
  now?: () => number;
  restartPolicy?: BackoffPolicy;
  /** Called after each restart, with the new service. */
  onRestart?: (service: RunningService) => void;
}

const defaultRestartPolicy: BackoffPolicy = { baseMs: 1000, maxMs: 30_000, windowMs: 120_000 };

/**
 * Runs the embedded service inside the shell's process: starts it on 127.0.0.1, restarts it after a failure
 * (spaced by a backoff), and stops it gracefully on quit. A restart keeps the port: the kiosk page's origin is
 * the service's URL, and the page's storage and the permission it holds belong to that origin.
 */
export class ServiceSupervisor {
  readonly #options: SupervisorOptions;
  readonly #start: typeof startService;
  readonly #backoff: { next(): number };
  #service: RunningService | undefined;
  #port: number;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #pending: Promise<void> | undefined;

  constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#start = options.start ?? startService;
    this.#port = options.port;
    this.#backoff = backoff(options.now ?? Date.now, options.restartPolicy ?? defaultRestartPolicy);
  }

  get service(): RunningService {
    if (!this.#service) throw new Error('the service is not running');
    return this.#service;
  }

  get running(): boolean {
    return this.#service !== undefined;
  }

  async start(): Promise<RunningService> {
    let service: RunningService;
    try {
      service = await this.#launch(this.#port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || this.#port === 0) throw error;
      this.#options.log.warn({ port: this.#port }, 'service port in use; taking a free port');
      service = await this.#launch(0);
    }
    this.#port = (service.server.address() as AddressInfo).port;
    this.#options.log.info({ url: service.url }, 'service started');
    return service;
  }

  /**
   * Reports a failure of the running service (a server error, or an exception nothing caught): the service is
   * closed and started again after the backoff's delay. Failures while a restart is pending join that restart.
   */
  failed(error: unknown): void {
    if (this.#stopped || this.#timer || this.#pending) return;
    const delay = this.#backoff.next();
    this.#options.log.error({ err: error, restartInMs: delay }, 'service failed; restarting it');
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pending = this.#restart().finally(() => {
        this.#pending = undefined;
      });
    }, delay);
  }

  /** Waits for a pending restart, if any (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.#timer || this.#pending) {
      await (this.#pending ?? new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }

  /** Closes the service (HTTP server, then the database) and cancels any pending restart. Safe to call twice. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pending;
    const service = this.#service;
    this.#service = undefined;
    if (service) {
      await service.close();
      this.#options.log.info({}, 'service stopped');
    }
  }

  async #launch(port: number): Promise<RunningService> {
    const { dataDir, keyWrapper } = this.#options;
    const service = await this.#start({ port, dataDir, ...(keyWrapper ? { keyWrapper } : {}) });
    service.server.on('error', (error) => this.failed(error));
    this.#service = service;
    return service;
  }

  async #restart(): Promise<void> {
    const old = this.#service;
    this.#service = undefined;
    if (old) await old.close().catch((error) => this.#options.log.warn({ err: error }, 'closing the failed service'));
    if (this.#stopped) return;
    try {
      const service = await this.#launch(this.#port);
      this.#options.log.info({ url: service.url }, 'service restarted');
      this.#options.onRestart?.(service);
    } catch (error) {
      this.#pending = undefined;
      this.failed(error);
    }
  }
}
