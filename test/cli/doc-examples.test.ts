import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseOptions } from '../../main/cli/command.ts';
import { commands } from '../../main/cli/commands.ts';
import { cli, cliPath, removeDir, repoRoot, tempDir } from '../helpers/service.ts';

/*
 * The commands the README and docs/ show, run as written, so that an example cannot drift from the command line:
 * the lines of shell code blocks that start with `npx portaria`, `portaria` or `npm` (a continued line joined), and
 * inline code that starts with `npx portaria`. Each `portaria` example is checked against its command's options;
 * each one that can run here runs, in a scratch folder (its `.data` is that folder's), in the order of the docs;
 * the others are listed below with the reason. A new example is run unless it is listed.
 */

interface Example {
  file: string;
  text: string;
}

const docFiles = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((name) => `docs/${name}`)].filter((path) =>
  path.endsWith('.md'),
);

/** The examples of one Markdown file, in order. */
function examplesOf(file: string): Example[] {
  const markdown = readFileSync(join(repoRoot, file), 'utf8');
  const found: Example[] = [];
  let fence: string | undefined;
  let continued = '';
  for (const line of markdown.split('\n')) {
    const opening = /^```(\S*)/.exec(line);
    if (opening) {
      fence = fence === undefined ? (opening[1] ?? '') : undefined;
      continue;
    }
    if (fence === undefined) continue;
    const joined = `${continued}${line.trim()}`;
    if (joined.endsWith('\\')) {
      continued = `${joined.slice(0, -1)} `;
      continue;
    }
    continued = '';
    // A block marked as shell holds commands; a plain one may hold a diagram whose boxes name commands.
    const shell = fence === 'sh' || fence === 'bash';
    const pattern = shell ? /^(npx portaria |portaria |npm )/ : /^(npx portaria |npm )/;
    if (pattern.test(joined)) found.push({ file, text: joined.replace(/\s+#.*$/, '').replace(/\s+/g, ' ') });
  }
  for (const match of markdown.replace(/\n/g, ' ').matchAll(/`(npx portaria [^`]+)`/g)) {
    found.push({ file, text: (match[1] ?? '').replace(/\s+/g, ' ') });
  }
  return found;
}

const examples = docFiles.flatMap(examplesOf);

/** Examples that cannot run here, each with the reason. Their `portaria` command lines are still checked. */
const notRunHere: Readonly<Record<string, string>> = {
  'npm install': 'installs the packages: .ci/run does, and installs a fresh clone with npm 10 too',
  'npm start': 'opens Electron (no binary, no display here) or serves the repository folder on port 4780 until stopped',
  'npm test': 'the suite this test is part of',
  'npm run bench': 'minutes of load on every endpoint: test/bench runs its parts',
  'npm run bench -- --quick': 'still minutes: test/bench runs its parts',
  'npm run screenshots': 'the browser suite again, minutes',
  'npm run build:electron-native': "downloads Electron's headers: no network here",
  'npm run dist': "downloads Electron's binary and headers and the packaging tools: no network here",
  'npm run dist -- --linux AppImage deb': 'as npm run dist',
  'npm run dist -- --win nsis': 'as npm run dist, on Windows',
  'npx portaria serve --port 4781 --data .data/kiosk --upstream http://hub:4780 --upstream-key-file hub.key':
    'follows a hub at http://hub:4780, a machine that is not here',
  'npx portaria serve --data .data/hub --database postgres://portaria@db/portaria --host 0.0.0.0':
    'a PostgreSQL server at db, which is not here, and all interfaces',
  'portaria serve --data /var/lib/portaria --database postgres://portaria@db.internal/portaria --host 10.0.0.11 --port 4780':
    'a PostgreSQL server at db.internal and an address of another machine',
  'portaria serve --data /var/lib/portaria --database "$PORTARIA_DATABASE" --host 10.0.0.11 --port 4780 --trust-proxy 10.0.0.2,10.0.0.3':
    'a PostgreSQL server named by the environment, an address of another machine and its load balancers',
};

/** What stands for a placeholder (`<id>`, `<key>`, …), chosen by the option it follows. */
const placeholderValues: Readonly<Record<string, string>> = {
  data: '.data/docs',
  name: 'Acme',
  'api-key': 'docs-example-key-0123456789',
  timezone: 'Europe/Lisbon',
  port: '0',
  'aes-key': 'docs-example-aes-key',
  username: 'u',
  password: 'p',
  email: 'ana@example.com',
  'upstream-key': 'prt_docs_example_key_0123',
  out: 'out.db',
  from: 'out.db',
  file: 'out.db',
};

/** The words of a command line: quoted words kept whole, `[optional]` parts taken, placeholders filled in. */
function words(text: string, companyIn: (data: string) => Promise<string>): Promise<string[]> {
  const tokens = [...text.replace(/[[\]]/g, '').matchAll(/"([^"]*)"|<[^>]*>|\S+/g)].map(
    (match) => match[1] ?? match[0],
  );
  return Promise.all(
    tokens.map(async (token, i) => {
      if (!token.startsWith('<')) return token;
      // `npx portaria <command> --help`: any command.
      if (i === 0) return 'serve';
      const option = tokens[i - 1]?.replace(/^--/, '') ?? '';
      if (option === 'company') {
        const data = tokens[tokens.indexOf('--data') + 1] ?? '';
        return companyIn(data.startsWith('<') || data === '' ? (placeholderValues.data ?? '') : data);
      }
      const value = placeholderValues[option];
      assert.ok(value !== undefined, `a value for ${token} after --${option} (placeholderValues)`);
      return value;
    }),
  );
}

/** The command an example names and its options, as the command line reads them. */
function commandOf(args: string[]) {
  const definition = [...commands]
    .sort((a, b) => b.name.length - a.name.length)
    .find((entry) => args.slice(0, entry.name.split(' ').length).join(' ') === entry.name);
  assert.ok(definition, `a command: ${args.join(' ')}`);
  return { definition, options: args.slice(definition.name.split(' ').length) };
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

test('the README and docs/ show the commands this test reads', () => {
  const texts = examples.map((example) => example.text);
  for (const expected of ['npm install', 'npx portaria serve --port 4780 --data .data/hub']) {
    assert.ok(texts.includes(expected), `found: ${expected}`);
  }
  assert.ok(texts.some((text) => text.startsWith('npx portaria keys create')));
  for (const listed of Object.keys(notRunHere)) assert.ok(texts.includes(listed), `still in the docs: ${listed}`);
});

test("no document names a path of a developer's machine", () => {
  for (const file of [...docFiles, 'CONTRIBUTING.md']) {
    const found = /(?:^|[\s`(])((?:\/work|\/home|\/root|\/Users|[A-Z]:\\Users)\/?[^\s`)]*)/m.exec(
      readFileSync(join(repoRoot, file), 'utf8'),
    );
    assert.equal(found?.[1], undefined, file);
  }
});

test('every npm script the docs name exists', () => {
  const scripts = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts as Record<string, string>;
  for (const { file, text } of examples.filter((example) => example.text.startsWith('npm '))) {
    const script = /^npm (?:run )?([\w:-]+)/.exec(text)?.[1] ?? '';
    assert.ok(script === 'install' || scripts[script] !== undefined, `${file}: ${text}`);
  }
});

test('every portaria example has its command, known options and the required ones', async () => {
  for (const { file, text } of examples.filter((example) => !example.text.startsWith('npm '))) {
    const args = await words(text.replace(/^(npx )?portaria /, ''), async () => 'a-company-id');
    // Help and the version are not uses of a command's options.
    if (args.includes('--help') || args[0] === '--version') continue;
    const { definition, options } = commandOf(args);
    assert.doesNotThrow(() => parseOptions(definition, options), `${file}: ${text}`);
  }
});

/** Starts a server's example, waits for its "listening" line, stops it. */
async function runsUntilStopped(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [cliPath, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line: ${output}`)), 20_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/listening on http/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code}: ${output}`));
      });
    });
  } finally {
    child.kill();
    await exited;
  }
}

test('every example that can run here runs, as written', async () => {
  const cwd = tempDir('portaria-doc-examples-');
  dirs.push(cwd);
  // The gate keeps what it has seen under the home folder unless told otherwise.
  const env = { ...process.env, HOME: cwd, PORT: '0' };
  const companies = new Map<string, string>();
  const companyIn = async (data: string) => {
    const known = companies.get(data);
    if (known) return known;
    const made = await cli(['company', 'create', '--data', data, '--name', 'Docs'], { cwd, env });
    assert.equal(made.status, 0, made.stderr);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    companies.set(data, id);
    return id;
  };
  const runnable = examples.filter((example) => notRunHere[example.text] === undefined);
  assert.ok(runnable.length >= 10, `examples to run: ${runnable.length}`);
  for (const { file, text } of runnable) {
    if (text.startsWith('npm ')) {
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const result = await new Promise<number | null>((resolve) => {
        const child = spawn(npm, text.split(' ').slice(1), { cwd: repoRoot, stdio: 'ignore', shell: true });
        child.on('exit', (code) => resolve(code));
      });
      assert.equal(result, 0, `${file}: ${text}`);
      continue;
    }
    // Ports are chosen free: the documented ones may be taken on this machine.
    const args = (await words(text.replace(/^(npx )?portaria /, ''), companyIn)).map((word, i, all) =>
      all[i - 1] === '--port' ? '0' : word,
    );
    if ((args[0] === 'serve' || args[0] === 'gate') && !args.includes('--help')) {
      await runsUntilStopped(args, cwd, env);
      continue;
    }
    const result = await cli(args, { cwd, env });
    assert.equal(result.status, 0, `${file}: ${text}\n${result.stderr}`);
  }
});
