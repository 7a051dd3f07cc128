import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder with the package.json above `dir`: this file runs from `main/build/`, and bundled into the command line,
 * as if from `dist/electron/main/build/`.
 */
function packageRoot(dir: string): string {
  return existsSync(join(dir, 'package.json')) || dirname(dir) === dir ? dir : packageRoot(dirname(dir));
}

/** Where the builds go. Everything under `dist/` (and `renderer/dist/`) is made, never tracked. */
export const repoRoot = packageRoot(import.meta.dirname);
/** The app's tree: main process, service, preload, command line, and a copy of the page (main/build/build.ts). */
export const outDir = join(repoRoot, 'dist', 'electron');
/** The kiosk page, as Vite builds it. */
export const rendererOut = join(repoRoot, 'renderer', 'dist');
/** The page's inputs as of its last build: kept apart from the page, whose folder the service serves. */
export const rendererManifest = join(repoRoot, 'dist', 'renderer-inputs.json');
/** A tree's inputs as of its last build, inside it. */
export const appManifest = (out: string) => join(out, '.inputs.json');
/** Held by the one process that builds (main/build/fresh.mjs). */
export const buildLock = join(repoRoot, 'dist', '.build-lock');
