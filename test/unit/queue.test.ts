import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enqueue, type Job, PermanentJobError, queueStatus, startWorker } from '../../local-api/queue/queue.ts';
import { maxRetryMs, retryDelay } from '../../local-api/queue/retry.ts';
import { manualClock, seededRandom, testContext } from '../helpers/context.ts';

const company = 'c1';

test('retryDelay grows exponentially with jitter and is capped', () => {
  const random = seededRandom(7);
  for (let attempt = 0; attempt < 30; attempt++) {
    const ceiling = Math.min(maxRetryMs, 1000 * 2 ** attempt);
    const delay = retryDelay(attempt, random);
    assert.ok(delay >= ceiling / 2 && delay <= ceiling, `attempt ${attempt}: ${delay}`);
  }
  const spread = new Set(Array.from({ length: 20 }, () => retryDelay(10, random)));
  assert.ok(spread.size > 10, 'jitter spreads retries');
});

test('a job enqueued twice with one key runs once', async () => {
  const ctx = await testContext();
  const seen: Job[] = [];
  await ctx.db.transaction(async () => {
    await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'a', payload: { n: 1 } });
    await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'a', payload: { n: 2 } });
  });
  const worker = await startWorker(ctx, { k: async (job) => void seen.push(job) });
  await worker.drain();
  await worker.stop();
  assert.equal(seen.length, 1);
  assert.deepEqual(seen[0]?.payload, { n: 1 });
  assert.deepEqual(await queueStatus(ctx, company, 'k'), {
    pending: 0,
    failed: 0,
    done: 1,
    lastError: null,
    oldestPendingAt: null,
  });
});

test('a job to run later waits for its time, and its give-up time counts from then', async () => {
  const clock = manualClock();
  const ctx = await testContext({ clock });
  const ran: number[] = [];
  const worker = await startWorker(ctx, { k: async () => void ran.push(clock.now()) });
  const runAt = clock.now() + 15 * 60_000;
  await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'later', payload: {}, runAt, giveUpAfterMs: 1 });
  await worker.drain();
  assert.deepEqual(ran, [], 'not before its time');
  clock.advance(15 * 60_000);
  await worker.drain();
  await worker.stop();
  assert.deepEqual(ran, [runAt], 'run at its time, not given up for waiting');
});

test('failures are retried after their backoff and given up at the deadline', async () => {
  const clock = manualClock();
  const ctx = await testContext({ clock });
  let calls = 0;
  const worker = await startWorker(ctx, {
    k: async () => {
      calls++;
      throw new Error('gate down');
    },
  });
  await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'b', payload: {}, giveUpAfterMs: 10_000 });
  await worker.drain();
  assert.equal(calls, 1);
  await worker.drain();
  assert.equal(calls, 1, 'not retried before its backoff');
  clock.advance(1_000);
  await worker.drain();
  assert.equal(calls, 2);
  const pending = await queueStatus(ctx, company, 'k');
  assert.equal(pending.pending, 1);
  assert.equal(pending.lastError, 'gate down');
  clock.advance(60_000);
  await worker.drain();
  assert.equal(calls, 3);
  assert.equal((await queueStatus(ctx, company, 'k')).failed, 1);
  clock.advance(600_000);
  await worker.drain();
  assert.equal(calls, 3, 'a failed job is not tried again');
  await worker.stop();
});

test('a permanent error fails the job at once', async () => {
  const ctx = await testContext();
  const worker = await startWorker(ctx, {
    k: async () => {
      throw new PermanentJobError('401 from the gate');
    },
  });
  await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'c', payload: {} });
  await worker.drain();
  await worker.stop();
  assert.equal((await queueStatus(ctx, company, 'k')).failed, 1);
});

/** Closes the database `first` left, opens it again as a new process would, and answers the jobs a worker runs. */
async function jobsRunAfterRestart(first: Awaited<ReturnType<typeof testContext>>): Promise<Job[]> {
  await first.db.close();
  const second = await testContext({ dataDir: first.dataDir });
  const seen: Job[] = [];
  const worker = await startWorker(second, { k: async (job) => void seen.push(job) });
  await worker.drain();
  await worker.stop();
  return seen;
}

test('pending jobs survive a restart: a new worker on the same database runs them', async () => {
  const first = await testContext();
  await enqueue(first, { companyId: company, kind: 'k', idempotencyKey: 'd', payload: { x: 1 } });
  const seen = await jobsRunAfterRestart(first);
  assert.deepEqual(
    seen.map((job) => job.payload),
    [{ x: 1 }],
  );
});

test('a handler that hangs is aborted after the attempt time-out', async () => {
  const ctx = await testContext();
  const worker = await startWorker(
    ctx,
    {
      k: (_job, signal) =>
        new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    },
    { attemptTimeoutMs: 50 },
  );
  await enqueue(ctx, { companyId: company, kind: 'k', idempotencyKey: 'e', payload: {} });
  await worker.drain();
  await worker.stop();
  assert.equal((await queueStatus(ctx, company, 'k')).lastError, 'attempt timed out after 50 ms');
});

test('an endpoint that keeps failing is paused, tried once after its cooldown, and closed by a success', async () => {
  const clock = manualClock();
  const ctx = await testContext({ clock });
  let healthy = false;
  const attempts = { dead: 0, alive: 0 };
  const worker = await startWorker(ctx, {
    k: async (job) => {
      const { to } = job.payload as { to: 'dead' | 'alive' };
      attempts[to]++;
      if (to === 'dead' && !healthy) throw new Error('cannot reach http://dead.test');
    },
  });
  for (let i = 0; i < 10; i++) {
    await enqueue(ctx, {
      companyId: company,
      kind: 'k',
      endpoint: 'dead',
      idempotencyKey: `dead-${i}`,
      payload: { to: 'dead' },
    });
  }
  await enqueue(ctx, {
    companyId: company,
    kind: 'k',
    endpoint: 'alive',
    idempotencyKey: 'alive',
    payload: { to: 'alive' },
  });
  await worker.drain();
  const opened = attempts.dead;
  assert.ok(opened >= 5 && opened <= 6, `${opened} attempts before the breaker opened`);
  assert.equal(attempts.alive, 1, 'the other endpoint is not held up');
  assert.equal((await queueStatus(ctx, company, 'k')).pending, 10, 'paused, not lost');

  clock.advance(29_000);
  await worker.drain();
  assert.equal(attempts.dead, opened, 'nothing is tried while the breaker is open');
  clock.advance(1_000);
  await worker.drain();
  assert.equal(attempts.dead, opened + 1, 'one trial after the cooldown');
  clock.advance(59_000);
  await worker.drain();
  assert.equal(attempts.dead, opened + 1, 'a failed trial doubles the pause (60 s)');

  healthy = true;
  clock.advance(1_000);
  await worker.drain();
  await worker.stop();
  assert.deepEqual(
    { ...(await queueStatus(ctx, company, 'k')), lastError: null },
    { pending: 0, failed: 0, done: 11, lastError: null, oldestPendingAt: null },
    'a successful trial closes the breaker: the rest go',
  );
});

/** Waits (on real time) until `check` holds; fails after 5 s. */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("urgent jobs go first and get a slot while another company's slow jobs hold theirs", async () => {
  const ctx = await testContext();
  const release: (() => void)[] = [];
  const started: string[] = [];
  const worker = await startWorker(
    ctx,
    {
      slow: (job) => {
        started.push(job.idempotencyKey);
        return new Promise<void>((resolve) => release.push(resolve));
      },
      quick: async (job) => void started.push(job.idempotencyKey),
    },
    { concurrency: 4, reservedForUrgent: 1, perCompany: 2 },
  );
  try {
    await ctx.db.transaction(async () => {
      for (let i = 0; i < 30; i++) {
        await enqueue(ctx, {
          companyId: 'B',
          kind: 'slow',
          endpoint: `hook-${i}`,
          idempotencyKey: `b-${i}`,
          payload: {},
        });
      }
      await enqueue(ctx, {
        companyId: 'C',
        kind: 'quick',
        idempotencyKey: 'c-webhook',
        payload: {},
        priority: 'background',
      });
      await enqueue(ctx, {
        companyId: 'A',
        kind: 'quick',
        endpoint: 'gate',
        idempotencyKey: 'a-gate',
        payload: {},
        priority: 'urgent',
      });
    });
    // A's callback, C's webhook and two of B's start; B gets no more while its two run, though slots are free.
    await until(() => started.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(started.length, 4);
    assert.equal(started[0], 'a-gate', 'the urgent job first');
    assert.ok(started.includes('c-webhook'), 'another company is not held up by B');
    assert.equal(started.filter((key) => key.startsWith('b-')).length, 2, 'B runs at most perCompany jobs at once');
    for (const done of release.splice(0)) done();
    await until(() => started.filter((key) => key.startsWith('b-')).length === 4);
    assert.equal(release.length, 2, "B's next jobs start as slots free, two at a time");
  } finally {
    const stopping = worker.stop();
    for (const done of release.splice(0)) done();
    await stopping;
  }
});

test('on SQLite a job claimed by a process that died runs at once at the next start', async () => {
  const first = await testContext();
  await enqueue(first, { companyId: company, kind: 'k', idempotencyKey: 'claimed', payload: {} });
  // What a worker killed mid-attempt leaves: its claim, far from running out.
  await first.db.prepare("UPDATE jobs SET claimedBy = 'dead', claimedUntil = ?").run(Date.now() + 3_600_000);
  const seen = await jobsRunAfterRestart(first);
  assert.deepEqual(
    seen.map((job) => job.idempotencyKey),
    ['claimed'],
  );
});
