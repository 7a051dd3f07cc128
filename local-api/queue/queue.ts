import { type Context, inTransaction, runtimePart } from '../context.ts';
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
  /**
   * Where the job goes, within its company (`gate`, `webhook:<id>`): slots are shared between endpoints, and an
   * endpoint that keeps failing is paused (the circuit breaker). Default: the kind.
   */
  endpoint?: string;
  /**
   * Not before this time (Unix ms): a reminder before a guest is expected, an escalation when a host has not
   * answered. Its give-up time counts from then. Default: now.
   */
  runAt?: number;
  /** Default: `normal`. `urgent` jobs (gate callbacks: a visitor waits at the turnstile) go first. */
  priority?: JobPriority;
}

export const jobPriorities = { urgent: 0, normal: 1, background: 2 } as const;
export type JobPriority = keyof typeof jobPriorities;

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

/** The service's worker, woken when a job is added (`startWorker`). */
const workerOf = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart<{ wake: (() => void) | undefined }>(ctx, 'queue.worker', () => ({ wake: undefined }));

/** Adds a job. Call it inside the transaction that makes the job necessary; the worker sees it once committed. */
export async function enqueue(ctx: Pick<Context, 'db' | 'clock' | 'runtime'>, job: JobInput): Promise<void> {
  const now = ctx.clock.now();
  const due = Math.max(now, job.runAt ?? now);
  await prepared(
    ctx.db,
    `INSERT INTO jobs (companyId, kind, endpoint, priority, idempotencyKey, payload, nextAttemptAt, giveUpAt,
       createdAt, updatedAt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, idempotencyKey) DO NOTHING`,
  ).run(
    job.companyId,
    job.kind,
    job.endpoint ?? job.kind,
    jobPriorities[job.priority ?? 'normal'],
    job.idempotencyKey,
    JSON.stringify(job.payload),
    due,
    due + (job.giveUpAfterMs ?? defaultGiveUpMs),
    now,
    now,
  );
  const { wake } = workerOf(ctx);
  if (wake) await ctx.db.afterCommit(wake);
}

export interface QueueStatus {
  pending: number;
  failed: number;
  done: number;
  lastError: string | null;
  oldestPendingAt: number | null;
}

export async function queueStatus(ctx: Pick<Context, 'db'>, companyId: string, kind: string): Promise<QueueStatus> {
  const counts = (await prepared(
    ctx.db,
    'SELECT status, COUNT(*) AS n, MIN(createdAt) AS oldest FROM jobs WHERE companyId = ? AND kind = ? GROUP BY status',
  ).all(companyId, kind)) as { status: string; n: number; oldest: number }[];
  const last = (await prepared(
    ctx.db,
    `SELECT lastError FROM jobs WHERE companyId = ? AND kind = ? AND lastError IS NOT NULL
     ORDER BY updatedAt DESC LIMIT 1`,
  ).get(companyId, kind)) as { lastError: string } | undefined;
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
  /** Jobs run at once (each is a wait on a peer, not CPU). */
  concurrency?: number;
  /** Slots only `urgent` jobs may take: gate callbacks are never stuck behind other work. */
  reservedForUrgent?: number;
  /** Non-urgent jobs of one company run at once: one company's slow endpoints cannot take every slot. */
  perCompany?: number;
  /** Jobs of one endpoint run at once (one while its breaker tries it again). */
  perEndpoint?: number;
  /** Consecutive failed attempts that open an endpoint's circuit breaker. */
  breakerThreshold?: number;
  /** The first pause of an open breaker; each failed trial doubles it, up to `breakerMaxMs`. */
  breakerCooldownMs?: number;
  breakerMaxMs?: number;
  /** Longest a handler may take before it is aborted and counted as a failed attempt. */
  attemptTimeoutMs?: number;
  /** Longest the worker sleeps when nothing is due (a safety net; enqueue wakes it at once). */
  idleMs?: number;
  /**
   * How long a claim outlives its attempt's deadline: another process takes a job whose claim ran out (its worker
   * died). It covers the clocks of hub machines that differ a little, and an event loop busy at the deadline.
   */
  leaseGraceMs?: number;
}

export const defaultWorkerOptions: Required<WorkerOptions> = {
  concurrency: 16,
  reservedForUrgent: 4,
  perCompany: 4,
  perEndpoint: 2,
  breakerThreshold: 5,
  breakerCooldownMs: 30_000,
  breakerMaxMs: 10 * 60_000,
  attemptTimeoutMs: 10_000,
  idleMs: 60_000,
  leaseGraceMs: 30_000,
};

export interface Worker {
  /** Runs due jobs now; resolves once none is running and none that may start is due. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

interface JobRow {
  id: number;
  companyId: string;
  kind: string;
  endpoint: string;
  priority: number;
  idempotencyKey: string;
  payload: string;
  attempts: number;
  giveUpAt: number;
  createdAt: number;
  /** Consecutive failed attempts at the job's endpoint, as its breaker counts them. */
  endpointFailures: number;
}

/** An endpoint's circuit breaker (`job_endpoints`): closed below the threshold, open until `openUntil`. */
interface Breaker {
  failures: number;
  openUntil: number | null;
  cooldownMs: number;
}

/**
 * Runs queued jobs through their kind's handler: urgent ones first, then by due time, sharing the slots fairly
 * (at most `perCompany` non-urgent jobs of one company and `perEndpoint` of one endpoint at once, `reservedForUrgent`
 * slots kept for urgent ones). Failures are retried with backoff and jitter until the job's give-up time, then
 * marked failed (visible in `queueStatus`). An endpoint whose attempts fail `breakerThreshold` times in a row is
 * paused: its jobs wait, untried, for the cooldown, then one trial goes; success closes the breaker, failure doubles
 * the pause. Each finished attempt and each enqueue fills the free slots at once; a timer wakes the worker when the
 * next job is due: no polling loop.
 *
 * Several processes may run workers on one database (hub processes on PostgreSQL, docs/deployment.md). A job runs
 * where it was claimed: the claim is one conditional update (on PostgreSQL of a row locked with SKIP LOCKED, so
 * workers never wait on each other's claims), held until the attempt's deadline and `leaseGraceMs`; a process that
 * dies while it runs a job leaves a claim that runs out, and another worker takes the job then. The breakers are
 * rows every process reads and writes (`job_endpoints`), and a breaker's trial is claimed as well: one trial goes,
 * whichever process sends it. The slot limits are each process's own: they share its sockets and memory, and N
 * processes send up to N times `perCompany` and `perEndpoint` jobs at once.
 */
export async function startWorker(
  ctx: Pick<Context, 'db' | 'clock' | 'random' | 'log' | 'runtime'>,
  handlers: Readonly<Record<string, JobHandler>>,
  options: WorkerOptions = {},
): Promise<Worker> {
  const settings = { ...defaultWorkerOptions, ...options };
  const kinds = Object.keys(handlers);
  const kindList = kinds.map(() => '?').join(', ') || "''";
  const running = new Map<number, { row: JobRow; done: Promise<void>; controller: AbortController }>();
  /** Names this worker's claims: another worker's are not its to settle. */
  const workerId = ctx.random.bytes(16).toString('base64url');
  const leaseMs = settings.attemptTimeoutMs + settings.leaseGraceMs;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const endpointKey = (row: Pick<JobRow, 'companyId' | 'endpoint'>) => `${row.companyId}\u0000${row.endpoint}`;

  // The heads of each endpoint's due, unclaimed jobs, most urgent and oldest first: a backlog at one endpoint
  // cannot hide another endpoint's job from the scan. Endpoints whose breaker is open are left out.
  const candidatesSql = `SELECT due.id, due.companyId, due.kind, due.endpoint, due.priority, due.idempotencyKey,
      due.payload, due.attempts, due.giveUpAt, due.createdAt, COALESCE(e.failures, 0) AS endpointFailures FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY companyId, endpoint ORDER BY priority, nextAttemptAt, id) AS place
      FROM jobs WHERE status = 'pending' AND nextAttemptAt <= ? AND (claimedUntil IS NULL OR claimedUntil <= ?)
        AND kind IN (${kindList})) AS due
    LEFT JOIN job_endpoints AS e ON e.companyId = due.companyId AND e.endpoint = due.endpoint
    WHERE due.place <= ? AND (e.openUntil IS NULL OR e.openUntil <= ?)
    ORDER BY due.priority, due.nextAttemptAt, due.id LIMIT ?`;

  // SQLite has no row locks (a write holds the whole database, so the update alone is exclusive); PostgreSQL's
  // SKIP LOCKED passes over a job another worker is claiming instead of waiting for it.
  const claimSql = `UPDATE jobs SET claimedBy = ?, claimedUntil = ? WHERE id = (
      SELECT id FROM jobs WHERE id = ? AND status = 'pending' AND (claimedUntil IS NULL OR claimedUntil <= ?)
        AND NOT EXISTS (SELECT 1 FROM job_endpoints AS e
          WHERE e.companyId = jobs.companyId AND e.endpoint = jobs.endpoint AND e.openUntil > ?)
      ${ctx.db.sqlite ? '' : 'FOR UPDATE SKIP LOCKED'})`;

  /** Takes the job for this worker until its lease runs out; false when another worker holds it or ran it. */
  async function claim(row: JobRow, now: number): Promise<boolean> {
    return (await prepared(ctx.db, claimSql).run(workerId, now + leaseMs, row.id, now, now)).changes === 1;
  }

  /** Takes an open breaker's one trial: the endpoint stays closed to every other attempt while it runs. */
  async function claimTrial(row: JobRow, now: number): Promise<boolean> {
    return (
      (
        await prepared(
          ctx.db,
          `UPDATE job_endpoints SET openUntil = ?, updatedAt = ? WHERE companyId = ? AND endpoint = ? AND failures >= ?
         AND (openUntil IS NULL OR openUntil <= ?)`,
        ).run(now + leaseMs, now, row.companyId, row.endpoint, settings.breakerThreshold, now)
      ).changes === 1
    );
  }

  async function release(row: JobRow): Promise<void> {
    await prepared(ctx.db, 'UPDATE jobs SET claimedBy = NULL, claimedUntil = NULL WHERE id = ? AND claimedBy = ?').run(
      row.id,
      workerId,
    );
  }

  async function recordSuccess(row: JobRow): Promise<void> {
    const now = ctx.clock.now();
    // Done, whoever holds the claim now: the peer has it, and a worker that took the job over must not send it again.
    await prepared(
      ctx.db,
      `UPDATE jobs SET status = 'done', attempts = attempts + 1, claimedBy = NULL, claimedUntil = NULL, updatedAt = ?
       WHERE id = ?`,
    ).run(now, row.id);
    await prepared(ctx.db, 'DELETE FROM job_endpoints WHERE companyId = ? AND endpoint = ?').run(
      row.companyId,
      row.endpoint,
    );
  }

  /** Pauses an endpoint: its pending jobs wait for the trial; those whose give-up time comes first fail now. */
  async function openBreaker(row: JobRow, breaker: Breaker, message: string, detail: string): Promise<void> {
    const now = ctx.clock.now();
    const cooldownMs =
      breaker.cooldownMs === 0 ? settings.breakerCooldownMs : Math.min(settings.breakerMaxMs, breaker.cooldownMs * 2);
    const openUntil = now + cooldownMs;
    await prepared(
      ctx.db,
      'UPDATE job_endpoints SET openUntil = ?, cooldownMs = ?, updatedAt = ? WHERE companyId = ? AND endpoint = ?',
    ).run(openUntil, cooldownMs, now, row.companyId, row.endpoint);
    const given = await prepared(
      ctx.db,
      `UPDATE jobs SET status = 'failed', lastError = ?, updatedAt = ?
       WHERE companyId = ? AND endpoint = ? AND status = 'pending' AND giveUpAt <= ?`,
    ).run(`${message} (kept failing; given up)`.slice(0, 500), now, row.companyId, row.endpoint, openUntil);
    await prepared(
      ctx.db,
      `UPDATE jobs SET nextAttemptAt = ? WHERE companyId = ? AND endpoint = ? AND status = 'pending'
       AND nextAttemptAt < ?`,
    ).run(openUntil, row.companyId, row.endpoint, openUntil);
    ctx.log.warn(
      {
        companyId: row.companyId,
        endpoint: row.endpoint,
        failures: breaker.failures,
        pausedMs: cooldownMs,
        givenUp: given.changes,
        error: detail,
      },
      'endpoint keeps failing: paused',
    );
  }

  async function recordFailure(row: JobRow, trial: boolean, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error ? (error.cause as { detail?: string } | undefined) : undefined;
    const now = ctx.clock.now();
    const permanent = error instanceof PermanentJobError;
    const giveUp = permanent || now >= row.giveUpAt;
    const recorded = await inTransaction(ctx, async () => {
      const updated = await prepared(
        ctx.db,
        `UPDATE jobs SET status = ?, attempts = attempts + 1, lastError = ?, nextAttemptAt = ?, claimedBy = NULL,
         claimedUntil = NULL, updatedAt = ? WHERE id = ? AND claimedBy = ?`,
      ).run(
        giveUp ? 'failed' : 'pending',
        message.slice(0, 500),
        now + retryDelay(row.attempts, ctx.random),
        now,
        row.id,
        workerId,
      );
      // The claim ran out and another worker took the job (or finished it): the outcome is theirs to record.
      if (updated.changes === 0) return false;
      // A refusal of this one request says nothing of the endpoint's health.
      if (permanent) return true;
      const breaker = (await prepared(
        ctx.db,
        `INSERT INTO job_endpoints (companyId, endpoint, failures, updatedAt) VALUES (?, ?, 1, ?)
         ON CONFLICT (companyId, endpoint) DO UPDATE SET failures = job_endpoints.failures + 1,
           updatedAt = excluded.updatedAt
         RETURNING failures, openUntil, cooldownMs`,
      ).get(row.companyId, row.endpoint, now)) as Breaker;
      // A failed trial opens the breaker again; other failures open it once the threshold is reached, not again
      // while it is open (attempts that started before it opened end while it is).
      if (trial || (breaker.failures >= settings.breakerThreshold && (breaker.openUntil ?? 0) <= now)) {
        await openBreaker(row, breaker, message, cause?.detail ?? message);
      }
      return true;
    });
    if (!recorded) ctx.log.warn({ jobId: row.id, kind: row.kind }, 'job taken over by another worker: claim ran out');
    else if (giveUp) ctx.log.warn({ jobId: row.id, kind: row.kind, error: message }, 'job given up');
  }

  async function attempt(row: JobRow, trial: boolean, controller: AbortController): Promise<void> {
    const handler = handlers[row.kind];
    if (!handler) return;
    const job: Job = { ...row, payload: JSON.parse(row.payload) as unknown };
    // The worker's own deadline: the attempt ends with it even if the handler ignores its signal.
    let expire: () => void = () => undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      expire = () => {
        const reason = new Error(`attempt timed out after ${settings.attemptTimeoutMs} ms`);
        controller.abort(reason);
        reject(reason);
      };
    });
    const timeout = setTimeout(expire, settings.attemptTimeoutMs);
    try {
      await Promise.race([handler(job, controller.signal), expired]);
      await recordSuccess(row);
    } catch (error) {
      // Aborted by shutdown: the attempt does not count, and the job is free for another worker at once.
      if (stopped) await release(row);
      else await recordFailure(row, trial, error);
    } finally {
      clearTimeout(timeout);
    }
  }

  /** Whether `row` may take one of this worker's slots now, given what runs; and whether it is a breaker's trial. */
  function slotFor(row: JobRow): { trial: boolean } | undefined {
    const jobs = [...running.values()].map((r) => r.row);
    const urgent = row.priority === jobPriorities.urgent;
    if (!urgent) {
      const nonUrgent = jobs.filter((j) => j.priority !== jobPriorities.urgent).length;
      if (nonUrgent >= settings.concurrency - settings.reservedForUrgent) return undefined;
      const ofCompany = jobs.filter((j) => j.companyId === row.companyId && j.priority !== jobPriorities.urgent);
      if (ofCompany.length >= settings.perCompany) return undefined;
    }
    const key = endpointKey(row);
    const trial = row.endpointFailures >= settings.breakerThreshold;
    const atEndpoint = jobs.filter((j) => endpointKey(j) === key).length;
    return atEndpoint < (trial ? 1 : settings.perEndpoint) ? { trial } : undefined;
  }

  /** Claims `row` and starts it, if it may start here; false when it may not or another worker has it. */
  async function start(row: JobRow, now: number): Promise<boolean> {
    const slot = slotFor(row);
    if (!slot || !(await claim(row, now))) return false;
    if (slot.trial && !(await claimTrial(row, now))) {
      await release(row);
      return false;
    }
    const controller = new AbortController();
    const done = attempt(row, slot.trial, controller)
      .catch((error: unknown) => ctx.log.error({ err: error }, 'job attempt failed unexpectedly'))
      .finally(async () => {
        running.delete(row.id);
        void (await wake());
      });
    running.set(row.id, { row, done, controller });
    return true;
  }

  /** Starts what may start; then sleeps until the next job is due or the next claim runs out. */
  async function pump(): Promise<void> {
    if (stopped) return;
    const now = ctx.clock.now();
    if (running.size < settings.concurrency) {
      const rows = (await prepared(ctx.db, candidatesSql).all(
        now,
        now,
        ...kinds,
        settings.perEndpoint,
        now,
        500,
      )) as JobRow[];
      for (const row of rows) {
        if (running.size >= settings.concurrency) break;
        if (!running.has(row.id)) await start(row, now);
      }
    }
    clearTimeout(timer);
    const next = (await prepared(
      ctx.db,
      `SELECT MIN(CASE WHEN claimedUntil > nextAttemptAt THEN claimedUntil ELSE nextAttemptAt END) AS at FROM jobs
       WHERE status = 'pending' AND kind IN (${kindList}) AND (nextAttemptAt > ? OR claimedUntil > ?)`,
    ).get(...kinds, now, now)) as { at: number | null };
    const delay = next.at === null ? settings.idleMs : Math.max(0, Math.min(settings.idleMs, next.at - now));
    timer = setTimeout(() => void wake(), delay);
    timer.unref();
  }

  let pumping: Promise<void> | undefined;
  let pumpAgain = false;
  /** Pumps, one pump at a time: a wake while one runs makes it run once more after (each pump awaits the store). */
  function wake(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        await pump();
      } while (pumpAgain && !stopped);
    })()
      .catch((error: unknown) => ctx.log.error({ err: error }, 'job queue pump failed'))
      .finally(() => {
        pumping = undefined;
      });
    return pumping;
  }

  async function drain(): Promise<void> {
    for (;;) {
      await wake();
      if (stopped) return;
      // A job that ended as the pump did has woken another pump: it may start more.
      if (running.size === 0 && !pumping) return;
      if (running.size > 0) await Promise.race([...running.values()].map((r) => r.done));
    }
  }

  // On SQLite this process holds the data folder (its lock): a claim found now is a dead process's (a kiosk that
  // lost power mid-callback), and its job goes at once rather than after the claim. On PostgreSQL other processes
  // hold claims; a dead one's run out.
  if (ctx.db.sqlite)
    await prepared(ctx.db, 'UPDATE jobs SET claimedBy = NULL, claimedUntil = NULL WHERE claimedBy IS NOT NULL').run();
  workerOf(ctx).wake = () => void wake();
  await wake();
  return {
    drain,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      workerOf(ctx).wake = undefined;
      for (const r of running.values()) r.controller.abort(new Error('the service is stopping'));
      await Promise.allSettled([...running.values()].map((r) => r.done));
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
export async function jobsWithKeyPrefix(ctx: Pick<Context, 'db'>, companyId: string, kind: string, keyPrefix: string) {
  return (await prepared(
    ctx.db,
    `SELECT idempotencyKey, status, attempts, lastError FROM jobs
     WHERE kind = ? AND idempotencyKey >= ? AND idempotencyKey < ? AND companyId = ? ORDER BY id`,
  ).all(kind, keyPrefix, `${keyPrefix}\uffff`, companyId)) as JobState[];
}
