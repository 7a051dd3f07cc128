import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
  withoutNodedir(process.env);
  const { rebuild } = require('@electron/rebuild') as typeof import('@electron/rebuild');
  try {
    await rebuild({ buildPath: moduleDir, projectRootPath: moduleDir, electronVersion, force: true });
  } catch (error) {
    process.stderr.write(`Building ${nativeModule} for Electron ${electronVersion} failed: ${error}\n`);
  }
  return builtForAbi(electronNativeModuleFile(out), electronAbi(electronDir));
}

/**
 * Drops npm's `nodedir` setting (README: `npm config set nodedir /usr`, for offline builds for Node) from an
 * environment that builds for Electron: node-gyp would compile against Node's headers and make a module that
 * registers Node's ABI, which Electron refuses. Answers the environment.
 */
export function withoutNodedir(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const name of Object.keys(env)) if (name.toLowerCase() === 'npm_config_nodedir') delete env[name];
  return env;
}

/** The packages of `root`'s node_modules with a native part compiled from source (a binding.gyp), by name. */
export function nativePackages(root = repoRoot): string[] {
  const modules = join(root, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((scoped) => `${name}/${scoped}`) : [name],
    )
    .filter((name) => existsSync(join(modules, name, 'binding.gyp')))
    .sort();
}

/**
 * The native packages the installers carry: those of package.json's `dependencies` (a development tool's native
 * package stays out).
 */
export function appNativeDependencies(root = repoRoot): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return nativePackages(root).filter((name) => manifest.dependencies?.[name] !== undefined);
}

/**
 * Rebuilds the given native packages for Electron, in the project's node_modules; the caller has dropped `nodedir`
 * from the environment.
 */
export async function rebuildForElectron(onlyModules: string[], root = repoRoot): Promise<void> {
  const require = createRequire(join(root, 'package.json'));
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'))
    .version as string;
  const { rebuild } = require('@electron/rebuild') as typeof import('@electron/rebuild');
  await rebuild({ buildPath: root, electronVersion, force: true, onlyModules, types: ['prod'] });
}
