import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { ApiError } from './errors.ts';

/**
 * The limits that keep one client from holding or crashing the service (docs/reliability.md, "Limits").
 */

/**
 * A body whose declared length is over the limit is refused before it is read: body-parser would first read (and
 * drop) every byte of it, so the client would learn only at the end of its upload. Node still drops what the
 * client goes on sending (within the request time-out), so the answer is not lost to a reset connection.
 */
export function refuseDeclaredOver(limit: number): RequestHandler {
  return (req, _res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) throw new ApiError('PAYLOAD_TOO_LARGE');
    next();
  };
}

/** Bodies nest at most this deep: no resource needs more, and deeper input exhausts the stack of code that walks it. */
export const maxBodyDepth = 32;

/** Whether a parsed body nests deeper than `limit`, walked with an explicit stack so the check cannot overflow. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { item: unknown; depth: number }[] = [{ item: value, depth: 0 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.item === null || typeof next.item !== 'object') continue;
    if (next.depth >= limit) return true;
    for (const child of Object.values(next.item)) stack.push({ item: child, depth: next.depth + 1 });
  }
  return false;
}

export interface ServerTimeouts {
  /** The request line and headers must arrive within this (slowloris). */
  headersMs: number;
  /** The whole request, body included, must arrive within this (slow bodies). */
  requestMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveMs: number;
  /** How often connections are checked against the first two. */
  checkIntervalMs: number;
}

/** A kiosk's requests are small and local: 10 s for headers is generous, 60 s lets a 20 MB body through a slow link. */
export const serverTimeouts: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 60_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000,
};

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
