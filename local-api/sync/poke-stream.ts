import type { Request, Response } from 'express';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { credentialLive } from '../credentials/store.ts';

/*
 * GET /v1/sync/pokes as server-sent events. Written by hand rather than with better-sse: the stream is four kinds
 * of line (`retry:`, a comment, `event:`, `data:`) on one response, about forty lines here, while the library's
 * sessions, channels and history would sit unused and the caps, the coalescing and the service's shutdown would
 * still be ours (pokes.ts).
 */

export const pokeStream = {
  /** How long a client following the standard waits before it reconnects (`retry:`). */
  retryMs: 2_000,
  /** Bytes waiting for a client that does not read; past them the stream ends (it would grow without end). */
  maxUnsentBytes: 16 * 1024,
};

const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // nginx buffers answers unless told not to; a poke held in a buffer arrives at the next heartbeat.
  'x-accel-buffering': 'no',
};

/** The one event the stream carries: the company's feed moved; pull. Nothing else, no data of any row. */
const pokeEvent = 'event: poke\ndata: changed\n\n';

/**
 * Opens the caller's company's stream: refused 429 TOO_MANY_STREAMS past the company's cap, before anything is
 * sent. The first event is a poke, so a kiosk that subscribes pulls what changed while it was not subscribed. A
 * heartbeat comment follows every `heartbeatMs` (pokes.ts), once the caller's credential is found still live: a
 * revoked one's stream ends there, as its next request would be refused.
 */
export function streamPokes(
  ctx: Context,
  caller: Caller,
  clientId: string | undefined,
  req: Request,
  res: Response,
  options: typeof pokeStream = pokeStream,
): void {
  // HEAD asks what GET would answer: the headers, and no stream that never ends.
  if (req.method === 'HEAD') {
    res.writeHead(200, streamHeaders).end();
    return;
  }
  let heartbeat: NodeJS.Timeout | undefined;
  let ended = false;
  let unsubscribe = () => {};
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
  };
  const send = (text: string) => {
    // A heartbeat's credential check may answer after the stream ended.
    if (ended) return;
    if (res.writableLength > options.maxUnsentBytes) end();
    else res.write(text);
  };
  unsubscribe = ctx.pokes.subscribe(caller.companyId, {
    // Kiosks that share a credential (the company's key) are told apart by their client ids.
    kiosk: `${caller.credentialId}/${clientId ?? ''}`,
    poke: () => send(pokeEvent),
    end,
  });
  // Ended while subscribing: the service is stopping.
  if (ended) return;
  res.writeHead(200, streamHeaders);
  req.socket.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n: pokes of this company's change feed\n\n${pokeEvent}`);
  heartbeat = setInterval(() => {
    credentialLive(ctx, caller.credentialId).then(
      (live) => (live ? send(': heartbeat\n\n') : end()),
      // The database away for a moment is no reason to drop a kiosk: the next heartbeat asks again.
      () => send(': heartbeat\n\n'),
    );
  }, ctx.pokes.limits.heartbeatMs);
  res.on('close', end);
}
