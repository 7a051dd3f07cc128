import type { Context } from '../context.ts';
import type { Db } from '../store/db.ts';
import { prepared } from '../store/rows.ts';
import { retryDelay } from './retry.ts';

export interface JobInput {
  companyId: string;
  kind: string;
  /** Same kind and key: one job, however often it is enqueued (kiosks retry). Sent to peers that de-duplicate. */
  idempotencyKey: string;
  payload: unknown;
  /** How long delivery is tried before the job is given up as failed. Default: 3 days. */
  giveUpAfterMs?: number;
}

export interface Job {
  id: number;
  companyId: string;
  kind: string;
  idempotencyKey: string;
  payload: unknown;
  attempts: number;
  createdAt: number;
}

export const defaultGiveUpMs = 3 * 86_400_000;

/** Raised by a handler when trying again cannot help (the peer refused the request as malformed). */
export class PermanentJobError extends Error {}

export type JobHandler = (job: Job, signal: AbortSignal) => Promise<void>;

const wakers = new WeakMap<Db, () => void>();

/** Adds a job. Call it inside the transaction that makes the job necessary; the worker sees it once committed. */
export function enqueue(ctx: Pick<Context, 'db' | 'clock'>, job: JobInput): void {
  const now = ctx.clock.now();
  prepared(
    ctx.db,
    `INSERT INTO jobs (companyId, kind, idempotencyKey, payload, nextAttemptAt, giveUpAt, createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, idempotencyKey) DO NOTHING`,
  ).run(
    job.companyId,
    job.kind,
    job.idempotencyKey,
    JSON.stringify(job.payload),
    now,
    now + (job.giveUpAfterMs ?? defaultGiveUpMs),
    now,
    now,
  );
  const wake = wakers.get(ctx.db);
  if (wake) setImmediate(wake);
}

export interface QueueStatus {
  pending: number;
  failed: number;
  done: number;
  lastError: string | null;
  oldestPendingAt: number | null;
}

export function queueStatus(ctx: Pick<Context, 'db'>, companyId: string, kind: string): QueueStatus {
  const counts = prepared(
    ctx.db,
    'SELECT status, COUNT(*) AS n, MIN(createdAt) AS oldest FROM jobs WHERE companyId = ? AND kind = ? GROUP BY status',
  ).all(companyId, kind) as { status: string; n: number; oldest: number }[];
  const last = prepared(
    ctx.db,
    `SELECT lastError FROM jobs WHERE companyId = ? AND kind = ? AND lastError IS NOT NULL
     ORDER BY updatedAt DESC LIMIT 1`,
  ).get(companyId, kind) as { lastError: string } | undefined;
  const count = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    pending: count('pending'),
    failed: count('failed'),
    done: count('done'),
    lastError: last?.lastError ?? null,
    oldestPendingAt: counts.find((c) => c.status === 'pending')?.oldest ?? null,
  };
}

export interface WorkerOptions {
  /** Jobs run at once. */
  concurrency?: number;
  /** Longest a handler may take before it is aborted and counted as a failed attempt. */
  attemptTimeoutMs?: number;
  /** Longest the worker sleeps when nothing is due (a safety net; enqueue wakes it at once). */
  idleMs?: number;
}

export interface Worker {
  /** Runs due jobs now; resolves when this round has finished. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

interface JobRow {
  id: number;
  companyId: string;
  kind: string;
  idempotencyKey: string;
  payload: string;
  attempts: number;
  giveUpAt: number;
  createdAt: number;
}

/**
 * Runs queued jobs through their kind's handler: due jobs first, failures retried with backoff and jitter until
 * the job's give-up time, then marked failed (visible in `queueStatus`). It sleeps until the next job is due or a
 * new one is enqueued: no polling loop.
 */
export function startWorker(
  ctx: Pick<Context, 'db' | 'clock' | 'random' | 'log'>,
  handlers: Readonly<Record<string, JobHandler>>,
  options: WorkerOptions = {},
): Worker {
  const concurrency = options.concurrency ?? 4;
  const attemptTimeoutMs = options.attemptTimeoutMs ?? 10_000;
  const idleMs = options.idleMs ?? 60_000;
  const kinds = Object.keys(handlers);
  const running = new Map<number, Promise<void>>();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let round: Promise<void> | undefined;
  let followUp: Promise<void> | undefined;

  const dueSql = `SELECT id, companyId, kind, idempotencyKey, payload, attempts, giveUpAt, createdAt FROM jobs
    WHERE status = 'pending' AND nextAttemptAt <= ? AND kind IN (${kinds.map(() => '?').join(', ') || "''"})
    ORDER BY nextAttemptAt LIMIT ?`;

  async function attempt(row: JobRow): Promise<void> {
    const handler = handlers[row.kind];
    if (!handler) return;
    const job: Job = { ...row, payload: JSON.parse(row.payload) as unknown };
    const attemptController = new AbortController();
    const signal = AbortSignal.any([controller.signal, attemptController.signal]);
    const timeout = setTimeout(
      () => attemptController.abort(new Error(`attempt timed out after ${attemptTimeoutMs} ms`)),
      attemptTimeoutMs,
    );
    try {
      await handler(job, signal);
      prepared(ctx.db, "UPDATE jobs SET status = 'done', attempts = attempts + 1, updatedAt = ? WHERE id = ?").run(
        ctx.clock.now(),
        row.id,
      );
    } catch (error) {
      if (stopped) return; // aborted by shutdown: the attempt does not count
      const message = error instanceof Error ? error.message : String(error);
      const now = ctx.clock.now();
      const giveUp = error instanceof PermanentJobError || now >= row.giveUpAt;
      prepared(
        ctx.db,
        `UPDATE jobs SET status = ?, attempts = attempts + 1, lastError = ?, nextAttemptAt = ?, updatedAt = ?
         WHERE id = ?`,
      ).run(
        giveUp ? 'failed' : 'pending',
        message.slice(0, 500),
        now + retryDelay(row.attempts, ctx.random),
        now,
        row.id,
      );
      if (giveUp) ctx.log.warn({ jobId: row.id, kind: row.kind, error: message }, 'job given up');
    } finally {
      clearTimeout(timeout);
    }
  }

  async function runRound(): Promise<void> {
    while (!stopped) {
      const free = concurrency - running.size;
      if (free <= 0) {
        await Promise.race(running.values());
        continue;
      }
      const rows = (prepared(ctx.db, dueSql).all(ctx.clock.now(), ...kinds, free + running.size) as JobRow[]).filter(
        (row) => !running.has(row.id),
      );
      if (rows.length === 0) break;
      for (const row of rows.slice(0, free)) {
        const task = attempt(row).finally(() => running.delete(row.id));
        running.set(row.id, task);
      }
    }
    await Promise.all(running.values());
  }

  function schedule(): void {
    if (stopped) return;
    clearTimeout(timer);
    const next = prepared(
      ctx.db,
      `SELECT MIN(nextAttemptAt) AS at FROM jobs WHERE status = 'pending' AND kind IN (${kinds.map(() => '?').join(', ') || "''"})`,
    ).get(...kinds) as { at: number | null };
    const delay = next.at === null ? idleMs : Math.max(0, Math.min(idleMs, next.at - ctx.clock.now()));
    timer = setTimeout(() => void drain(), delay);
    timer.unref();
  }

  /** A drain asked for while a round runs gets a fresh round after it: the running one may have missed its job. */
  function drain(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!round) {
      round = runRound()
        .catch((error: unknown) => ctx.log.error({ err: error }, 'job worker round failed'))
        .finally(() => {
          round = undefined;
          schedule();
        });
      return round;
    }
    followUp ??= round.then(() => {
      followUp = undefined;
      return drain();
    });
    return followUp;
  }

  wakers.set(ctx.db, () => void drain());
  void drain();
  return {
    drain,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wakers.delete(ctx.db);
      controller.abort();
      await Promise.allSettled(running.values());
    },
  };
}

export interface JobState {
  idempotencyKey: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
}

/** The jobs of one kind whose idempotency key starts with `keyPrefix` (the deliveries of one notification). */
export function jobsWithKeyPrefix(ctx: Pick<Context, 'db'>, companyId: string, kind: string, keyPrefix: string) {
  return prepared(
    ctx.db,
    `SELECT idempotencyKey, status, attempts, lastError FROM jobs
     WHERE kind = ? AND idempotencyKey >= ? AND idempotencyKey < ? AND companyId = ? ORDER BY id`,
  ).all(kind, keyPrefix, `${keyPrefix}\uffff`, companyId) as JobState[];
}
