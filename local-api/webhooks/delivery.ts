import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { destinationPolicy } from '../outgoing/policy.ts';
import { OutgoingError, sendRequest } from '../outgoing/request.ts';
import { PermanentJobError, queueStatus } from '../queue/queue.ts';
import { formatInZone } from '../rules/time.ts';

/*
 * What the two kinds of outgoing delivery (gate callbacks and webhooks) share: the HTTP POST of a queued job and
 * the status a company reads of its deliveries.
 */

/** Longest one attempt waits for the peer, connection and answer together (the worker's own limit is 10 s). */
export const attemptTimeoutMs = 8_000;

/** Answers that refuse this very request: sending the same body again cannot help, so the job fails at once. */
const refusedStatuses = new Set([400, 405, 410, 413, 415, 422]);

/**
 * What a company reads of a failed attempt: that its endpoint failed, not what the network said (refused, reset,
 * timed out, not resolved), which would make the status a port scanner. The detail is the `cause`, for the log.
 */
export function deliveryFailure(origin: string, error: unknown): Error {
  const refusedHere = error instanceof OutgoingError && error.kind === 'refused-destination';
  const message = refusedHere ? `${origin}: ${error.message}` : `cannot reach ${origin}`;
  return new Error(message, { cause: error });
}

/**
 * POSTs a body for a queued job, to a destination the device's policy allows, within attemptTimeoutMs. Resolves on
 * 2xx; throws PermanentJobError when `refuses(status)` (sending the same body again cannot help), otherwise throws to
 * have the job retried (network errors, time-outs, redirects, 5xx and the other 4xx, which a change on the peer's
 * side can cure: credentials, a path). Messages name the peer's origin only: a URL may hold credentials.
 */
export async function postForJob(
  ctx: Pick<Context, 'db' | 'runtime'>,
  request: { url: string; body: string; headers: Record<string, string> },
  signal: AbortSignal,
  refuses: (status: number) => boolean,
): Promise<void> {
  const origin = new URL(request.url).origin;
  let status: number;
  try {
    ({ status } = await sendRequest(await destinationPolicy(ctx), {
      url: request.url,
      method: 'POST',
      body: request.body,
      headers: { 'user-agent': 'Portaria', ...request.headers },
      deadlineMs: attemptTimeoutMs,
      signal,
      maxResponseBytes: 0,
    }));
  } catch (error) {
    throw deliveryFailure(origin, error);
  }
  if (status >= 200 && status <= 299) return;
  const message = `${origin} answered HTTP ${status}`;
  if (refuses(status)) throw new PermanentJobError(message);
  throw new Error(message);
}

/** POSTs a JSON body for a queued job (`postForJob`); the statuses above refuse it for good. */
export async function postJson(
  ctx: Pick<Context, 'db' | 'runtime'>,
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  await postForJob(ctx, { url, body, headers: { 'content-type': 'application/json', ...headers } }, signal, (status) =>
    refusedStatuses.has(status),
  );
}

/** A job kind's counts for one company, its oldest pending job's time in the company's zone. */
export async function deliveryStatus(ctx: Context, caller: Caller, kind: string) {
  const status = await queueStatus(ctx, caller.companyId, kind);
  return {
    ...status,
    oldestPendingAt: status.oldestPendingAt === null ? null : formatInZone(status.oldestPendingAt, caller.timeZone),
  };
}
