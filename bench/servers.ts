import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');
const cliPath = join(repoRoot, 'main/cli/portaria.mjs');
const ceilingPath = join(repoRoot, 'bench/ceiling.ts');

/** A server running as its own process on a loopback port. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawning the process to its "listening on" line. */
  listeningMs: number;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  /** Resident memory of the process now, in MiB (VmRSS in /proc/<pid>/status). */
  rssMb(): number;
  /** CPU time (user + system) the process has used so far, in milliseconds (/proc/<pid>/stat). */
  cpuMs(): number;
  /**
   * The last 64 KiB the process wrote to stderr (its log): enough that a failed request's error line is still there
   * after the lines of the requests that followed it.
   */
  stderr(): string;
  /** How the process ended, when it has ended without being stopped ("exited with 1", "killed by SIGABRT"). */
  ended(): string | undefined;
  stop(): Promise<void>;
}

function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/** Clock ticks per second of /proc/<pid>/stat: 100 on Linux (`getconf CLK_TCK`). */
const ticksPerSecond = 100;

function cpuTimeMs(pid: number): number {
  // Fields after the command name (which is in parentheses and may hold spaces): utime and stime are 14 and 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Spawns `node <args>` and waits for the "listening on <url>" line every server here prints. */
export async function startProcess(args: string[]): Promise<ServerProcess> {
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-65_536);
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr.slice(-4000)}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr.slice(-4000)}`));
    });
  });
  const pid = child.pid as number;
  return {
    url,
    pid,
    listeningMs: performance.now() - spawnedAt,
    spawnedAt,
    rssMb: () => residentMb(pid),
    cpuMs: () => cpuTimeMs(pid),
    stderr: () => stderr,
    ended: () =>
      child.signalCode !== null
        ? `killed by ${child.signalCode}`
        : child.exitCode !== null
          ? `exited with ${child.exitCode}`
          : undefined,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/**
 * What the processes said of a failure: the messages of the errors they logged (pino's JSON lines), and for a
 * process that ended by itself, how it ended and the last line it wrote that was not the log's.
 */
export function loggedErrors(servers: ServerProcess[]): string {
  const said = new Set<string>();
  for (const [i, server] of servers.entries()) {
    const lines = server
      .stderr()
      .split('\n')
      .filter((line) => line.trim() !== '');
    for (const line of lines) {
      try {
        const message = (JSON.parse(line) as { err?: { message?: string } }).err?.message;
        if (message) said.add(message);
      } catch {
        // A line cut by the 64 KiB window, or not the log's: kept below if the process ended.
      }
    }
    const ended = server.ended();
    if (ended) {
      const last = lines.filter((line) => !line.startsWith('{')).pop();
      said.add(`process ${i + 1} ${ended}${last ? `: ${last.trim().slice(0, 300)}` : ''}`);
    }
  }
  return said.size > 0 ? ` (${[...said].join('; ')})` : '';
}

/**
 * `portaria serve` on a data folder, as a user runs it, but without scheduled backups: the first one comes a minute
 * after the start and copies the whole database (seconds for the large one), which would land in the middle of a
 * measurement. `nodeArgs` go before the script (e.g. `--cpu-prof`); `serveArgs` after it (`--database`); `root`
 * is the checkout whose command line runs (another commit's, built in bench/.work: bench/baseline.ts).
 */
export function startPortaria(
  dataDir: string,
  nodeArgs: string[] = [],
  more: { serveArgs?: string[]; root?: string } = {},
): Promise<ServerProcess> {
  const cli = more.root ? join(more.root, 'main/cli/portaria.mjs') : cliPath;
  const serve = ['serve', '--port', '0', '--data', dataDir, '--backup-interval', '0', ...(more.serveArgs ?? [])];
  return startProcess([...nodeArgs, cli, ...serve]);
}

/**
 * bench/ceiling.ts as plain JavaScript (in bench/.work, where its packages resolve), compiled once per process: the
 * ceiling runs the way Portaria does, without a TypeScript loader, so start-up times compare like with like.
 */
let compiledCeiling: Promise<string> | undefined;
function ceilingScript(): Promise<string> {
  compiledCeiling ??= (async () => {
    const { build } = await import('esbuild');
    const outfile = join(repoRoot, 'bench/.work', `ceiling-${process.pid}.mjs`);
    await build({
      entryPoints: [ceilingPath],
      outfile,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'warning',
    });
    process.once('exit', () => rmSync(outfile, { force: true }));
    return outfile;
  })();
  return compiledCeiling;
}

/** The minimal Express + better-sqlite3 server of bench/ceiling.ts on a copy of the same database. */
export async function startCeiling(dbFile: string, nodeArgs: string[] = []): Promise<ServerProcess> {
  return startProcess([...nodeArgs, await ceilingScript(), '--db', dbFile]);
}

/** Samples a server's resident memory every 100 ms until stopped; returns the highest value seen. */
export function peakRss(server: ServerProcess): { stop(): number } {
  let peak = server.rssMb();
  const sample = () => {
    try {
      peak = Math.max(peak, server.rssMb());
    } catch {
      // The process has ended: its peak is the one seen.
    }
  };
  const timer = setInterval(sample, 100);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
