import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { bodyLimits, formParameterLimit } from '../../local-api/http/limits.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { parseResponses } from '../helpers/raw-http.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

/** The status of `GET /v1/hosts` with the key, on a connection of its own. */
function hostsStatus(url: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${apiKey}` };
    const req = request(`${url}/v1/hosts`, { headers, agent: false, signal: AbortSignal.timeout(5_000) }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A connection that sends nothing; `closed` resolves with how long it stayed open once connected (the server
 * cannot time what it has not accepted yet, and on a loaded machine a connect can wait), or rejects after 15 s.
 */
function silentConnection(url: string): { socket: Socket; closed: Promise<number> } {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => {});
  let connectedAt = Date.now();
  socket.once('connect', () => {
    connectedAt = Date.now();
  });
  const closed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('a silent connection was left open for 15 s'));
    }, 15_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - connectedAt);
    });
  });
  // The first failure fails the test; the others are not unhandled.
  closed.catch(() => {});
  return { socket, closed };
}

describe('slow clients', () => {
  let service: RunningService;
  let dataDir: string;
  let apiKey: string;
  const timeouts = { headersMs: 1_000, requestMs: 2_000, checkIntervalMs: 100 };

  before(async () => {
    dataDir = tempDir();
    service = await startService({ port: 0, dataDir, logLevel: 'silent', timeouts });
    apiKey = (await createCompany(service.ctx, { name: 'Slow Co' })).apiKey;
  });
  after(async () => {
    await service.close();
    removeDir(dataDir);
  });

  /**
   * Opens a connection that sends `atOnce`, then `slowly` one byte every `everyMs` for as long as the server keeps
   * it open, and resolves with what the server answered once it closed the connection.
   */
  function trickle(atOnce: string, slowly: string, everyMs: number): Promise<Buffer> {
    return new Promise((resolve) => {
      const { port } = new URL(service.url);
      const socket: Socket = connect(Number(port), '127.0.0.1');
      const received: Buffer[] = [];
      socket.write(atOnce);
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < slowly.length && socket.writable) socket.write(slowly[sent++] ?? '');
      }, everyMs);
      socket.on('data', (chunk) => received.push(chunk));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve(Buffer.concat(received));
      });
    });
  }

  test('slowloris: many connections sending headers slowly are cut, a normal request still answers', {
    timeout: 20_000,
  }, async () => {
    const slowHead = `GET /v1/hosts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nX-Padding: ${'a'.repeat(500)}\r\n\r\n`;
    const slow = Array.from({ length: 200 }, () => trickle('', slowHead, 50));
    // While 200 connections hold their headers open, the service answers a normal request.
    assert.equal(await hostsStatus(service.url, apiKey), 200);
    const answers = await Promise.all(slow);
    for (const answer of answers) {
      assert.deepEqual(
        parseResponses(answer).map((r) => [r.status, JSON.parse(r.body).type]),
        [[408, 'REQUEST_TIMEOUT']],
      );
    }
    console.log(`slowloris: ${answers.length} slow connections cut with 408 REQUEST_TIMEOUT`);
  });

  test('connections that send nothing are closed within the headers time-out from their start', {
    timeout: 30_000,
  }, async () => {
    const silent = Array.from({ length: 50 }, () => silentConnection(service.url));
    assert.equal(await hostsStatus(service.url, apiKey), 200, 'a client meanwhile');
    const lasted = await Promise.all(silent.map((connection) => connection.closed));
    const longest = Math.max(...lasted);
    // Checked every checkIntervalMs: a silent connection lasts the time-out and at most one interval more.
    assert.ok(longest < timeouts.headersMs * 3, `the last silent connection was closed after ${longest} ms`);
  });

  test('a body sent slowly is cut by the request time-out', { timeout: 20_000 }, async () => {
    const head = `POST /v1/hosts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => trickle(head, ' '.repeat(1000), 20)));
    for (const answer of answers) {
      assert.deepEqual(
        parseResponses(answer).map((r) => r.status),
        [408],
      );
    }
    assert.equal(await hostsStatus(service.url, apiKey), 200);
  });
});

describe('silent connections past the cap', () => {
  let service: RunningService;
  let dataDir: string;
  let apiKey: string;
  const limits = { headersMs: 30_000, maxSilentConnections: 20 };

  before(async () => {
    dataDir = tempDir();
    service = await startService({ port: 0, dataDir, logLevel: 'silent', timeouts: limits });
    apiKey = (await createCompany(service.ctx, { name: 'Crowded Co' })).apiKey;
  });
  after(async () => {
    await service.close();
    removeDir(dataDir);
  });

  test('evict the oldest silent ones, never refusing a new client', { timeout: 30_000 }, async () => {
    const silent: ReturnType<typeof silentConnection>[] = [];
    for (let i = 0; i < 50; i++) {
      silent.push(silentConnection(service.url));
      // In order, so that "oldest" means something: each is accepted before the next one is opened.
      await new Promise((resolve) => silent[i]?.socket.once('connect', resolve));
    }
    const evicted = silent.slice(0, 50 - limits.maxSilentConnections);
    await Promise.all(evicted.map((connection) => connection.closed));
    const newest = silent.slice(50 - limits.maxSilentConnections);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(
      newest.every((connection) => !connection.socket.destroyed),
      'the newest silent connections stay, within the cap',
    );
    assert.equal(await hostsStatus(service.url, apiKey), 200, 'a client past the cap is served');
    for (const connection of newest) connection.socket.destroy();
    await Promise.all(newest.map((connection) => connection.closed));
  });
});

describe('what a body may cost', () => {
  let service: RunningService;
  let dataDir: string;
  let apiKey: string;

  before(async () => {
    dataDir = tempDir();
    service = await startService({ port: 0, dataDir, logLevel: 'silent' });
    apiKey = (await createCompany(service.ctx, { name: 'Body Co' })).apiKey;
  });
  after(async () => {
    await service.close();
    removeDir(dataDir);
  });

  async function post(body: string | Buffer, type = 'application/json') {
    const response = await fetch(`${service.url}/v1/hosts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': type },
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** `{"k0":0,"k1":1,…}` with `keys` keys. */
  const manyKeys = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(',')}}`;

  test('too many values are refused before the body is parsed; as many as allowed are read', async () => {
    const over = manyKeys(bodyLimits.maxValues / 2 + 1);
    assert.deepEqual(await post(over), {
      status: 413,
      body: { type: 'PAYLOAD_TOO_LARGE', maxValues: bodyLimits.maxValues },
    });
    // Values inside strings are text, not values: a picture's Base64 or a quoted `,` costs nothing.
    const atLimit = `{"name":"Ana","email":"ana@body.test","notes":"${'\\",:{['.repeat(1000)}",${manyKeys(bodyLimits.maxValues / 2 - 4).slice(1)}`;
    assert.equal((await post(atLimit)).status, 200);
    const deep = `{"metadata":${'['.repeat(bodyLimits.maxDepth)}${']'.repeat(bodyLimits.maxDepth)}}`;
    assert.deepEqual(await post(deep), { status: 400, body: { type: 'INVALID_BODY' } });
    const form = Array.from({ length: formParameterLimit + 1 }, (_, i) => `k${i}=${i}`).join('&');
    assert.equal((await post(form, 'application/x-www-form-urlencoded')).body.type, 'PAYLOAD_TOO_LARGE');
  });

  test('the body of 1.4 million keys that froze the service is refused at once, and the service answers', async () => {
    const hostile = Buffer.from(manyKeys(1_400_000));
    assert.ok(hostile.length > 17_000_000);
    // Its first 64 kB only: the answer comes before the rest is sent (how a client still sending the rest fares,
    // its upload drained or cut, is the network's business; the answer is there first).
    const answer = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = request(`${service.url}/v1/visits`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'content-length': String(hostile.length),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write(hostile.subarray(0, 65_536));
    });
    assert.deepEqual(answer, { status: 413, body: { type: 'PAYLOAD_TOO_LARGE', maxBytes: bodyLimits.maxBytes } });
    // Within the size limit, the same kind of body stops at its 50,001st value.
    const dense = Buffer.from(manyKeys(700_000)).subarray(0, bodyLimits.maxBytes);
    assert.equal((await post(dense)).body.maxValues, bodyLimits.maxValues);
    assert.equal(await hostsStatus(service.url, apiKey), 200);
  });
});
