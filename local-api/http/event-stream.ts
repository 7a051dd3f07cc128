import type { Request, Response } from 'express';

/*
 * Server-sent events over a plain Express response, for the service's streams (GET /v1/sync/pokes, GET
 * /v1/console/events). Written by hand rather than with better-sse: a stream is four kinds of line (`retry:`, a
 * comment, `event:`, `data:`) on one response, while the library's sessions, channels and history would sit unused
 * and the caps, the coalescing and the service's shutdown would still be ours.
 */

export const eventStreamDefaults = {
  /** How long a client following the standard waits before it reconnects (`retry:`). */
  retryMs: 2_000,
  /** Bytes waiting for a client that does not read; past them the stream ends (it would grow without end). */
  maxUnsentBytes: 16 * 1024,
};

const streamHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // nginx buffers answers unless told not to; an event held in a buffer arrives at the next heartbeat.
  'x-accel-buffering': 'no',
};

/** One event as the stream writes it. */
export const eventText = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`;

/** What a stream's owner does with it: it sends events and ends it. */
export interface OpenStream {
  send(text: string): void;
  end(): void;
}

export interface EventStreamSpec {
  /** The comment the stream opens with: what it carries. */
  about: string;
  /** The event sent first, right after the stream opens. */
  first: string;
  heartbeatMs: number;
  /**
   * Registers the stream with whatever tells it events; answers the function that removes it. May throw (an
   * ApiError: a cap reached) before anything is sent, and may end the stream at once (the service is stopping).
   */
  subscribe(stream: OpenStream): () => void;
  /** Asked at each heartbeat: a caller whose credential was revoked or expired meanwhile has its stream ended. */
  live(): Promise<boolean>;
  options?: typeof eventStreamDefaults;
}

/**
 * Opens the stream: the headers, `retry:`, the comment and the first event, then a heartbeat comment every
 * `heartbeatMs` (which keeps proxies and the client from taking a quiet stream for a dead one) once the caller is
 * found still live. Ends when the client goes, when `end` is called, or when the client stops reading.
 */
export function serveEventStream(req: Request, res: Response, spec: EventStreamSpec): void {
  const options = spec.options ?? eventStreamDefaults;
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
    // A heartbeat's check may answer after the stream ended.
    if (ended) return;
    if (res.writableLength > options.maxUnsentBytes) end();
    else res.write(text);
  };
  unsubscribe = spec.subscribe({ send, end });
  // Ended while subscribing: the service is stopping.
  if (ended) return;
  res.writeHead(200, streamHeaders);
  req.socket.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n: ${spec.about}\n\n${spec.first}`);
  heartbeat = setInterval(() => {
    spec.live().then(
      (live) => (live ? send(': heartbeat\n\n') : end()),
      // The database away for a moment is no reason to drop a client: the next heartbeat asks again.
      () => send(': heartbeat\n\n'),
    );
  }, spec.heartbeatMs);
  res.on('close', end);
}
