/**
 * The one build: the kiosk page (Vite, into `renderer/dist/`), then the app's tree (`dist/electron/`): the main
 * process, the service, the preload and the command line as JavaScript, with a copy of the page. `npm install` runs
 * it (`prepare`); the command line's launcher runs it when the tree is out of date; each part is skipped when its
 * recorded inputs are unchanged (main/build/fresh.mjs). Run as a command:
 *
 *   node --import tsx main/build/build.ts           what is out of date (npm run build, build:electron, prepare)
 *   node --import tsx main/build/build.ts renderer  the page only, when out of date (npm run build:renderer)
 *   node --import tsx main/build/build.ts native    better-sqlite3 built for Electron (npm run build:electron-native)
 *   node --import tsx main/build/build.ts dist …    everything, then the installers (npm run dist -- …)
 *
 * `dist/electron/` mirrors the repository's layout (main/, preload/, local-api/ with its migrations,
 * renderer/dist), so code that finds files from its own location (import.meta.dirname) finds them there too.
 * Each TypeScript file is compiled on its own, its relative imports rewritten from `.ts` to `.js`; npm packages
 * stay imports, resolved from node_modules (in the package, the asar's). The preload is the exception: a
 * sandboxed preload may require nothing but `electron`, so it is bundled into one CommonJS file.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { filesUnder, readInputs, recordInputs, staleness, withBuildLock } from './fresh.mjs';
import { nativeModule } from './launch.ts';
import { appNativeDependencies, buildElectronNative, rebuildForElectron, withoutNodedir } from './native.ts';
import { appManifest, buildLock, outDir, rendererManifest, rendererOut, repoRoot } from './paths.ts';

/**
 * Folders compiled file by file into the app's tree. They are also the tree's inputs, with the command line's
 * (bundled from main/cli/main.ts) and the build tools', which live under main/.
 */
const treeFolders = ['main', 'local-api', 'preload'];
/** Under main/ but not the shell: the command line is bundled on its own below; the build tools run from source. */
const notInTree = ['main/cli/', 'main/build/'];
/** What the installed packages are: a change of them is a change of every build. */
const packageFiles = ['package.json', 'package-lock.json'];
/** Not compiled file by file: the preload is bundled on its own below. */
const notCompiled = new Set(['preload/index.ts']);

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Keeps every relative import an import of the compiled sibling file, and every package an external import. */
const compileFileByFile: Plugin = {
  name: 'compile-file-by-file',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeImport = args.path.startsWith('./') || args.path.startsWith('../');
      return { path: relativeImport ? args.path.replace(/\.(m?)ts$/, '.$1js') : args.path, external: true };
    });
  },
};

/**
 * Makes a module bundled into `bundleDir` find files beside it as if it ran from its own place in the tree: its
 * `import.meta.url`, `dirname` and `filename` become those of the file-by-file build of it (the migrations beside
 * local-api/store/db.js, the page at renderer/dist).
 */
function asIfInTree(root: string, out: string, bundleDir: string): Plugin {
  return {
    name: 'as-if-in-tree',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.')) return undefined;
        const inTree = join(out, relative(root, args.path)).replace(/\.ts$/, '.js');
        const url = (target: string) =>
          `new URL(${JSON.stringify(relative(bundleDir, target).split(sep).join('/'))}, import.meta.url)`;
        const contents = `import { fileURLToPath as __pathOfUrl } from 'node:url';\n${source
          .replaceAll('import.meta.url', `${url(inTree)}.href`)
          .replaceAll('import.meta.dirname', `__pathOfUrl(${url(dirname(inTree))})`)
          .replaceAll('import.meta.filename', `__pathOfUrl(${url(inTree)})`)}`;
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * Two packages of the bundle lose what the service never uses at start: express gets a body-parser whose parsers
 * load with the first request that has a body (main/build/deferred-body-parser.cjs), and zod only its English
 * messages, the ones it shows, not the other forty languages' (a quarter of the bundle, compiled at every start).
 */
const leanerPackages: Plugin = {
  name: 'leaner-packages',
  setup(builder) {
    builder.onResolve({ filter: /^body-parser$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}express${sep}`)
        ? { path: join(import.meta.dirname, 'deferred-body-parser.cjs') }
        : undefined,
    );
    builder.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
        ? { path: join(args.resolveDir, args.path), namespace: 'zod-english' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * The command line as one module (and a chunk per part loaded on demand), in `<out>/main/cli/`: one file loads
 * faster than the two hundred it is made of, which is most of a start-up. The pure JavaScript packages the service
 * loads at start (express and its dependencies, zod, otpauth, pino) go into it too, minified: resolving and
 * compiling their hundreds of files cost a third of the start-up (docs/benchmarks.md). pino bundles because the
 * service writes its log itself (`pino.destination`): only pino's transports, which it does not use, load files
 * of pino's by path, in worker threads. Kept as imports: `notBundled`.
 */
const notBundled = [
  // Native addons; argon2 is loaded on the first password (accounts/passwords.ts).
  'better-sqlite3',
  '@node-rs/argon2',
  // Loaded on first use (PostgreSQL on a hub, an e-mail, a QR code picture), so not paid for at start.
  'pg',
  'nodemailer',
  'qrcode',
  // Its code pages (1 MB) serve only bodies that are not UTF-8; as an import they load only when one comes.
  'iconv-lite',
];

async function bundleCommandLine(root: string, out: string): Promise<void> {
  const bundleDir = join(out, 'main', 'cli');
  await build({
    entryPoints: { main: join(root, 'main', 'cli', 'main.ts') },
    outdir: bundleDir,
    bundle: true,
    splitting: true,
    external: notBundled,
    minify: true,
    // The bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    plugins: [asIfInTree(root, out, bundleDir), leanerPackages],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/**
 * The page, with Vite; its inputs are the renderer folder and every file of the repository the bundle took in.
 * Nothing is written under node_modules: Vite's default way of loading its config file writes it, bundled, into
 * `node_modules/.vite-temp`, and a change there makes npm's record of node_modules (its hidden lock file) older than
 * the folder, so every `npx portaria` after an install read all the packages again (seconds). The module runner
 * loads the config in memory; the config's `cacheDir` keeps Vite's cache under `dist/`.
 */
export async function buildRenderer(root = repoRoot, manifest = rendererManifest): Promise<void> {
  const { build: viteBuild } = await import('vite');
  const taken = new Set<string>();
  // The kiosk's page first (it empties renderer/dist), then the register page and the console beside it, each in a
  // bundle of its own; a repository without them (a test's) builds the kiosk's alone.
  const configs = rendererConfigs.map((file) => join(root, 'renderer', file)).filter((file) => existsSync(file));
  for (const configFile of configs) await buildPage(viteBuild, configFile, root, taken);
  recordInputs(root, manifest, { folders: ['renderer'], files: [...taken, ...packageFiles] });
}

/**
 * The Vite configurations of the pages: the kiosk's, the register page's (renderer/vite.guest.config.ts) and the
 * console's (renderer/vite.console.config.ts).
 */
const rendererConfigs = ['vite.config.ts', 'vite.guest.config.ts', 'vite.console.config.ts'];

/** One page's Vite build, recording the repository's files it took in. */
async function buildPage(
  viteBuild: typeof import('vite').build,
  configFile: string,
  root: string,
  taken: Set<string>,
): Promise<void> {
  await viteBuild({
    configFile,
    configLoader: 'runner',
    logLevel: 'warn',
    plugins: [
      {
        name: 'record-inputs',
        generateBundle() {
          for (const id of this.getModuleIds()) {
            const path = relative(root, id.split('?')[0] ?? id);
            if (!id.startsWith('\0') && !path.startsWith('..') && !path.split(sep).includes('node_modules')) {
              taken.add(path.split(sep).join('/'));
            }
          }
        },
      },
    ],
  });
}

/** The app's tree in `out`, with a copy of the page as last built. */
export async function buildApp(root = repoRoot, out = outDir): Promise<void> {
  for (const entry of existsSync(out) ? readdirSync(out) : []) {
    // The Electron build of the native module takes minutes to make: kept across builds.
    if (entry !== 'node_modules') rmSync(join(out, entry), { recursive: true, force: true });
  }
  const sources = treeFolders
    .flatMap((dir) => filesUnder(root, dir))
    .filter((path) => !notCompiled.has(path) && !notInTree.some((dir) => path.startsWith(dir)));
  await build({
    entryPoints: sources
      .filter((path) => /\.m?ts$/.test(path) && !path.endsWith('.d.mts'))
      .map((path) => join(root, path)),
    outbase: root,
    outdir: out,
    outExtension: { '.js': '.js' },
    bundle: true,
    plugins: [compileFileByFile],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Files the code reads at run time (SQL migrations, …), and plain JavaScript modules.
  for (const path of sources.filter((file) => !/\.(m?ts)$/.test(file))) cpSync(join(root, path), join(out, path));
  await build({
    entryPoints: [join(root, 'preload', 'index.ts')],
    outfile: join(out, 'preload', 'index.cjs'),
    bundle: true,
    external: ['electron'],
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  await bundleCommandLine(root, out);
  cpSync(rendererOut, join(out, 'renderer', 'dist'), { recursive: true });
  const pageInputs = Object.keys(readInputs(rendererManifest)?.inputs ?? {});
  recordInputs(root, appManifest(out), { folders: treeFolders, files: [...pageInputs, ...packageFiles] });
}

/**
 * Builds what is out of date: the page, then the app's tree (which holds a copy of the page). One process builds at
 * a time; the others wait, then find it done.
 */
export async function ensureBuilt(root = repoRoot, out = outDir): Promise<void> {
  const lock = root === repoRoot ? buildLock : join(root, 'dist', '.build-lock');
  await withBuildLock(lock, async () => {
    const page = staleness(root, rendererManifest);
    if (page || !existsSync(rendererOut)) {
      say(`Building the kiosk page (${page ?? 'it is missing'})…`);
      await buildRenderer(root);
    }
    const app = staleness(root, appManifest(out));
    if (app) {
      say(`Building the app (${app})…`);
      await buildApp(root, out);
    }
  });
}

/**
 * Packages the app with electron-builder, everything built first. electron-builder rebuilds nothing itself
 * (electron-builder.yml, `npmRebuild: false`: called directly, it leaves the project's modules alone): the app's
 * native dependencies are rebuilt for Electron here, in the project's node_modules, without npm's `nodedir`; its
 * afterPack hook (main/build/after-pack.mjs) refuses a packaged module built for another ABI. Afterwards, whatever
 * happened, each of them is rebuilt for Node again (with `nodedir`), so the tests keep working.
 */
export async function dist(args: string[], root = repoRoot): Promise<number> {
  await ensureBuilt(root);
  const forNode = { ...process.env };
  const rebuilt = appNativeDependencies(root);
  let status: number;
  try {
    withoutNodedir(process.env);
    await rebuildForElectron(rebuilt, root);
    const builder = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--config', 'electron-builder.yml', ...args],
      { cwd: root, stdio: 'inherit' },
    );
    status = builder.status ?? 1;
  } catch (error) {
    say(`Building the native modules for Electron failed: ${error}`);
    status = 1;
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const restore = spawnSync(npm, ['rebuild', ...rebuilt], {
    cwd: root,
    stdio: 'inherit',
    shell: true,
    env: forNode,
  });
  return status || restore.status || 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'native') {
    const fits = await buildElectronNative();
    process.stdout.write(fits ? `${nativeModule} built for Electron\n` : `${nativeModule} is not built for Electron\n`);
    process.exitCode = fits ? 0 : 1;
  } else if (command === 'dist') {
    process.exitCode = await dist(args);
  } else if (command === 'renderer') {
    await withBuildLock(buildLock, async () => {
      const why = staleness(repoRoot, rendererManifest);
      if (why || !existsSync(rendererOut)) await buildRenderer();
      say(why ? `Built ${relative(process.cwd(), rendererOut)}` : 'The kiosk page is up to date');
    });
  } else {
    await ensureBuilt();
    say(`${relative(process.cwd(), outDir)} is up to date`);
  }
}
