// Which ABI a native module (a `.node` file) was built for, and the check that every native module packaged into
// the app was built for Electron's. Plain JavaScript: electron-builder loads it as its afterPack hook
// (main/build/after-pack.mjs), without tsx. A module built against Node's headers registers itself as
// `node_register_module_v<Node's ABI>`, and Electron refuses to load it; a Node-API module (`napi_register_module_v1`)
// is built for every ABI at once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The ABI number a native module registers under, or `undefined` for a Node-API module (or no module at all). */
export function registeredAbi(nodeFile) {
  if (!existsSync(nodeFile)) return undefined;
  return /node_register_module_v(\d+)/.exec(readFileSync(nodeFile).toString('latin1'))?.[1];
}

/** Whether a native module was built for the given ABI (`process.versions.modules`, or Electron's). */
export function builtForAbi(nodeFile, abi) {
  return registeredAbi(nodeFile) === abi;
}

/** Electron's ABI number, as its package records it (`node_modules/electron/abi_version`). */
export function electronAbi(electronPackageDir) {
  return readFileSync(join(electronPackageDir, 'abi_version'), 'utf8').trim();
}

/** The native modules under a folder (a packaged app's), as paths. */
export function nativeModuleFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.node'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The native modules under `dir` built for another ABI than `abi`, each with the ABI it was built for. */
export function modulesNotBuiltFor(dir, abi) {
  return nativeModuleFiles(dir)
    .map((file) => ({ file, abi: registeredAbi(file) }))
    .filter((module) => module.abi !== undefined && module.abi !== abi);
}
