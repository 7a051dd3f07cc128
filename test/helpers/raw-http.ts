import { connect, type Socket } from 'node:net';

/** One response read off a raw connection. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Splits what a server wrote on a connection into responses (several when requests were pipelined). Bodies are
 * delimited by Content-Length; a response without it runs to the end of what was received.
 */
export function parseResponses(received: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = received;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`incomplete response head: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
    if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const informational = Number(status) < 200; // `100 Continue` comes before the answer and has no body
    const declared = headers['content-length'];
    const length = informational ? 0 : declared === undefined ? rest.length - end - 4 : Number(declared);
    if (!informational) {
      responses.push({
        status: Number(status),
        headers,
        body: rest.subarray(end + 4, end + 4 + length).toString('utf8'),
      });
    }
    rest = rest.subarray(end + 4 + length);
  }
  return responses;
}

export interface RawOptions {
  /** After writing: `half` ends our side (a body cut short), `destroy` resets at once, `wait` lets the server close. */
  afterWrite?: 'half' | 'destroy' | 'wait';
  /** The server must have closed the connection (or answered, with `untilAnswer`) by then. */
  timeoutMs?: number;
  /** Resolve at the first complete answer: a server that refused a body may wait for it before closing. */
  untilAnswer?: boolean;
}

function hasCompleteAnswer(received: Buffer): boolean {
  try {
    const [first] = parseResponses(received);
    return first !== undefined && Buffer.byteLength(first.body) >= Number(first.headers['content-length'] ?? 0);
  } catch {
    return false;
  }
}

/** Writes bytes on a fresh connection and resolves with everything the server wrote until it closed. */
export function rawExchange(port: number, bytes: string | Buffer, options: RawOptions = {}): Promise<Buffer> {
  const { afterWrite = 'wait', timeoutMs = 10_000, untilAnswer = false } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket: Socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (untilAnswer && hasCompleteAnswer(Buffer.concat(chunks))) socket.destroy();
    });
    socket.on('error', () => {}); // a reset after the answer is how some refusals end; `close` follows
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.write(bytes, () => {
      if (afterWrite === 'half') socket.end();
      if (afterWrite === 'destroy') socket.destroy();
    });
  });
}
