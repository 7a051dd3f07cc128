import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
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

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${attemptTimeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * POSTs a JSON body for a queued job. Resolves on 2xx; throws to have the job retried (network errors, time-outs,
 * redirects, 5xx and the other 4xx, which a change on the peer's side can cure: credentials, a path) or
 * PermanentJobError for the statuses above. Messages name the peer's origin only: a URL may hold credentials.
 */
export async function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<void> {
  const origin = new URL(url).origin;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'Portaria', ...headers },
      // Credentials and signed bodies go to the configured address only, never where a redirect points.
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(attemptTimeoutMs)]),
    });
  } catch (error) {
    throw new Error(`cannot reach ${origin}: ${reasonOf(error)}`);
  }
  await response.body?.cancel();
  if (response.ok) return;
  const message = `${origin} answered HTTP ${response.status}`;
  if (refusedStatuses.has(response.status)) throw new PermanentJobError(message);
  throw new Error(message);
}

/** A job kind's counts for one company, its oldest pending job's time in the company's zone. */
export function deliveryStatus(ctx: Context, caller: Caller, kind: string) {
  const status = queueStatus(ctx, caller.companyId, kind);
  return {
    ...status,
    oldestPendingAt: status.oldestPendingAt === null ? null : formatInZone(status.oldestPendingAt, caller.timeZone),
  };
}
