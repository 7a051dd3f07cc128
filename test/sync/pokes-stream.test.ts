/**
 * GET /v1/sync/pokes over HTTP (docs/api.md, "Sync"): an event stream a proxy will not buffer, opened with the
 * kiosk's hub credential and no other, alive past the service's time-outs for silent and slow requests, capped
 * per company with a JSON error, and ended cleanly when the service stops.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

let service: RunningService;
let dataDir: string;
let apiKey: string;
const timeouts = { headersMs: 300, requestMs: 600, keepAliveMs: 200, checkIntervalMs: 100 };

before(async () => {
  dataDir = tempDir();
  service = await startService({
    port: 0,
    dataDir,
    logLevel: 'silent',
    timeouts,
    pokes: { perKiosk: 3, perCompany: 2, heartbeatMs: 200 },
  });
  apiKey = (await createCompany(service.ctx, { name: 'Acme' })).apiKey;
});

after(async () => {
  await service.close();
  removeDir(dataDir);
});

/** An open stream: what it has received so far, and a way to wait for more. */
async function openStream(key: string, query = '') {
  const controller = new AbortController();
  const response = await fetch(`${service.url}/v1/sync/pokes${query}`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    ended = true;
  })();
  const pokes = () => text.split('event: poke\n').length - 1;
  return {
    response,
    text: () => text,
    pokes,
    ended: () => ended,
    reading,
    async until(what: string, check: () => boolean) {
      const deadline = Date.now() + 5_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(text)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => controller.abort(),
  };
}

test('the stream is unbuffered server-sent events that start with a poke and outlive the request time-outs', {
  timeout: 30_000,
}, async () => {
  const stream = await openStream(apiKey);
  try {
    assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(stream.response.headers.get('cache-control'), 'no-store');
    assert.equal(stream.response.headers.get('x-accel-buffering'), 'no');
    await stream.until('the first poke', () => stream.pokes() === 1);
    assert.match(stream.text(), /^retry: \d+\n/);
    assert.doesNotMatch(stream.text(), /data: (?!changed\n)/, 'a poke carries no data');

    // Past every time-out a silent or slow request gets, the stream is still there and still pokes.
    await new Promise((resolve) => setTimeout(resolve, 3 * (timeouts.headersMs + timeouts.requestMs)));
    const reply = await client(service.url, apiKey)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' });
    assert.equal(reply.status, 200);
    await stream.until('the poke of the write', () => stream.pokes() === 2);
    assert.equal(stream.ended(), false);
    assert.match(stream.text(), /\n: heartbeat\n\n/);
  } finally {
    stream.close();
    await stream.reading.catch(() => undefined);
  }
});

test('only the roles that read the feed subscribe, and a company has a bounded number of streams', {
  timeout: 30_000,
}, async () => {
  const admin = client(service.url, apiKey);
  const readonly = (await admin('POST', '/v1/credentials', { role: 'readonly', label: 'Reports' })).body.key;
  assert.equal((await client(service.url, readonly)('GET', '/v1/sync/pokes')).status, 403);
  assert.equal((await client(service.url)('GET', '/v1/sync/pokes')).status, 401);

  const sync = (await admin('POST', '/v1/credentials', { role: 'sync', label: 'Kiosk 1' })).body.key;
  const first = await openStream(sync);
  const second = await openStream(apiKey);
  try {
    const refused = await client(service.url, apiKey)('GET', '/v1/sync/pokes');
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, { type: 'TOO_MANY_STREAMS', maxStreams: 2 });
  } finally {
    first.close();
    second.close();
    await Promise.all([first.reading, second.reading].map((p) => p.catch(() => undefined)));
  }
});

test('a stream ends at the heartbeat after its credential is revoked', { timeout: 30_000 }, async () => {
  const admin = client(service.url, apiKey);
  const made = (await admin('POST', '/v1/credentials', { role: 'sync', label: 'Kiosk 2' })).body;
  const stream = await openStream(made.key);
  try {
    await stream.until('the first poke', () => stream.pokes() === 1);
    assert.equal((await admin('DELETE', `/v1/credential/${made.id}`)).status, 200);
    await stream.until('the stream to end', () => stream.ended());
  } finally {
    stream.close();
    await stream.reading.catch(() => undefined);
  }
});

test("the service's stop ends its streams cleanly", { timeout: 30_000 }, async () => {
  const otherDir = tempDir();
  const other = await startService({ port: 0, dataDir: otherDir, logLevel: 'silent' });
  const key = (await createCompany(other.ctx, { name: 'Beta' })).apiKey;
  const stream = await fetch(`${other.url}/v1/sync/pokes`, { headers: { authorization: `Bearer ${key}` } });
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await other.close();
  // Ended by the service (the chunked answer's last chunk), not cut by the grace period's reset.
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
  }
  removeDir(otherDir);
});

test('kiosks that share a credential each keep their stream, told apart by their client ids', {
  timeout: 30_000,
}, async () => {
  const shared = await createCompany(service.ctx, { name: 'Shared Key Co' });
  const kiosks = await Promise.all(
    ['kiosk-one-0001', 'kiosk-two-0002'].map((clientId) => openStream(shared.apiKey, `?clientId=${clientId}`)),
  );
  try {
    for (const kiosk of kiosks) await kiosk.until('the first poke', () => kiosk.pokes() === 1);
    const reply = await client(service.url, shared.apiKey)('POST', '/v1/hosts', {
      name: 'Bo',
      email: 'bo@shared.test',
    });
    assert.equal(reply.status, 200);
    for (const kiosk of kiosks) await kiosk.until('the poke of the write', () => kiosk.pokes() === 2);
    assert.deepEqual(
      kiosks.map((kiosk) => kiosk.ended()),
      [false, false],
    );
    const refused = await fetch(`${service.url}/v1/sync/pokes?clientId=no%20spaces`, {
      headers: { authorization: `Bearer ${shared.apiKey}`, accept: 'text/event-stream' },
    });
    assert.deepEqual([refused.status, await refused.json()], [400, { type: 'INVALID_PARAMETER', field: 'clientId' }]);
  } finally {
    for (const kiosk of kiosks) kiosk.close();
    await Promise.all(kiosks.map((kiosk) => kiosk.reading.catch(() => undefined)));
  }
});

test('HEAD answers the headers of the stream and ends, holding nothing open', { timeout: 30_000 }, async () => {
  const head = await fetch(`${service.url}/v1/sync/pokes`, {
    method: 'HEAD',
    headers: { authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(5_000),
  });
  assert.equal(head.status, 200);
  assert.match(head.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.equal(await head.text(), '');
});
