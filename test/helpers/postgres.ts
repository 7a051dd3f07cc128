/**
 * PostgreSQL for the tests: a throwaway cluster (`withPostgres`), and a database per data folder when the HTTP
 * suite runs against PostgreSQL (`PORTARIA_TEST_ENGINE=postgres`, set by test/helpers/with-postgres.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const testEngine: 'sqlite' | 'postgres' =
  process.env.PORTARIA_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** Where Debian (and most distributions) keep the server's programs; the newest version installed. */
export function postgresBin(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(debian, versions[0], 'bin');
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    return existsSync(join(dir, 'initdb')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>`: a database name goes after it. */
  url: string;
  stop(): void;
}

/**
 * Starts a cluster of its own in a temporary folder, on loopback, trusting local connections. PostgreSQL refuses
 * to run as root: as root, the cluster runs as the `postgres` user (Debian's package creates it). `settings` are
 * server settings over the tests' (`fsync: 'on'` for a bench of durable writes, `shared_preload_libraries`).
 */
export async function startCluster(settings: Record<string, string> = {}): Promise<Cluster> {
  // They travel as one `pg_ctl -o` string, split at spaces.
  for (const [name, value] of Object.entries(settings)) {
    if (/[\s'"]/.test(`${name}${value}`)) throw new Error(`server setting ${name}: no spaces or quotes`);
  }
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (docs/deployment.md)');
  const dir = mkdtempSync(join(tmpdir(), 'portaria-pg-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) => {
    const [command, full] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
      : [join(bin, program), args];
    execFileSync(command, full, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  run('initdb', ['-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale', 'C.UTF-8', '-D', data]);
  const port = await freePort();
  const server = { listen_addresses: '127.0.0.1', fsync: 'off', max_connections: '300', ...settings };
  const options = [`-p ${port} -k ${dir}`, ...Object.entries(server).map(([name, value]) => `-c ${name}=${value}`)];
  run('pg_ctl', ['-D', data, '-o', options.join(' '), '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs `work` on a connection of its own to the server's `postgres` database, closed after. */
async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates a database on the server, if it is not there yet, and answers its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await onServer(serverUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount !== 0) return;
    // Another test process may create it at the same moment.
    await client.query(`CREATE DATABASE ${name}`).catch((error: Error) => {
      if (!/already exists|duplicate key/.test(error.message)) throw error;
    });
  });
  return `${serverUrl}/${name}`;
}

/** Drops a database made by `createDatabase`, if it is there (the connections to it ended first). */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Copies a database into a new one of another name (`CREATE DATABASE … TEMPLATE`), PostgreSQL's own copy: no
 * connection to the source may be open. A hub's backup and its restore into a new database, for the drills.
 */
export async function copyDatabase(serverUrl: string, from: string, to: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${to} TEMPLATE ${from}`));
}

/**
 * The transactions a database has committed and rolled back since the server started (`pg_stat_database`; a
 * serialization failure the service retries is one rollback), once no connection to it is left (within 5 s): a
 * connection reports its counts as it ends, or some seconds later while it idles.
 */
export async function transactionCounts(
  serverUrl: string,
  name: string,
): Promise<{ commits: number; rollbacks: number }> {
  return await onServer(serverUrl, async (client) => {
    const until = Date.now() + 5000;
    for (;;) {
      const open = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
      if (open.rows[0]?.n === 0 || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stats = await client.query(
      'SELECT xact_commit::float8 AS commits, xact_rollback::float8 AS rollbacks FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    const row = stats.rows[0] as { commits: number; rollbacks: number } | undefined;
    if (!row) throw new Error(`no statistics for database ${name}`);
    return row;
  });
}

/**
 * The environment that makes a service or a command on `dataDir` use PostgreSQL when the suite runs against it:
 * one database per data folder, so a service restarted on its folder finds its data again.
 */
export async function engineEnv(dataDir: string): Promise<NodeJS.ProcessEnv> {
  if (testEngine === 'sqlite') return {};
  const server = process.env.PORTARIA_TEST_POSTGRES;
  if (!server)
    throw new Error('PORTARIA_TEST_ENGINE=postgres needs PORTARIA_TEST_POSTGRES (test/helpers/with-postgres.ts)');
  const name = `portaria_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
  return { PORTARIA_DATABASE: await createDatabase(server, name) };
}

/** The PostgreSQL server the PostgreSQL-only tests use (`npm run test:postgres` provides one), if any. */
export const postgresServer: string | undefined = process.env.PORTARIA_TEST_POSTGRES;

/** Why a PostgreSQL-only test is skipped where no server is given; false where it runs. */
export const withoutPostgres: string | false = postgresServer
  ? false
  : 'needs a PostgreSQL server: npm run test:postgres (test/helpers/with-postgres.ts) provides one';

let databases = 0;

/** A new, empty database on the tests' server, named after the test process so parallel files never share one. */
export async function freshDatabase(label: string): Promise<string> {
  if (!postgresServer) throw new Error(`${label}: ${withoutPostgres}`);
  databases += 1;
  return await createDatabase(
    postgresServer,
    `portaria_${label}_${process.pid}_${databases}_${Date.now() % 1_000_000}`,
  );
}
