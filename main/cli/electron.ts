import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  builtForAbi,
  displayAvailable,
  electronAbi,
  electronBinary,
  electronNativeModuleFile,
  nativeModule,
  packageDir,
} from '../build/launch.ts';
import { buildElectronNative } from '../build/native.ts';
import { outDir, repoRoot } from '../build/paths.ts';

/**
 * Gets the Electron kiosk ready to launch from the repository (`npm start`, whose launcher has already brought the
 * app's tree up to date): its binary, a display, and better-sqlite3 built for Electron (built once, when missing).
 * Answers the binary to run, or why the kiosk cannot run here.
 */
export async function prepareElectron(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  say: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<{ binary: string } | { reason: string }> {
  const require = createRequire(join(repoRoot, 'package.json'));
  const electronDir = packageDir(() => require.resolve('electron/package.json'));
  const binary = electronBinary(electronDir);
  if ('reason' in binary) return binary;
  const display = displayAvailable(platform, env);
  if (!display.ok) return { reason: display.reason };
  if (electronDir && !builtForAbi(electronNativeModuleFile(outDir), electronAbi(electronDir))) {
    say(`Building ${nativeModule} for Electron (once; it needs network access for Electron's headers)…`);
    if (!(await buildElectronNative())) {
      return { reason: `${nativeModule} could not be built for Electron (see the messages above)` };
    }
  }
  return { binary: binary.path };
}

/** Runs the app from the repository (its package.json names the built main process); resolves with Electron's exit code (null when a signal ended it). */
export function runElectron(binary: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const child = spawn(binary, [repoRoot], { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code);
    });
  });
}
