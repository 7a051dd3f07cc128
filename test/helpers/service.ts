import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { engineEnv } from './postgres.ts';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const cliPath = join(repoRoot, 'main/cli/portaria.mjs');

export interface CreatedCompany {
  id: string;
  apiKey: string;
  enrolled: boolean;
  pin?: string;
}

export interface TestService {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /**
   * Creates a company through the CLI (while the server runs, as the CLI promises) and returns its key; the first
   * one made on the data folder enrols the kiosk and comes with its first PIN.
   */
  company(name?: string, timezone?: string): Promise<CreatedCompany>;
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Output the service wrote to stderr (its log), for tests that check what is and is not logged. */
  stderr(): string;
}

/**
 * For services that hold several companies (a shared hub, to the destination policy) and deliver to the tests'
 * peers on loopback: the device owner allows loopback.
 */
export const allowLoopback = ['--allow-destinations', '127.0.0.0/8'];

/** A port free on 127.0.0.1 now: for a service whose own address must be known before it starts (`--public-url`). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function tempDir(prefix = 'portaria-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The database of the `--data` folder a command names, when the suite runs against PostgreSQL. */
async function commandEngineEnv(args: string[]): Promise<NodeJS.ProcessEnv> {
  const data = args[args.indexOf('--data') + 1];
  return args.includes('--data') && data ? await engineEnv(resolve(data)) : {};
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  return execFileSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...(await commandEngineEnv(args)), ...env },
  });
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the command line without blocking this process (the HTTP client's idle connections keep their timers), and
 * answers its exit code and output, whatever the exit code. `uid`/`gid` run it as another user (when this is root).
 */
export async function cli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number; cwd?: string } = {},
): Promise<CliResult> {
  const engine = await commandEngineEnv(args);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath, ...args],
      {
        encoding: 'utf8',
        env: { ...process.env, ...engine, ...options.env },
        ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
        ...(options.cwd ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) => {
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

/** Starts `portaria serve` as its own process on a free port and waits until it prints its URL. */
export async function startService(
  options: {
    dataDir?: string;
    args?: string[];
    env?: NodeJS.ProcessEnv;
    /** Runs the service on a wall clock this far from the machine's (a device whose clock is set wrong). */
    clockOffsetMs?: number;
    /**
     * The PostgreSQL database to use (`postgres://…`) instead of the data folder's own: one of several hub
     * processes on one database, each with its data folder (holding the same device.key).
     */
    database?: string;
  } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? tempDir();
  const skewed =
    options.clockOffsetMs === undefined
      ? { node: [], env: {} }
      : {
          node: ['--import', join(repoRoot, 'test/helpers/skewed-clock.mjs')],
          env: { PORTARIA_TEST_CLOCK_OFFSET_MS: String(options.clockOffsetMs) },
        };
  const serve = [cliPath, 'serve', '--port', '0', '--data', dataDir, ...(options.args ?? [])];
  const engine = options.database ? { PORTARIA_DATABASE: options.database } : await engineEnv(resolve(dataDir));
  const child = spawn(process.execPath, [...skewed.node, ...serve], {
    env: { ...process.env, PORTARIA_LOG_LEVEL: 'info', ...engine, ...skewed.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service did not start: ${stderr}`)), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    async company(name = 'Acme', timezone = 'America/Sao_Paulo') {
      const args = ['company', 'create', '--data', dataDir, '--name', name, '--timezone', timezone];
      return JSON.parse(await runCli(args, engine)) as CreatedCompany;
    },
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill(signal);
        await exited;
      }
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
  body: any;
  headers: Headers;
}

/**
 * `fetch`, tried a second time when the pooled connection was closed by the server's keep-alive time-out just as
 * the request went out (the test process may have been blocked, e.g. by a synchronous CLI call): such a request
 * never reached the service, so sending it again is safe.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/** A small client: JSON in, JSON out, the key sent as `Authorization: Bearer` unless headers say otherwise. */
export function client(baseUrl: string, apiKey?: string) {
  return async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const init: RequestInit = {
      method,
      headers: {
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
    };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetchOnce(baseUrl + path, init);
    // An event stream (GET /v1/sync/pokes) never ends: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: '', headers: response.headers };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // left as text: the assertion will show it
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
}

/** Calls and answers the body, failing the test (with the answer) unless the call succeeded. */
export async function succeeded(
  call: ReturnType<typeof client>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply['body']> {
  const reply = await call(method, path, body);
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}
