/**
 * The job queue with several workers on one PostgreSQL database (hub processes): every job runs once, a job held by
 * a worker that died runs after its claim runs out, and the endpoints' breakers are shared.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Context } from '../../local-api/context.ts';
import { enqueue, queueStatus, startWorker } from '../../local-api/queue/queue.ts';
import { openService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { repoRoot, tempDir } from '../helpers/service.ts';

const company = 'c1';

async function hubContext(database: string, clock?: Context['clock']): Promise<Context> {
  return await openService({ dataDir: tempDir(), database, clock, logLevel: 'silent' });
}

async function enqueueMany(ctx: Context, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, i) => `job-${i}`);
  await ctx.db.transaction(async () => {
    for (const [i, key] of keys.entries()) {
      await enqueue(ctx, {
        companyId: company,
        kind: 'k',
        endpoint: `hook-${i % 7}`,
        idempotencyKey: key,
        payload: {},
      });
    }
  });
  return keys;
}

/** Runs test/helpers/queue-worker.ts; answers the keys it printed, as they come, and its end. */
function workerProcess(database: string, mode: 'hang' | 'run') {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'test/helpers/queue-worker.ts'), database, tempDir(), mode],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const keys: string[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) keys.push(line.split(' ')[1] ?? '');
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, keys, exited };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const duplicates = (keys: string[]) => keys.filter((key, i) => keys.indexOf(key) !== i);

test('two workers in one process on one database run every job once', { skip: withoutPostgres }, async () => {
  const database = await freshDatabase('queue_two');
  const [a, b] = [await hubContext(database), await hubContext(database)] as [Context, Context];
  const keys = await enqueueMany(a, 150);
  const ran: string[] = [];
  const handler = async (job: { idempotencyKey: string }) => {
    ran.push(job.idempotencyKey);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
  };
  const workers = [await startWorker(a, { k: handler }), await startWorker(b, { k: handler })];
  await until(async () => (await queueStatus(a, company, 'k')).done === keys.length, 'every job done');
  await Promise.all(workers.map((w) => w.stop()));
  assert.deepEqual(duplicates(ran), [], 'no job ran twice');
  assert.deepEqual([...ran].sort(), [...keys].sort());
  await a.db.close();
  await b.db.close();
});

test('two worker processes on one database run every job once', { skip: withoutPostgres }, async () => {
  const database = await freshDatabase('queue_processes');
  const ctx = await hubContext(database);
  const keys = await enqueueMany(ctx, 300);
  const workers = [workerProcess(database, 'run'), workerProcess(database, 'run')];
  assert.deepEqual(await Promise.all(workers.map((w) => w.exited)), [0, 0]);
  const ran = workers.flatMap((w) => w.keys);
  assert.deepEqual(duplicates(ran), [], 'no job ran twice');
  assert.deepEqual([...ran].sort(), [...keys].sort());
  assert.ok(
    workers.every((w) => w.keys.length > 0),
    `both processes took jobs (${workers.map((w) => w.keys.length)})`,
  );
  assert.equal((await queueStatus(ctx, company, 'k')).done, keys.length);
  await ctx.db.close();
});

test('the job of a worker killed while it runs it runs again after its claim', { skip: withoutPostgres }, async () => {
  const database = await freshDatabase('queue_killed');
  const clock = manualClock(Date.now());
  const ctx = await hubContext(database, clock);
  await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'gate-1', payload: {}, priority: 'urgent' });
  const doomed = workerProcess(database, 'hang');
  await until(() => doomed.keys.length === 1, 'the first worker to start the job');
  doomed.child.kill('SIGKILL');
  await doomed.exited;

  // The dead worker's claim lasts its attempt time-out (60 s, test/helpers/queue-worker.ts) and the grace (30 s).
  const { createdAt, claimedUntil } = (await ctx.db.prepare('SELECT createdAt, claimedUntil FROM jobs').get()) as {
    createdAt: number;
    claimedUntil: number;
  };
  assert.ok(claimedUntil - createdAt >= 90_000, 'claimed until its deadline and the grace');
  const ran: string[] = [];
  const worker = await startWorker(ctx, { k: async (job) => void ran.push(job.idempotencyKey) }, { idleMs: 20 });
  await worker.drain();
  clock.set(claimedUntil - 1);
  await worker.drain();
  assert.deepEqual(ran, [], 'not taken while the dead worker holds the claim');
  clock.set(claimedUntil);
  await worker.drain();
  await worker.stop();
  assert.deepEqual(ran, ['gate-1'], 'taken over once the claim ran out');
  assert.equal((await queueStatus(ctx, company, 'k')).done, 1);
  await ctx.db.close();
});

test('the endpoints share one breaker: failures add up, one trial goes', { skip: withoutPostgres }, async () => {
  const database = await freshDatabase('queue_breaker');
  const clock = manualClock(Date.now());
  const [a, b] = [await hubContext(database, clock), await hubContext(database, clock)] as [Context, Context];
  let attempts = 0;
  const failing = async () => {
    attempts++;
    await new Promise((resolve) => setTimeout(resolve, 2));
    throw new Error('cannot reach http://dead.test');
  };
  await a.db.transaction(async () => {
    for (let i = 0; i < 20; i++) {
      await enqueue(a, { companyId: company, kind: 'k', endpoint: 'dead', idempotencyKey: `dead-${i}`, payload: {} });
    }
  });
  const workers = [await startWorker(a, { k: failing }), await startWorker(b, { k: failing })];
  await Promise.all(workers.map((w) => w.drain()));
  const opened = attempts;
  assert.ok(opened >= 5 && opened <= 8, `${opened} attempts from both workers before the breaker opened`);
  assert.equal((await queueStatus(a, company, 'k')).pending, 20, 'paused, not lost');

  clock.advance(30_000);
  await Promise.all(workers.map((w) => w.drain()));
  assert.equal(attempts, opened + 1, 'one trial after the cooldown, from one of the two workers');
  await Promise.all(workers.map((w) => w.stop()));
  await a.db.close();
  await b.db.close();
});
