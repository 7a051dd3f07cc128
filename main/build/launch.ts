import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What `npm start` checks before it launches the Electron kiosk. Each check answers why not, in words for the
 * person at the terminal; any failure sends `npm start` to browser mode instead. Plain file checks: nothing
 * here loads Electron (whose package throws on require where its binary is missing).
 */
export type Check = { ok: true } | { ok: false; reason: string };

export const nativeModule = 'better-sqlite3';

/** Electron's binary, as its package records it after the download (`path.txt`, then `dist/<that path>`). */
export function electronBinary(electronPackageDir: string | undefined): { path: string } | { reason: string } {
  const fetch = 'its download needs network access; run `node node_modules/electron/install.js` where there is';
  if (!electronPackageDir) return { reason: 'the electron package is not installed' };
  const pathFile = join(electronPackageDir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: `Electron's binary is not installed here (${fetch})` };
  const binary = join(electronPackageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { reason: `Electron's binary is missing at ${binary} (${fetch})` };
  return { path: binary };
}

/** A window needs a display server: X11 or Wayland on Linux and the BSDs; Windows and macOS always have one. */
export function displayAvailable(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Check {
  if (platform === 'win32' || platform === 'darwin') return { ok: true };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { ok: true };
  return { ok: false, reason: 'there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set)' };
}

export { builtForAbi, electronAbi } from './native-abi.mjs';

/**
 * Where the Electron build of better-sqlite3 lives: beside the built main process, in `dist/electron/node_modules`,
 * which Node's resolution looks in before the project's own `node_modules` (built for Node, for the tests).
 */
export function electronNativeModuleFile(outDir: string): string {
  return join(outDir, 'node_modules', nativeModule, 'build', 'Release', 'better_sqlite3.node');
}

export function packageDir(resolvePackageJson: () => string): string | undefined {
  try {
    return dirname(resolvePackageJson());
  } catch {
    return undefined;
  }
}
