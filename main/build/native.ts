import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { builtForAbi, electronAbi, electronNativeModuleFile, nativeModule } from './launch.ts';
import { outDir, repoRoot } from './paths.ts';

/**
 * Builds better-sqlite3 for Electron into `dist/electron/node_modules`, leaving the project's copy (built for
 * Node, which the tests use) alone. Electron's headers come from the network. npm's `nodedir` setting is
 * dropped for this build: node-gyp would otherwise compile against Node's headers and produce a module that
 * Electron refuses; the result is checked for Electron's ABI rather than trusted.
 */
export async function buildElectronNative(root = repoRoot, out = outDir): Promise<boolean> {
  const require = createRequire(join(root, 'package.json'));
  const electronDir = join(root, 'node_modules', 'electron');
  const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version as string;
  const moduleDir = join(out, 'node_modules', nativeModule);
  rmSync(moduleDir, { recursive: true, force: true });
  mkdirSync(join(out, 'node_modules'), { recursive: true });
  const source = join(root, 'node_modules', nativeModule);
  cpSync(source, moduleDir, { recursive: true, filter: (path) => !path.startsWith(join(source, 'build')) });
  delete process.env.npm_config_nodedir;
  delete process.env.NPM_CONFIG_NODEDIR;
  const { rebuild } = require('@electron/rebuild') as typeof import('@electron/rebuild');
  try {
    await rebuild({ buildPath: moduleDir, projectRootPath: moduleDir, electronVersion, force: true });
  } catch (error) {
    process.stderr.write(`Building ${nativeModule} for Electron ${electronVersion} failed: ${error}\n`);
  }
  return builtForAbi(electronNativeModuleFile(out), electronAbi(electronDir));
}
