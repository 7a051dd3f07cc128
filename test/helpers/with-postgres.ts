/**
 * Runs a command with a throwaway PostgreSQL cluster (or the server PORTARIA_TEST_POSTGRES names): the command
 * finds it in PORTARIA_TEST_POSTGRES, with PORTARIA_TEST_ENGINE=postgres. `npm run test:postgres` runs the HTTP
 * suite so; the cluster is stopped and removed afterwards, whatever the outcome.
 */
import { spawnSync } from 'node:child_process';
import { startCluster } from './postgres.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: with-postgres.ts <command> [args...]\n');
  process.exit(2);
}
const given = process.env.PORTARIA_TEST_POSTGRES;
const cluster = given ? undefined : await startCluster();
try {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, PORTARIA_TEST_ENGINE: 'postgres', PORTARIA_TEST_POSTGRES: given ?? cluster?.url },
  });
  process.exitCode = result.status ?? 1;
} finally {
  cluster?.stop();
}
