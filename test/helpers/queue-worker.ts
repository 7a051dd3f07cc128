/**
 * A job queue worker as a process of its own, on a PostgreSQL database: `queue-worker.ts <database> <data folder>
 * <mode>`. Each job it runs is printed as a line `<mode> <idempotency key>`. `hang`: jobs never finish (the process
 * is killed while it runs them). `run`: jobs finish after a moment; the process exits once none is left pending.
 */
import { type Job, startWorker } from '../../local-api/queue/queue.ts';
import { openService } from '../../local-api/server.ts';

const [database, dataDir, mode] = process.argv.slice(2);
if (!database || !dataDir || (mode !== 'hang' && mode !== 'run')) {
  process.stderr.write('usage: queue-worker.ts <database> <data folder> hang|run\n');
  process.exit(2);
}
const ctx = await openService({ dataDir, database, logLevel: 'silent' });
const handle = async (job: Job) => {
  process.stdout.write(`${mode} ${job.idempotencyKey}\n`);
  if (mode === 'hang') return new Promise<void>(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
};
const worker = await startWorker(ctx, { k: handle }, { attemptTimeoutMs: 60_000, idleMs: 20 });
if (mode === 'run') {
  const pending = ctx.db.prepare("SELECT COUNT(*) FROM jobs WHERE status = 'pending'").pluck();
  while (((await pending.get()) as number) > 0) {
    await worker.drain();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await worker.stop();
  await ctx.db.close();
}
