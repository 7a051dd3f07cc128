/**
 * Figures of the parts that have their own benchmark script (QR codes, sync drain): each script that is present
 * runs as its own process and prints one JSON line last; its numbers join the run's figures, prefixed with the
 * script's name. In quick mode each gets the arguments that shorten it, and PORTARIA_BENCH_QUICK=1.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The scripts, and the arguments that shorten them in quick mode. */
export const integrationScripts: readonly { file: string; quickArgs: string[] }[] = [
  { file: 'qr.ts', quickArgs: ['--seconds', '0.3'] },
  { file: 'sync-drain.ts', quickArgs: ['--checkins', '1000'] },
];

export interface ScriptResult {
  script: string;
  /** Numeric figures by name (`qr_aesPerSecond`), or the reason there are none. */
  figures: Record<string, number>;
  error?: string;
}

const prefixOf = (script: string) => script.replace(/\.ts$/, '').replace(/[^a-z0-9]+/gi, '_');

/** The numbers of the last line of `output` that is a JSON object, each named `<prefix>_<name>`. */
export function figuresOf(output: string, prefix: string): Record<string, number> {
  const lines = output.trim().split('\n').reverse();
  for (const line of lines) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) continue;
    const figures: Record<string, number> = {};
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'number' && Number.isFinite(value)) figures[`${prefix}_${name}`] = value;
    }
    return figures;
  }
  throw new Error('printed no JSON line');
}

function runScript(root: string, script: string, args: string[], quick: boolean, timeoutMs: number) {
  return new Promise<ScriptResult>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('bench', script), ...args], {
      cwd: root,
      env: { ...process.env, ...(quick ? { PORTARIA_BENCH_QUICK: '1' } : {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        const why = signal === 'SIGKILL' ? `stopped after ${timeoutMs / 1000} s` : `exited with ${code ?? signal}`;
        resolve({ script, figures: {}, error: `${why}: ${stderr.trim().split('\n').pop() ?? ''}` });
        return;
      }
      try {
        resolve({ script, figures: figuresOf(stdout, prefixOf(script)) });
      } catch (error) {
        resolve({ script, figures: {}, error: (error as Error).message });
      }
    });
  });
}

/** Runs each integration script that exists in bench/, one after the other. */
export async function runIntegrationScripts(root: string, quick: boolean): Promise<ScriptResult[]> {
  const results: ScriptResult[] = [];
  for (const { file, quickArgs } of integrationScripts) {
    if (!existsSync(join(root, 'bench', file))) continue;
    results.push(await runScript(root, file, quick ? quickArgs : [], quick, quick ? 60_000 : 240_000));
  }
  return results;
}
