/**
 * Builds what Electron runs, into `dist/electron/`, and packages it. Run as a command:
 *
 *   node --import tsx main/build.ts           main process, service and preload as JavaScript (npm run build:electron)
 *   node --import tsx main/build.ts native    better-sqlite3 built for Electron, for running from sources
 *   node --import tsx main/build.ts dist …    the installers, through electron-builder (npm run dist -- …)
 *
 * `dist/electron/` mirrors the repository's layout (main/, preload/, local-api/ with its migrations,
 * renderer/dist), so code that finds files from its own location (import.meta.dirname) finds them there too.
 * Each TypeScript file is compiled on its own, its relative imports rewritten from `.ts` to `.js`; npm packages
 * stay imports, resolved from node_modules (in the package, the asar's). The preload is the exception: a
 * sandboxed preload may require nothing but `electron`, so it is bundled into one CommonJS file.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { builtForAbi, electronAbi, electronNativeModuleFile, nativeModule } from './launch.ts';

export const repoRoot = resolve(import.meta.dirname, '..');
export const outDir = join(repoRoot, 'dist', 'electron');

/** Folders whose TypeScript runs in Electron's main process (preload/api.ts holds the IPC contract). */
const mainSources = ['main', 'local-api', 'preload'];
/** Not main-process modules: build tooling, `npm start`'s checks, and the preload, bundled on its own below. */
const notMainProcess = new Set(
  ['main/build.ts', 'main/launch.ts', 'main/install-electron.mjs', 'preload/index.ts'].map((path) =>
    join(...path.split('/')),
  ),
);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Keeps every relative import an import of the compiled sibling file, and every package an external import. */
const compileFileByFile: Plugin = {
  name: 'compile-file-by-file',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeImport = args.path.startsWith('./') || args.path.startsWith('../');
      return { path: relativeImport ? args.path.replace(/\.ts$/, '.js') : args.path, external: true };
    });
  },
};

export async function buildElectron(root = repoRoot, out = outDir): Promise<void> {
  for (const entry of existsSync(out) ? readdirSync(out) : []) {
    // The Electron build of the native module takes minutes to make: kept across builds.
    if (entry !== 'node_modules') rmSync(join(out, entry), { recursive: true, force: true });
  }
  const sources = mainSources
    .flatMap((dir) => filesUnder(join(root, dir)))
    .filter((file) => !notMainProcess.has(relative(root, file)));
  const entryPoints = sources.filter((file) => file.endsWith('.ts'));
  await build({
    entryPoints,
    outbase: root,
    outdir: out,
    bundle: true,
    plugins: [compileFileByFile],
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of sources) {
    const path = relative(root, file);
    // Files the code reads at run time (SQL migrations, …).
    if (!file.endsWith('.ts')) cpSync(file, join(out, path));
  }
  await build({
    entryPoints: [join(root, 'preload', 'index.ts')],
    outfile: join(out, 'preload', 'index.cjs'),
    bundle: true,
    external: ['electron'],
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    logLevel: 'warning',
  });
  const rendererBuild = join(root, 'renderer', 'dist');
  if (existsSync(rendererBuild)) cpSync(rendererBuild, join(out, 'renderer', 'dist'), { recursive: true });
}

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

/**
 * Packages the app with electron-builder. electron-builder rebuilds better-sqlite3 for Electron inside the
 * project's node_modules; afterwards it is rebuilt for Node again, so the tests keep working after a `dist`.
 */
export async function dist(args: string[], root = repoRoot): Promise<number> {
  await buildElectron(root);
  const builder = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--config', 'electron-builder.yml', ...args],
    { cwd: root, stdio: 'inherit' },
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const restore = spawnSync(npm, ['rebuild', nativeModule], { cwd: root, stdio: 'inherit', shell: true });
  return builder.status || restore.status || 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'native') {
    const fits = await buildElectronNative();
    process.stdout.write(fits ? `${nativeModule} built for Electron\n` : `${nativeModule} is not built for Electron\n`);
    process.exitCode = fits ? 0 : 1;
  } else if (command === 'dist') {
    process.exitCode = await dist(args);
  } else {
    await buildElectron();
    process.stdout.write(`Built ${relative(process.cwd(), outDir) || '.'}\n`);
  }
}
