/**
 * The bench's PostgreSQL: a throwaway cluster (test/helpers/postgres.ts `startCluster`) with durable commits
 * (`fsync` and `synchronous_commit` on, unlike the tests') and `pg_stat_statements` loaded, and the statements a
 * database ran, counted from it.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Cluster, createDatabase, startCluster } from '../../test/helpers/postgres.ts';

export interface BenchCluster extends Cluster {
  /** A new, empty database: its name and URL (gone with the cluster). */
  database(label: string): Promise<{ name: string; url: string }>;
}

export async function startBenchCluster(): Promise<BenchCluster> {
  const cluster = await startCluster({
    fsync: 'on',
    synchronous_commit: 'on',
    shared_preload_libraries: 'pg_stat_statements',
    // Statements the clients send, not those that functions and triggers run inside the server.
    'pg_stat_statements.track': 'top',
    'pg_stat_statements.max': '10000',
  });
  const client = new pg.Client({ connectionString: `${cluster.url}/postgres` });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await client.end();
  return {
    ...cluster,
    async database(label) {
      const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
      return { name, url: await createDatabase(cluster.url, name) };
    },
  };
}

/** Statements a database ran (`calls` summed over pg_stat_statements), the most frequent ones named. */
export interface StatementCount {
  calls: number;
  /** Of them, BEGIN, COMMIT, ROLLBACK, SAVEPOINT and RELEASE. */
  transactionControl: number;
  top: { query: string; calls: number }[];
}

const transactionControl = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|START TRANSACTION|END)\b/i;

/** Counts statements per database from the cluster's `postgres` database (whose own queries are not counted). */
export class StatementCounter {
  private constructor(private readonly client: pg.Client) {}

  static async open(clusterUrl: string): Promise<StatementCounter> {
    const client = new pg.Client({ connectionString: `${clusterUrl}/postgres` });
    await client.connect();
    return new StatementCounter(client);
  }

  async reset(): Promise<void> {
    await this.client.query('SELECT pg_stat_statements_reset()');
  }

  async count(database: string): Promise<StatementCount> {
    const { rows } = await this.client.query<{ query: string; calls: string }>(
      `SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = $1 ORDER BY s.calls DESC`,
      [database],
    );
    const counted = rows.map((row) => ({ query: row.query.replace(/\s+/g, ' ').trim(), calls: Number(row.calls) }));
    return {
      calls: counted.reduce((sum, row) => sum + row.calls, 0),
      transactionControl: counted
        .filter((row) => transactionControl.test(row.query))
        .reduce((sum, row) => sum + row.calls, 0),
      top: counted.slice(0, 12),
    };
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
