import { createServer, type IncomingHttpHeaders, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the network does to one request between a kiosk and its hub:
 * - `pass`: forwarded, answered.
 * - `reset`: the connection is reset before anything reaches the hub (hub down, cable out).
 * - `drop-response`: the hub receives and answers the request, and the answer is lost (connection reset).
 * - `hold`: the hub receives and answers it, and the answer is withheld until the client gives up or dies.
 * - `{ status }`: answered by the network itself, e.g. a 502 or 503 from a proxy in between.
 * - `{ delayMs }`: forwarded after a delay.
 * - `silent`: the connection is accepted and the request read, then nothing: never forwarded, never answered
 *   (a blackholing middlebox, a hub whose process hangs).
 * A request that passes and asks for server-sent events (`Accept: text/event-stream`) is relayed as it comes, as a
 * balancer with buffering off relays it, rather than read whole.
 */
export type Fault = 'pass' | 'reset' | 'drop-response' | 'hold' | 'silent' | { status: number } | { delayMs: number };

export interface FaultProxy {
  url: string;
  /** The hub requests go to; changed when the hub restarts on another port. */
  target: string;
  /** The fault every request meets from now on. */
  set(fault: Fault): void;
  /** Faults the next requests meet, in order, before the standing one applies again. */
  queue(...faults: Fault[]): void;
  /** Chooses each request's fault (over `set`), until given undefined. */
  choose(pick: ((req: IncomingMessage) => Fault) | undefined): void;
  /** Every request seen: its method, path and the fault it met. */
  log: { method: string; path: string; fault: string }[];
  /** Resolves when a request meeting `hold` has been answered by the hub, its answer withheld. */
  held(): Promise<void>;
  /** Event streams being relayed now. */
  openStreams(): number;
  /** Resets every event stream being relayed (the network drops long-lived connections). */
  cutStreams(): void;
  close(): Promise<void>;
}

const describe = (fault: Fault): string =>
  typeof fault === 'string' ? fault : 'status' in fault ? `status ${fault.status}` : `delay ${fault.delayMs} ms`;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function forward(target: string, req: IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.url ?? '/', target);
    const outgoing = request(url, { method: req.method, headers: { ...req.headers, host: url.host }, agent: false });
    outgoing.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, answer: Answer): void {
  const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...headers } = answer.headers;
  res.writeHead(answer.status, { ...headers, 'content-length': answer.body.length });
  res.end(answer.body);
}

const reset = (socket: Socket) => {
  if (!socket.destroyed) socket.resetAndDestroy();
};

/** Relays an event stream byte by byte while both sides hold it; either side gone ends the other. */
function relayStream(target: string, req: IncomingMessage, res: ServerResponse, relayed: Set<Socket>): void {
  const url = new URL(req.url ?? '/', target);
  const outgoing = request(url, { method: req.method, headers: { ...req.headers, host: url.host }, agent: false });
  relayed.add(req.socket);
  const end = () => {
    relayed.delete(req.socket);
    outgoing.destroy();
    reset(req.socket);
  };
  req.socket.once('close', end);
  outgoing.on('error', end);
  outgoing.on('response', (answer) => {
    const { connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
    res.writeHead(answer.statusCode ?? 502, headers);
    answer.pipe(res);
    answer.on('end', end);
  });
  outgoing.end();
}

/** An HTTP proxy on loopback that injects network faults between a kiosk and its hub. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let standing: Fault = 'pass';
  const queued: Fault[] = [];
  let picker: ((req: IncomingMessage) => Fault) | undefined;
  const holdWaiters: (() => void)[] = [];
  const log: FaultProxy['log'] = [];
  const sockets = new Set<Socket>();
  const relayed = new Set<Socket>();

  const proxy: FaultProxy = {
    url: '',
    target,
    set: (fault) => {
      standing = fault;
    },
    queue: (...faults) => void queued.push(...faults),
    choose: (pick) => {
      picker = pick;
    },
    log,
    held: () => new Promise((resolve) => holdWaiters.push(resolve)),
    openStreams: () => relayed.size,
    cutStreams: () => {
      for (const socket of relayed) reset(socket);
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const fault = queued.shift() ?? picker?.(req) ?? standing;
    log.push({ method: req.method ?? '', path: req.url ?? '', fault: describe(fault) });
    if (fault === 'pass' && req.headers.accept === 'text/event-stream')
      return relayStream(proxy.target, req, res, relayed);
    const body = await readBody(req);
    if (fault === 'reset') return reset(req.socket);
    if (fault === 'silent') return;
    if (typeof fault === 'object' && 'status' in fault) {
      return reply(res, {
        status: fault.status,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from('<h1>Bad gateway</h1>'),
      });
    }
    if (typeof fault === 'object') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    let answer: Answer;
    try {
      answer = await forward(proxy.target, req, body);
    } catch {
      return reset(req.socket); // the hub is not there: the kiosk sees what it would see without the proxy
    }
    if (fault === 'drop-response') return reset(req.socket);
    if (fault === 'hold') {
      for (const wake of holdWaiters.splice(0)) wake();
      return;
    }
    reply(res, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => reset(req.socket));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
