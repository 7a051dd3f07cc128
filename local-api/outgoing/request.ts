import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { type DestinationPolicy, type Refusal, refusalOf, refusalWords } from './destinations.ts';

/*
 * Every request the service makes to another machine goes through here: it is sent to an address the destination
 * policy allows (checked on the address each connection is made to, after DNS), and it ends by its deadline
 * whatever the peer does (a listener that accepts and never answers, a stopped process, a trickle of bytes). The
 * deadline is a timer of our own that destroys the request: signals derived with AbortSignal.any can stop
 * propagating on Node 20 (docs/reliability.md, "Outgoing requests").
 */

export type FailureKind = 'refused-destination' | 'timeout' | 'unreachable' | 'aborted' | 'too-large';

/** A request that got no usable answer. `message` is fit for the company that configured it; `detail` for the log. */
export class OutgoingError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'OutgoingError';
  }
}

function refused(host: string, refusal: Refusal): OutgoingError {
  return new OutgoingError(
    'refused-destination',
    'the destination is not allowed on this device',
    `${host} is ${refusalWords[refusal]}`,
  );
}

/** A `lookup` for net.connect that resolves the name, then keeps only the addresses the policy allows. */
function checkedLookup(policy: DestinationPolicy, port: number): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const addresses = found as LookupAddress[];
      const allowed = addresses.filter((a) => refusalOf(policy, a.address, port) === undefined);
      const first = allowed[0];
      if (!first) {
        const refusal = refusalOf(policy, addresses[0]?.address ?? '', port) ?? 'link-local-or-reserved';
        return callback(refused(hostname, refusal), '', 0);
      }
      // biome-ignore lint/suspicious/noExplicitAny: net's LookupFunction callback is typed for one address only, but is called with `all` when autoSelectFamily asks for it
      if (options.all) return (callback as any)(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}

/** An address literal (the URL parser has already turned `127.1` and `2130706433` into `127.0.0.1`) is judged here. */
function refuseLiteral(policy: DestinationPolicy, host: string, port: number): void {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return;
  const refusal = refusalOf(policy, bare, port);
  if (refusal) throw refused(host, refusal);
}

function networkFailure(error: unknown): OutgoingError {
  if (error instanceof OutgoingError) return error;
  const err = error as { code?: string; message?: string };
  const reason = err.code ?? err.message ?? String(error);
  return new OutgoingError('unreachable', `unreachable (${reason})`, reason);
}

export interface OutgoingRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** From the start to the last byte of the answer: connection, request, answer. */
  deadlineMs: number;
  /** From the start to the answer's status line, when sooner than `deadlineMs`: a silent peer is noticed early. */
  headersDeadlineMs?: number;
  /** Ends the request early (the service stopping). */
  signal?: AbortSignal;
  /** Answers longer than this fail; 0 reads none of the body (it is discarded). */
  maxResponseBytes: number;
}

export interface OutgoingResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The URL of a request, checked: http(s) only, an address literal judged by the policy at once. */
function target(policy: DestinationPolicy, address: string): { url: URL; port: number } {
  const url = new URL(address);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutgoingError('refused-destination', 'not an http(s) URL', url.protocol);
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  refuseLiteral(policy, url.hostname, port);
  return { url, port };
}

/** The request itself, on a connection of its own to an address the policy allows. */
function open(
  policy: DestinationPolicy,
  { url, port }: { url: URL; port: number },
  method: string,
  headers: Record<string, string>,
): ClientRequest {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { method, headers, agent: false, lookup: checkedLookup(policy, port) });
}

/**
 * One HTTP(S) request under the policy and a deadline. Redirects are not followed (credentials and signed bodies
 * go to the configured address only). Each request has its own connection, so every connection is checked.
 */
export function sendRequest(policy: DestinationPolicy, options: OutgoingRequest): Promise<OutgoingResponse> {
  return new Promise((resolve, reject) => {
    let checked: { url: URL; port: number };
    try {
      checked = target(policy, options.url);
    } catch (error) {
      reject(error);
      return;
    }
    let settled = false;
    let req: ClientRequest | undefined;
    const finish = (error: OutgoingError | undefined, response?: OutgoingResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(headersTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) {
        req?.destroy();
        reject(error);
      } else if (response) resolve(response);
    };
    const expire = (ms: number) => () =>
      finish(new OutgoingError('timeout', `no answer within ${ms / 1000} s`, `deadline of ${ms / 1000} s`));
    const timer = setTimeout(expire(options.deadlineMs), options.deadlineMs);
    const headersMs = options.headersDeadlineMs ?? options.deadlineMs;
    const headersTimer = setTimeout(expire(headersMs), headersMs);
    const onAbort = () => finish(new OutgoingError('aborted', 'stopped', 'the service is stopping'));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });

    req = open(policy, checked, options.method ?? 'GET', {
      ...options.headers,
      ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
    });
    req.on('error', (error) => finish(networkFailure(error)));
    req.on('response', (res) => {
      clearTimeout(headersTimer);
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (options.maxResponseBytes === 0) return;
        size += chunk.length;
        if (size > options.maxResponseBytes) {
          finish(new OutgoingError('too-large', 'answer too large', `over ${options.maxResponseBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (error) => finish(networkFailure(error)));
      res.on('end', () =>
        finish(undefined, {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end(options.body);
  });
}

export interface OutgoingStreamRequest {
  url: string;
  headers?: Record<string, string>;
  /** From the start to the answer's status line. */
  headersDeadlineMs: number;
  /** Once answering, the longest silence (the peer's heartbeat comes more often); past it the stream ends. */
  idleMs: number;
  /** Ends the stream (the service stopping). */
  signal: AbortSignal;
}

export interface OutgoingStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Called with each piece of the answer as it arrives. */
  onData(listener: (text: string) => void): void;
  /** Resolves when the stream has ended, whichever way: the peer, the network, the idle time-out, the signal. */
  ended: Promise<void>;
  /** Ends it from this side (an answer that is not the stream asked for). */
  close(): void;
}

/**
 * A GET whose answer is read as it comes (server-sent events), under the policy. It resolves once the status line
 * arrives within `headersDeadlineMs`. Its socket holds no process open: a service stopping ends it by the signal,
 * and a process that exits without stopping is not kept alive by a stream that never ends. Silence beyond `idleMs`
 * (a socket timer of Node's, which fires on a half-open connection) ends it.
 */
export function openStream(policy: DestinationPolicy, options: OutgoingStreamRequest): Promise<OutgoingStream> {
  return new Promise((resolve, reject) => {
    let checked: { url: URL; port: number };
    try {
      checked = target(policy, options.url);
    } catch (error) {
      reject(error);
      return;
    }
    if (options.signal.aborted) {
      reject(new OutgoingError('aborted', 'stopped', 'the service is stopping'));
      return;
    }
    const req = open(policy, checked, 'GET', options.headers ?? {});
    let ended!: () => void;
    const done = new Promise<void>((resolveEnded) => {
      ended = resolveEnded;
    });
    const stop = (error: OutgoingError) => {
      clearTimeout(headersTimer);
      options.signal.removeEventListener('abort', onAbort);
      req.destroy();
      reject(error);
      ended();
    };
    const headersTimer = setTimeout(
      () => stop(new OutgoingError('timeout', `no answer within ${options.headersDeadlineMs / 1000} s`, 'headers')),
      options.headersDeadlineMs,
    );
    const onAbort = () => stop(new OutgoingError('aborted', 'stopped', 'the service is stopping'));
    options.signal.addEventListener('abort', onAbort, { once: true });
    req.on('socket', (socket) => socket.unref());
    req.setTimeout(options.idleMs, () =>
      stop(new OutgoingError('timeout', `silent for ${options.idleMs / 1000} s`, 'idle stream')),
    );
    req.on('error', (error) => stop(networkFailure(error)));
    req.on('close', () => stop(new OutgoingError('unreachable', 'stream ended', 'closed')));
    req.on('response', (res) => {
      clearTimeout(headersTimer);
      res.setEncoding('utf8');
      res.on('error', () => req.destroy());
      res.on('end', () => req.destroy());
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        onData: (listener) => res.on('data', listener),
        ended: done,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

/**
 * A TCP connection to `host`:`port` under the policy, within `deadlineMs` (for protocols that speak over a socket
 * of their own, e-mail). The caller owns the socket once it resolves.
 */
export function connectChecked(
  policy: DestinationPolicy,
  host: string,
  port: number,
  deadlineMs: number,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // A host name spelled as a number (`2130706433`, `127.1`) is an address to the resolver: read it as a URL would.
    let normalized: string;
    try {
      normalized = new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}`).hostname;
      refuseLiteral(policy, normalized, port);
    } catch (error) {
      reject(error instanceof OutgoingError ? error : new OutgoingError('unreachable', 'not a host name', host));
      return;
    }
    const socket = connect({ host: normalized.replace(/^\[|\]$/g, ''), port, lookup: checkedLookup(policy, port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new OutgoingError('timeout', `no answer within ${deadlineMs / 1000} s`, 'connect deadline'));
    }, deadlineMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(networkFailure(error));
    };
    socket.once('error', onError);
  });
}
