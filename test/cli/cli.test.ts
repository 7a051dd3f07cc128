import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { commands } from '../../main/cli/commands.ts';
import { defaultServicePort, servicePort } from '../../main/cli/inputs.ts';
import {
  type CliResult,
  cli,
  client,
  cliPath,
  removeDir,
  repoRoot,
  startService,
  tempDir,
} from '../helpers/service.ts';

/*
 * The command line as a person meets it: help for every command, and every bad input answered with one line that
 * names the problem and the fix, exit 2 for a wrong command line and 1 for what the machine refused, a stack trace
 * only with --debug. And one service per data folder.
 */

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});
const fresh = () => {
  const dir = tempDir('portaria-cli-');
  dirs.push(dir);
  return dir;
};

/**
 * The answer to bad input: exactly one line on stderr, no stack trace, the exit code given; nothing on stdout but
 * what `start` says before it starts the service.
 */
function assertOneLineError(result: CliResult, status: 1 | 2, message: RegExp): void {
  assert.equal(result.status, status, `exit code of: ${result.stderr}`);
  assert.match(result.stdout, /^(Not starting the Electron kiosk: .*\n)?$/);
  const lines = result.stderr.split('\n');
  assert.deepEqual(lines.slice(1), [''], `one line: ${result.stderr}`);
  assert.match(lines[0] ?? '', /^portaria: /);
  assert.match(lines[0] ?? '', message);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

describe('help', () => {
  for (const words of [['--help'], ['help'], ['-h']]) {
    test(`portaria ${words.join(' ')} lists every command (exit 0)`, async () => {
      const result = await cli(words);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /^Usage: portaria <command>/);
      for (const entry of commands)
        assert.match(result.stdout, new RegExp(`^  ${entry.name} +${entry.summary.slice(0, 20)}`, 'm'));
    });
  }

  test('portaria --version (or -v, or version) prints the version of package.json (exit 0)', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    for (const word of ['--version', '-v', 'version']) {
      const result = await cli([word]);
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, `portaria ${version}\n`);
    }
  });

  test('portaria <command> --help shows its options (exit 0); so do -h and help <command>', async () => {
    const asked = [
      ...commands.map((entry) => [...entry.name.split(' '), '--help']),
      ['company', 'create', '-h'],
      ['help', 'serve'],
    ];
    for (const words of asked) {
      const result = await cli(words);
      const entry = commands.find((candidate) => words.join(' ').includes(candidate.name));
      assert.ok(entry);
      assert.equal(result.status, 0, `${words.join(' ')}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`^Usage: portaria ${entry.name}( |$)`, 'm'));
      for (const option of Object.keys(entry.options))
        assert.match(result.stdout, new RegExp(`^  --${option}\\b`, 'm'));
    }
  });
});

describe('bad input: one line naming the problem and the fix', () => {
  const data = fresh();
  const aFile = join(fresh(), 'a-file');
  writeFileSync(aFile, 'not a folder');
  const usage: [string[], RegExp][] = [
    [[], /no command given: see portaria --help/],
    [['frob'], /unknown command "frob": see portaria --help/],
    [['help', 'frob'], /unknown command "frob"/],
    [['company'], /company needs one of: company create/],
    [['serve'], /serve needs --data \(see portaria serve --help\)/],
    [['serve', '--data', data, '--port'], /--port needs a value \(see portaria serve --help\)/],
    [['serve', '--port', '--data', data], /--port needs a value/],
    [
      ['serve', '--port', 'abc', '--data', data],
      /--port abc is not a port number: give a whole number from 0 to 65535/,
    ],
    [['serve', '--port', '70000', '--data', data], /--port 70000 is not a port number/],
    [['serve', '--port', '-1', '--data', data], /--port -1 is not a port number: give a whole number from 0/],
    [['company', 'create', '--data', data, '--name', ''], /--name is empty: give the company's name/],
    [['company', 'create', '--data', data, '--name', '  '], /--name is empty/],
    [['start', '--port', 'abc'], /--port abc is not a port number/],
    [
      ['serve', '--port', '0', '--data', data, '--colour'],
      /serve has no option --colour \(see portaria serve --help\)/,
    ],
    [['serve', '--port', '0', '--data', data, 'now'], /serve takes no argument "now": options start with --/],
    [
      ['serve', '--port', '0', '--data', data, '--backup-interval', '3x'],
      /--backup-interval 3x is not a duration: give one like 24h/,
    ],
    [
      ['serve', '--port', '0', '--data', data, '--backup-keep', '0'],
      /--backup-keep 0 is not a whole number of 1 or more/,
    ],
    [
      ['serve', '--port', '0', '--data', data, '--upstream-key', 'k'.repeat(20)],
      /an upstream key goes with --upstream/,
    ],
    [['restore', '--data', data, '--from', 'x.db', '--force=yes'], /--force takes no value/],
    [
      ['company', 'create', '--data', data, '--name', 'A', '--timezone', 'Mars/Base'],
      /--timezone Mars\/Base is not an IANA time zone/,
    ],
    [
      ['company', 'create', '--data', data, '--name', 'A', '--api-key', 'short'],
      /--api-key must have 16 characters or more/,
    ],
    [['gate', '--port', '0', '--aes-key', 'k', '--username', 'u'], /gate needs --password/],
  ];
  for (const [args, message] of usage) {
    test(`portaria ${args.join(' ') || '(nothing)'}: exit 2`, async () => {
      assertOneLineError(await cli(args), 2, message);
    });
  }

  test('start with PORT=abc names the variable (exit 2)', async () => {
    assertOneLineError(await cli(['start', '--browser'], { env: { PORT: 'abc' } }), 2, /PORT abc is not a port number/);
  });

  test('a data folder that is a file, or lies inside one (exit 1)', async () => {
    assertOneLineError(
      await cli(['serve', '--port', '0', '--data', aFile]),
      1,
      /--data .*a-file is a file, not a folder: give a folder/,
    );
    assertOneLineError(
      await cli(['serve', '--port', '0', '--data', join(aFile, 'data')]),
      1,
      /--data .*a-file\/data lies inside a file, not a folder: give a folder/,
    );
    assertOneLineError(await cli(['company', 'create', '--data', aFile, '--name', 'A']), 1, /is a file, not a folder/);
  });

  // root may write anywhere: the command runs as nobody then, who must reach the command line's files.
  const asRoot = process.getuid?.() === 0;
  const nobodyReachesRepo = (() => {
    for (let dir = repoRoot; ; dir = dirname(dir)) {
      if ((statSync(dir).mode & 0o001) === 0) return false;
      if (dirname(dir) === dir) return true;
    }
  })();
  test('a data folder this user may not write (exit 1)', {
    skip:
      asRoot && !nobodyReachesRepo
        ? 'as root the test runs the command as nobody, who cannot read this checkout (a folder above it is private)'
        : false,
  }, async () => {
    const parent = fresh();
    chmodSync(parent, 0o755);
    const locked = join(parent, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    const asOther = asRoot ? { uid: 65534, gid: 65534 } : {};
    assertOneLineError(
      await cli(['serve', '--port', '0', '--data', locked], asOther),
      1,
      /--data .*locked cannot be written by this user \(EACCES\): give a folder this user may write to/,
    );
    assertOneLineError(
      await cli(['serve', '--port', '0', '--data', join(locked, 'inner')], asOther),
      1,
      /--data .*locked\/inner cannot be written by this user/,
    );
  });

  test('a port in use (exit 1)', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as { port: number };
    try {
      assertOneLineError(
        await cli(['serve', '--port', String(port), '--data', fresh()]),
        1,
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use by another program: stop it, or choose another --port`),
      );
      assertOneLineError(
        await cli(['start', '--browser', '--port', String(port), '--data', fresh()]),
        1,
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`),
      );
      assertOneLineError(
        await cli(['gate', '--port', String(port), '--aes-key', 'k', '--username', 'u', '--password', 'p']),
        1,
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use`),
      );
    } finally {
      taken.close();
    }
  });

  test('an address not on this machine (exit 1)', async () => {
    // 192.0.2.1 is TEST-NET-1, reserved for documentation: no machine has it.
    assertOneLineError(
      await cli(['serve', '--port', '0', '--data', fresh(), '--host', '192.0.2.1']),
      1,
      /--host 192\.0\.2\.1 is not an address of this machine: give one of its own, 127\.0\.0\.1/,
    );
  });

  test('restore from a file that is not there, backup of a folder without a database (exit 1)', async () => {
    assertOneLineError(
      await cli(['restore', '--data', fresh(), '--from', join(data, 'nope.db')]),
      1,
      /restore refused: --from .*nope\.db does not exist/,
    );
    assertOneLineError(
      await cli(['backup', '--data', fresh()]),
      1,
      /holds no Portaria database: give the folder the service uses/,
    );
  });

  test("backup of a hub on PostgreSQL points at PostgreSQL's own backups (exit 1)", async () => {
    const hubFolder = fresh();
    writeFileSync(join(hubFolder, 'device.key'), Buffer.alloc(32));
    assertOneLineError(
      await cli(['backup', '--data', hubFolder]),
      1,
      /holds no SQLite database, so its service runs on PostgreSQL \(a hub\): back up PostgreSQL with its own tools \(pg_dump/,
    );
    const postgres = 'postgres://portaria@127.0.0.1:9/portaria';
    for (const way of [{ args: ['--database', postgres] }, { env: { PORTARIA_DATABASE: postgres } }]) {
      assertOneLineError(
        await cli(['backup', '--data', fresh(), ...(way.args ?? [])], { env: way.env ?? {} }),
        1,
        /this service's database is PostgreSQL: back up PostgreSQL with its own tools \(pg_dump/,
      );
    }
  });

  test('--debug adds the stack trace to the line', async () => {
    const result = await cli(['serve', '--port', '0', '--data', aFile, '--debug']);
    assert.equal(result.status, 1);
    const [first, ...rest] = result.stderr.split('\n');
    assert.match(first ?? '', /^portaria: --data .* is a file, not a folder/);
    assert.match(rest.join('\n'), /^CommandFailure: .*\n\s+at /);
  });
});

describe("serve's port, as start's", () => {
  test('without --port or PORT it is 4780, the port the docs use; PORT and --port choose another', () => {
    assert.equal(defaultServicePort, 4780);
    assert.equal(servicePort(undefined, undefined), 4780);
    assert.equal(servicePort(undefined, '4781'), 4781);
    assert.equal(servicePort('4782', '4781'), 4782);
    assert.throws(() => servicePort(undefined, 'x'), /PORT x is not a port number/);
  });

  test('serve runs without --port (here PORT=0 picks a free one, since 4780 may be taken on this machine)', async () => {
    const child = spawn(process.execPath, [cliPath, 'serve', '--data', fresh()], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (/listening on http/.test(out)) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        child.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`serve exited with ${code}`));
        });
      });
      assert.match(listening, /^Portaria listening on http:\/\/127\.0\.0\.1:\d+/m);
    } finally {
      child.kill();
    }
  });
});

describe('one service per data folder', () => {
  test('a second serve is refused and leaves the first alone; restore refuses while it runs; a killed one frees the folder', async () => {
    const dataDir = fresh();
    const first = await startService({ dataDir });
    try {
      const { apiKey } = await first.company();
      const holder = readFileSync(join(dataDir, 'service.json'), 'utf8');
      assert.deepEqual(JSON.parse(holder), { pid: first.process.pid, url: first.url });

      const second = await cli(['serve', '--port', '0', '--data', dataDir]);
      assertOneLineError(
        second,
        1,
        new RegExp(
          `a Portaria service \\(pid ${first.process.pid}, ${first.url}\\) already runs on .*: stop it first, or give another --data`,
        ),
      );
      assertOneLineError(await cli(['start', '--browser', '--port', '0', '--data', dataDir]), 1, /already runs on/);
      assert.equal(
        readFileSync(join(dataDir, 'service.json'), 'utf8'),
        holder,
        'the refused one left the record alone',
      );
      assert.equal((await client(first.url, apiKey)('GET', '/v1/hosts')).status, 200);

      const backupFile = join(fresh(), 'b.db');
      assert.equal((await cli(['backup', '--data', dataDir, '--out', backupFile])).status, 0);
      assertOneLineError(
        await cli(['restore', '--data', dataDir, '--from', backupFile]),
        1,
        /restore refused: a Portaria service \(pid \d+, .*\) already runs on .*: stop it first, or restore into it with --force/,
      );

      await first.stop('SIGKILL');
      assert.equal(existsSync(join(dataDir, 'service.json')), true, 'a killed service leaves its record');
      const next = await startService({ dataDir });
      try {
        assert.deepEqual(JSON.parse(readFileSync(join(dataDir, 'service.json'), 'utf8')), {
          pid: next.process.pid,
          url: next.url,
        });
      } finally {
        await next.stop();
      }
      assert.equal(next.process.exitCode, 0, `${next.process.signalCode} ${next.stderr()}`);
      assert.equal(existsSync(join(dataDir, 'service.json')), false, 'a stopped service removes its record');
      assert.equal((await cli(['restore', '--data', dataDir, '--from', backupFile])).status, 0);
    } finally {
      await first.stop();
    }
  });
});
