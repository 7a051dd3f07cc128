import { Agent, request as httpRequest } from 'node:http';
import autocannon, { type RawRequest } from 'autocannon';

/** One kind of request; `next(i)` gives the i-th request's path and body when each must differ. */
export interface RequestShape {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
  next?: (i: number) => { path: string; body?: string };
}

export interface LoadSettings {
  connections: number;
  seconds: number;
}

export interface LoadFigures {
  /** Answered requests per second (2xx and others alike; `failures` says how many were not 2xx). */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** Server CPU time (user + system) per answered request, in microseconds, when the server's CPU is known. */
  cpuUsPerRequest: number;
}

/**
 * Drives one server with autocannon over loopback and returns requests/s and latency percentiles (ms). `counter`
 * numbers the requests across calls, so a warm-up and the measurement after it never reuse an id.
 */
export async function load(
  server: { url: string; cpuMs?: () => number },
  apiKey: string | undefined,
  shape: RequestShape,
  settings: LoadSettings,
  counter: { next: number } = { next: 0 },
): Promise<LoadFigures> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const next = shape.next;
  const cpuBefore = server.cpuMs?.() ?? 0;
  const result = await autocannon({
    url: server.url,
    connections: settings.connections,
    duration: settings.seconds,
    requests: [
      {
        method: shape.method,
        path: shape.path,
        headers,
        ...(shape.body !== undefined ? { body: shape.body } : {}),
        ...(next
          ? {
              setupRequest: (request: RawRequest) => {
                const varied = next(counter.next++);
                return { ...request, path: varied.path, ...(varied.body !== undefined ? { body: varied.body } : {}) };
              },
            }
          : {}),
      },
    ],
  });
  const requests = result.requests.total;
  const cpuMs = (server.cpuMs?.() ?? 0) - cpuBefore;
  return {
    cpuUsPerRequest: requests > 0 ? (cpuMs * 1000) / requests : 0,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests,
    failures: result.non2xx + result.errors,
  };
}

export interface LatencyFigures {
  p50: number;
  p99: number;
  samples: number;
}

export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

/**
 * One request (`body` sent as JSON), answering the status and the body, for checking what a measured request
 * answers. A request sent on a kept-alive connection that the server closed as idle at that moment (ECONNRESET on a
 * reused socket: the server never read it) is sent once more, on a new connection, as Node's documentation advises.
 */
export function requestOnce(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  apiKey: string | undefined,
  options: { agent?: Agent; body?: string } = {},
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const send = (retry: boolean) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${url}${path}`, { method, agent: options.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (retry && request.reusedSocket && error.code === 'ECONNRESET') resolve(send(false));
        else reject(error);
      });
      request.end(options.body);
    });
  return send(true);
}

/** GET `path` once and return the status and body. */
export function getOnce(
  url: string,
  path: string,
  apiKey: string | undefined,
  agent?: Agent,
): Promise<{ status: number; body: string }> {
  return requestOnce(url, 'GET', path, apiKey, agent ? { agent } : {});
}

/** p50 and p99 of measured durations (ms). */
export function latencyOf(durations: readonly number[]): LatencyFigures {
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), samples: sorted.length };
}

/**
 * The durations (ms) of one request at a time over one kept-alive connection, for `seconds` and at least
 * `minSamples` requests, timed here (autocannon's histogram counts whole milliseconds, too coarse for
 * sub-millisecond queries).
 */
export async function sequentialDurations(
  url: string,
  path: string,
  apiKey: string,
  seconds: number,
  minSamples = 30,
): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const durations: number[] = [];
  const until = performance.now() + seconds * 1000;
  try {
    while (performance.now() < until || durations.length < minSamples) {
      const started = performance.now();
      const { status } = await getOnce(url, path, apiKey, agent);
      durations.push(performance.now() - started);
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
    }
  } finally {
    agent.destroy();
  }
  return durations;
}
