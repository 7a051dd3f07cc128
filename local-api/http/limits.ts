import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.ts';

/**
 * The limits that keep one client from holding or crashing the service (docs/reliability.md, "Limits").
 */

/**
 * A body whose declared length is over the limit is refused before it is read: body-parser would first read (and
 * drop) every byte of it, so the client would learn only at the end of its upload. Node still drops what the
 * client goes on sending (within the request time-out): a connection closed at once made clients that were still
 * sending fail with EPIPE instead of reading the answer.
 */
export function refuseDeclaredOver(limit: number): RequestHandler {
  return (req, _res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limit)
      throw new ApiError('PAYLOAD_TOO_LARGE', { maxBytes: limit });
    next();
  };
}

/**
 * What a JSON or form body may cost. Parsing is synchronous: a body of a million keys held every other request
 * for seconds, so its size, its values and its depth are bounded before `JSON.parse` sees it. The size holds a
 * kiosk's picture and signed NDA in Base64 (tens of kB each) and a sync push (at most 1 MB of mutations); larger
 * files travel as themselves (`PUT /v1/visit/:id/picture`…), read without parsing.
 */
export const bodyLimits = {
  /** Bytes of a JSON or form body (2 MiB). */
  maxBytes: 2 * 2 ** 20,
  /** Keys, items and values of a JSON body (each `{`, `[`, `,` and `:` counts one). */
  maxValues: 50_000,
  /** Nesting: deeper input exhausts the stack of code that walks it. */
  maxDepth: 32,
} as const;

/** Parameters of a form-encoded body (`a[b]=1&…`): forms are small; more is 413 PAYLOAD_TOO_LARGE. */
export const formParameterLimit = 2000;

const quote = 0x22;
const backslash = 0x5c;
const opening = new Set([0x7b, 0x5b]);
const closing = new Set([0x7d, 0x5d]);
const separators = new Set([0x2c, 0x3a]);

/**
 * Refuses a JSON body over the value or depth limit, from its bytes, before it is parsed: 413 PAYLOAD_TOO_LARGE
 * (with `maxValues`) or 400 INVALID_BODY. One pass that stops at the first excess; strings are skipped with
 * `indexOf`, so a Base64 picture costs next to nothing. Malformed JSON passes: the parser refuses it.
 */
export function checkJsonCost(bytes: Buffer, limits: { maxValues: number; maxDepth: number } = bodyLimits): void {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte === quote) {
      let end = bytes.indexOf(quote, i + 1);
      // A quote preceded by an odd number of backslashes is escaped: look further.
      while (end > 0) {
        let slashes = 0;
        while (bytes[end - 1 - slashes] === backslash) slashes++;
        if (slashes % 2 === 0) break;
        end = bytes.indexOf(quote, end + 1);
      }
      if (end < 0) return;
      i = end;
    } else if (opening.has(byte)) {
      values++;
      if (++depth > limits.maxDepth) throw new ApiError('INVALID_BODY');
    } else if (closing.has(byte)) {
      depth--;
    } else if (separators.has(byte)) {
      values++;
    }
    if (values > limits.maxValues) throw new ApiError('PAYLOAD_TOO_LARGE', { maxValues: limits.maxValues });
  }
}

export interface ServerTimeouts {
  /**
   * The request line and headers must arrive within this (slowloris); the first request's, counted from the
   * connection's start (`closeSilentConnections`).
   */
  headersMs: number;
  /** The whole request, body included, must arrive within this (slow bodies). */
  requestMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
  /** How often connections are checked against the first two. */
  checkIntervalMs: number;
  /** Connections waiting for their first request, at most; past it the oldest is closed (`closeSilentConnections`). */
  maxSilentConnections: number;
}

/** A kiosk's requests are small and local: 10 s for headers is generous, 60 s lets a 10 MB PDF through a slow link. */
export const serverTimeouts: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
  maxSilentConnections: 256,
};

/**
 * Node times a request's headers from its first byte, so a connection that sends nothing is never timed out: 2,000
 * of them stayed open for good, and under `ulimit -n 512` they took every descriptor, failing every client. Here a
 * connection's first request must have its headers within `headersMs` of the connection's start, or the connection
 * is closed (answered 408 if it sent part of a request). And at most `maxSilentConnections` connections may wait
 * for their first request: a new one past that closes the oldest waiting one rather than being refused, because on
 * a kiosk every client is 127.0.0.1 and refusing by address or by count would lock the kiosk's own page out; a real
 * client sends its request as it connects, so it is never the oldest waiting.
 */
export function closeSilentConnections(
  server: Server,
  limits: Pick<ServerTimeouts, 'headersMs' | 'maxSilentConnections'>,
): void {
  /** Connections without a first request yet, oldest first, with their time-outs. */
  const waiting = new Map<Socket, NodeJS.Timeout>();
  const settle = (socket: Socket) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  const cut = (socket: Socket) => {
    settle(socket);
    if (socket.bytesRead === 0) socket.destroy();
    else answerClientError(Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
  };
  server.on('connection', (socket: Socket) => {
    waiting.set(socket, setTimeout(() => cut(socket), limits.headersMs).unref());
    socket.once('close', () => settle(socket));
    for (const [oldest] of waiting) {
      if (waiting.size <= limits.maxSilentConnections) break;
      cut(oldest);
    }
  });
  server.on('request', (req: IncomingMessage) => settle(req.socket));
}

const clientErrorAnswers: Readonly<Record<string, { status: string; type: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: '408 Request Timeout', type: 'REQUEST_TIMEOUT' },
  HPE_HEADER_OVERFLOW: { status: '431 Request Header Fields Too Large', type: 'HEADERS_TOO_LARGE' },
};

/**
 * Node's answer to a request it cannot parse (a malformed header, two Content-Lengths, a body cut short, a time-out)
 * is a bare status line; this one is the JSON `{type}` every other error has. The connection is closed after it.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  // A response already started on this connection cannot be replaced; a reset client cannot be answered.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const answer = clientErrorAnswers[error.code ?? ''] ?? { status: '400 Bad Request', type: 'BAD_REQUEST' };
  const body = JSON.stringify({ type: answer.type });
  // The answer to HEAD has the headers of the body it does not carry.
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${answer.status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}
