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

/**
 * One HTTP(S) request under the policy and a deadline. Redirects are not followed (credentials and signed bodies
 * go to the configured address only). Each request has its own connection, so every connection is checked.
 */
export function sendRequest(policy: DestinationPolicy, options: OutgoingRequest): Promise<OutgoingResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(options.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new OutgoingError('refused-destination', 'not an http(s) URL', url.protocol));
      return;
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    try {
      refuseLiteral(policy, url.hostname, port);
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

    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    req = send(url, {
      method: options.method ?? 'GET',
      headers: {
        ...options.headers,
        ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
      },
      agent: false,
      lookup: checkedLookup(policy, port),
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
