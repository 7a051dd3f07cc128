import { type ChildProcess, spawn } from 'node:child_process';
import { cliPath, tempDir } from './service.ts';

export interface GateProcessOptions {
  aesKey: string;
  username?: string;
  password?: string;
  totp?: boolean;
  webhookSecret?: string;
  /** 0 (the default) picks a free port; give the old one to bring a stopped gate back at the same address. */
  port?: number;
  /** Where it keeps the keys it has seen: a fresh temporary folder unless given (a restart on the same one). */
  dataDir?: string;
}

export interface GateProcess {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the gate's JSON answers field by field
  verify(payload: string, at?: number | string): Promise<any>;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  received(): Promise<any>;
}

export const gateCredentials = { username: 'kiosk', password: 'gate-password-s3cret' };

/** Starts `portaria gate` as its own process (the real peer of the kiosk) and waits until it listens. */
export async function startGateProcess(options: GateProcessOptions): Promise<GateProcess> {
  const dataDir = options.dataDir ?? tempDir('portaria-gate-');
  const args = [
    cliPath,
    'gate',
    '--port',
    String(options.port ?? 0),
    '--aes-key',
    options.aesKey,
    '--username',
    options.username ?? gateCredentials.username,
    '--password',
    options.password ?? gateCredentials.password,
    '--data',
    dataDir,
  ];
  if (options.totp) args.push('--totp');
  if (options.webhookSecret) args.push('--webhook-secret', options.webhookSecret);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gate did not start: ${output}`)), 20_000);
    const onData = () => {
      const match = /Gate listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gate exited with ${code}: ${output}`));
    });
  });
  const post = async (path: string, body: unknown) => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return response.json();
  };
  return {
    url,
    port: Number(new URL(url).port),
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
    },
    verify: (payload, at) => post('/verify', at === undefined ? { payload } : { payload, at }),
    received: async () => (await fetch(`${url}/received`)).json(),
  };
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
