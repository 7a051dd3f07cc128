import { type BackoffPolicy, backoff } from './recovery.ts';
import type { ForkService, ServiceProcess } from './service-process.ts';
import { fromService } from './service-protocol.ts';

/** The part of a pino logger the supervisor writes to. */
export interface SupervisorLog {
  info(data: object, message: string): void;
  warn(data: object, message: string): void;
  error(data: object, message: string): void;
}

/**
 * What the shell needs of a running service: where it answers (the page asks it for its kiosk credential, as in
 * browser mode), and on a first start the company created, its admin key and first PIN, to print once.
 */
export interface ServiceEndpoint {
  url: string;
  firstStart?: { companyId: string; apiKey: string; pin?: string | undefined };
}

export interface SupervisorOptions {
  dataDir: string;
  /** The preferred port; if it is taken at the first start the service takes a free one (and says so). */
  port: number;
  /** The device key, unwrapped by the caller (the shell, with safeStorage); sent to the service process only. */
  deviceKey: Buffer;
  /** The name of the company a first start creates (and enrols the kiosk to). */
  companyName: string;
  /** The app's version, handed to the service (a kiosk reports it to its hub). */
  appVersion?: string;
  /** Starts a service process: Electron's utility process in the shell, `child_process.fork` elsewhere. */
  fork: ForkService;
  log: SupervisorLog;
  logLevel?: string;
  now?: () => number;
  restartPolicy?: BackoffPolicy;
  /** How long a start may take (migrations included) before the process is killed and the start fails. */
  startTimeoutMs?: number;
  /** How long a stop waits for the process to close its service before killing it. */
  stopTimeoutMs?: number;
  /** Called after each restart, with the new service. */
  onRestart?: (service: ServiceEndpoint) => void;
}

const defaultRestartPolicy: BackoffPolicy = { baseMs: 1000, maxMs: 30_000, windowMs: 120_000 };

/** A start the service process answered with a failure; `code` is the error's (EADDRINUSE, …). */
export class ServiceStartError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'ServiceStartError';
    this.code = code;
  }
}

/**
 * Runs the embedded service in its own process (`main/service-child.ts`), so the main process's event loop never
 * waits for SQLite: starts it on 127.0.0.1, restarts it when it ends unexpectedly (spaced by a backoff), and stops
 * it gracefully on quit, killing it if it does not end in time. A restart keeps the port: the kiosk page's origin
 * is the service's URL, and the page's storage and the permission it holds belong to that origin.
 */
export class ServiceSupervisor {
  readonly #options: SupervisorOptions;
  readonly #backoff: { next(): number };
  #process: ServiceProcess | undefined;
  #service: ServiceEndpoint | undefined;
  #port: number;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #pending: Promise<void> | undefined;

  constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#port = options.port;
    this.#backoff = backoff(options.now ?? Date.now, options.restartPolicy ?? defaultRestartPolicy);
  }

  get service(): ServiceEndpoint {
    if (!this.#service) throw new Error('the service is not running');
    return this.#service;
  }

  get running(): boolean {
    return this.#service !== undefined;
  }

  async start(): Promise<ServiceEndpoint> {
    let service: ServiceEndpoint;
    try {
      service = await this.#launch(this.#port);
    } catch (error) {
      if (!(error instanceof ServiceStartError && error.code === 'EADDRINUSE') || this.#port === 0) throw error;
      this.#options.log.warn({ port: this.#port }, 'service port in use; taking a free port');
      service = await this.#launch(0);
    }
    this.#port = Number(new URL(service.url).port);
    this.#options.log.info({ url: service.url, pid: this.#process?.pid }, 'service started');
    return service;
  }

  /** Waits for a pending restart, if any (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.#timer || this.#pending) {
      await (this.#pending ?? new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }

  /**
   * Asks the service process to close (HTTP server after its running requests, job queue, database) and waits
   * for it to end, killing it after `stopTimeoutMs`; cancels any pending restart. Safe to call twice.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pending;
    const child = this.#process;
    if (!child) return;
    const ended = new Promise<void>((resolve) => child.onExit(() => resolve()));
    child.send({ type: 'stop' });
    const deadline = this.#options.stopTimeoutMs ?? 10_000;
    const killer = setTimeout(() => {
      this.#options.log.warn({ pid: child.pid, waitedMs: deadline }, 'service did not stop in time; killing it');
      child.kill();
    }, deadline);
    await ended;
    clearTimeout(killer);
    this.#options.log.info({}, 'service stopped');
  }

  /** Starts a service process and waits for its URL; rejects if it fails, ends or is silent before that. */
  #launch(port: number): Promise<ServiceEndpoint> {
    const { dataDir, deviceKey, companyName, logLevel, appVersion, log } = this.#options;
    const child = this.#options.fork();
    return new Promise((resolve, reject) => {
      let starting = true;
      const fail = (error: Error) => {
        if (!starting) return;
        starting = false;
        clearTimeout(timer);
        reject(error);
      };
      const timeoutMs = this.#options.startTimeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        fail(new Error(`the service process did not start within ${timeoutMs} ms`));
        child.kill();
      }, timeoutMs);
      child.onExit((code, signal) => {
        fail(new Error(`the service process ended before it started (code ${code}, signal ${signal})`));
        this.#ended(child, code, signal);
      });
      child.onMessage((raw) => {
        const parsed = fromService.safeParse(raw);
        if (!parsed.success) {
          log.warn({ pid: child.pid }, 'message from the service process not understood; ignored');
          return;
        }
        const message = parsed.data;
        if (message.type === 'ready') {
          child.send({
            type: 'start',
            dataDir,
            port,
            deviceKey: deviceKey.toString('base64'),
            companyName,
            ...(logLevel ? { logLevel } : {}),
            ...(appVersion ? { appVersion } : {}),
          });
        } else if (message.type === 'start-failed') {
          fail(new ServiceStartError(message.message, message.code));
          child.send({ type: 'stop' });
        } else if (starting) {
          starting = false;
          clearTimeout(timer);
          this.#process = child;
          this.#service = { url: message.url, ...(message.firstStart ? { firstStart: message.firstStart } : {}) };
          resolve(this.#service);
        }
      });
    });
  }

  /** The end of a service process: expected after a stop, a failure to recover from otherwise. */
  #ended(child: ServiceProcess, code: number | null, signal: string | null): void {
    if (child !== this.#process) return;
    this.#process = undefined;
    this.#service = undefined;
    if (!this.#stopped) this.#failed(new Error(`the service process ended (code ${code}, signal ${signal})`));
  }

  /** Schedules a restart after the backoff's delay; failures while one is pending join it. */
  #failed(error: unknown): void {
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

  async #restart(): Promise<void> {
    if (this.#stopped) return;
    try {
      const service = await this.#launch(this.#port);
      this.#options.log.info({ url: service.url, pid: this.#process?.pid }, 'service restarted');
      this.#options.onRestart?.(service);
    } catch (error) {
      this.#pending = undefined;
      this.#failed(error);
    }
  }
}
