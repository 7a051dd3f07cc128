/**
 * GET /v1/console/events (docs/console.md, "Live updates"; docs/api.md, "Console events"): a write to the company's
 * records reaches every subscribed stream as the topics that moved, never another company's; every console role
 * and the read-only key may subscribe; streams are capped per credential; on PostgreSQL a write made through
 * another hub process is told too.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { type RunningService, startService as startInProcess } from '../../local-api/server.ts';
import { signedInPerson } from '../helpers/accounts.ts';
import { engineEnv, testEngine } from '../helpers/postgres.ts';
import { client, removeDir, startService, succeeded, type TestService, tempDir } from '../helpers/service.ts';
import { waitFor } from '../helpers/sync-service.ts';

const services: TestService[] = [];
let service: TestService;
type Api = ReturnType<typeof client>;
let admin: Api;
let other: Api;
let adminKey: string;
let otherKey: string;
let readonlyKey: string;
let deskToken: string;
let hostId: string;

before(async () => {
  service = await startService();
  services.push(service);
  const company = await service.company('Acme', 'UTC');
  adminKey = company.apiKey;
  admin = client(service.url, adminKey);
  otherKey = (await service.company('Other', 'UTC')).apiKey;
  other = client(service.url, otherKey);
  hostId = (await succeeded(admin, 'POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).id;
  readonlyKey = (await succeeded(admin, 'POST', '/v1/credentials', { role: 'readonly', label: 'Wall' })).key;
  deskToken = (await succeeded(admin, 'POST', '/v1/kiosk/frontdesk', { pin: company.pin })).token;
});
after(async () => {
  for (const running of services) await running.stop();
});

/** An open stream (with a key, or a session's cookie): its events so far, parsed, and a way to wait for one. */
async function openStream(url: string, key: string | { cookie: string }) {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/console/events`, {
    headers: {
      ...(typeof key === 'string' ? { authorization: `Bearer ${key}` } : { cookie: key.cookie }),
      accept: 'text/event-stream',
    },
    signal: controller.signal,
  });
  assert.equal(response.status, 200, await (response.status === 200 ? '' : response.text()));
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let ended = false;
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      ended = true;
    } catch {
      // aborted by the test
    }
  })();
  const events = () =>
    text
      .split('\n\n')
      .map((block) => /^event: (\w+)\ndata: (.*)$/m.exec(block))
      .filter((match) => match !== null)
      .map(([, name, data]) => ({ name, data: JSON.parse(data ?? '{}') as { topics?: string[] } }));
  const topics = () => events().flatMap((event) => event.data.topics ?? []);
  const received = () => text;
  return {
    response,
    events,
    topics,
    ended: () => ended,
    text: received,
    async until(what: string, check: () => boolean) {
      const deadline = Date.now() + 10_000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(text)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => controller.abort(),
  };
}

describe('console events', () => {
  test('a stream opens ready, unbuffered, and is told the topics that moved, with no data of the records', async () => {
    const stream = await openStream(service.url, adminKey);
    try {
      assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(stream.response.headers.get('x-accel-buffering'), 'no');
      await stream.until('ready', () => stream.events().some((event) => event.name === 'ready'));
      await succeeded(admin, 'POST', '/v1/visits', {
        visit: { id: randomUUID(), hostId },
        visitor: { name: 'Ana Souza' },
      });
      await stream.until('the check-in', () => stream.topics().includes('visits'));
      const change = stream.events().find((event) => event.name === 'change');
      assert.deepEqual(Object.keys(change?.data ?? {}), ['topics']);
      await succeeded(admin, 'POST', '/v1/invitees', {
        name: 'Bruno Lima',
        email: 'bruno@guest.test',
        hostId,
        expectedAt: Math.floor(Date.now() / 1000) + 3600,
        sendInvitationEmail: false,
      });
      await stream.until('the invitation', () => stream.topics().includes('invitees'));
      await succeeded(admin, 'PATCH', `/v1/host/${hostId}`, { name: 'Helena D. Dias' });
      await stream.until('the host', () => stream.topics().includes('hosts'));
    } finally {
      stream.close();
    }
  });

  test("a company's changes reach its streams only", async () => {
    const ours = await openStream(service.url, adminKey);
    const theirs = await openStream(service.url, otherKey);
    try {
      await theirs.until('ready', () => theirs.events().length > 0);
      await succeeded(admin, 'POST', '/v1/blockedlist', { name: 'Eva', email: 'eva@blocked.test', reason: 'test' });
      await ours.until("our company's change", () => ours.topics().includes('settings'));
      // Told after ours: had ours reached their stream, it would have arrived first.
      await succeeded(other, 'POST', '/v1/hosts', { name: 'Otto', email: 'otto@other.test' });
      await theirs.until("their company's change", () => theirs.topics().includes('hosts'));
      assert.deepEqual(theirs.topics(), ['hosts']);
      assert.equal(ours.topics().includes('hosts'), false);
    } finally {
      ours.close();
      theirs.close();
    }
  });

  test('the read-only key and a front-desk session are told too; the kiosk is refused', async () => {
    const reader = await openStream(service.url, readonlyKey);
    const desk = await openStream(service.url, deskToken);
    try {
      await succeeded(admin, 'POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name: 'Caio' } });
      await reader.until('the check-in', () => reader.topics().includes('visits'));
      await desk.until('the check-in', () => desk.topics().includes('visits'));
    } finally {
      reader.close();
      desk.close();
    }
    const kioskKey = ((await (await fetch(`${service.url}/kiosk/session`)).json()) as { apiKey: string }).apiKey;
    const refused = await client(service.url, kioskKey)('GET', '/v1/console/events');
    assert.equal(refused.status, 403);
  });

  test("a host's session is told the company's changes, as topics only", async () => {
    const person = await signedInPerson(service.url, adminKey, { role: 'HOST', name: 'Hugo Host' });
    const stream = await openStream(service.url, person.session);
    try {
      await stream.until('ready', () => stream.events().some((event) => event.name === 'ready'));
      // Another host's visitor: the host is told something moved, and reads what it may see through the API.
      await succeeded(admin, 'POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name: 'Dina' } });
      await stream.until('the check-in', () => stream.topics().includes('visits'));
      for (const event of stream.events())
        assert.deepEqual(
          Object.keys(event.data).filter((k) => k !== 'topics'),
          [],
        );
    } finally {
      stream.close();
    }
  });

  test('one credential holds at most five streams; past them TOO_MANY_STREAMS, and others still subscribe', async () => {
    const open = [];
    try {
      for (let i = 0; i < 5; i++) open.push(await openStream(service.url, readonlyKey));
      const refused = await admin('GET', '/v1/console/events', undefined, { authorization: `Bearer ${readonlyKey}` });
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, { type: 'TOO_MANY_STREAMS', maxStreams: 5 });
      const another = await openStream(service.url, adminKey);
      another.close();
      // A stream closed makes room.
      open.shift()?.close();
      await waitFor('room for another stream', async () => {
        return (await client(service.url, readonlyKey)('GET', '/v1/console/events')).status === 200;
      });
    } finally {
      for (const stream of open) stream.close();
    }
  });

  test('on PostgreSQL, a write through another hub process is told', {
    skip: testEngine === 'postgres' ? false : 'hub processes share a database only on PostgreSQL',
  }, async () => {
    const second = tempDir();
    copyFileSync(join(service.dataDir, 'device.key'), join(second, 'device.key'));
    const database = (await engineEnv(service.dataDir)).PORTARIA_DATABASE;
    const sibling = await startService({ dataDir: second, ...(database ? { database } : {}) });
    services.push(sibling);
    const stream = await openStream(service.url, adminKey);
    try {
      await succeeded(client(sibling.url, adminKey), 'POST', '/v1/meetings', {
        title: 'Board',
        guests: ['ana@guest.test'],
        start: '2026-12-01T10:00:00',
        end: '2026-12-01T11:00:00',
        location: 'Room 4',
        type: 'MEETING',
        hostId,
        sendInvitationEmail: false,
      });
      await stream.until('the meeting made through the other process', () => stream.topics().includes('meetings'));
    } finally {
      stream.close();
    }
  });
});

describe("console events: a company's cap and the end of a stream", () => {
  let running: RunningService;
  let dataDir: string;
  let key: string;

  before(async () => {
    dataDir = tempDir();
    const database = (await engineEnv(dataDir)).PORTARIA_DATABASE;
    running = await startInProcess({
      port: 0,
      dataDir,
      logLevel: 'silent',
      ...(database ? { database } : {}),
      pokes: { heartbeatMs: 100 },
      consoleEvents: { perCompany: 2 },
    });
    key = (await createCompany(running.ctx, { name: 'Acme' })).apiKey;
  });
  after(async () => {
    await running?.close();
    removeDir(dataDir);
  });

  test('a session signed out, or a key revoked, ends its stream at the next heartbeat', async () => {
    const person = await signedInPerson(running.url, key, { role: 'MANAGER', name: 'Mara Manager' });
    const sessionStream = await openStream(running.url, person.session);
    const readonlyKey = (
      await succeeded(client(running.url, key), 'POST', '/v1/credentials', { role: 'readonly', label: 'Wall' })
    ).key as string;
    const keyStream = await openStream(running.url, readonlyKey);
    try {
      // Heartbeats pass while the session and the key hold.
      await sessionStream.until('heartbeats', () => sessionStream.text().split(': heartbeat').length > 3);
      assert.equal(sessionStream.ended(), false);
      await succeeded(person.session.call, 'POST', '/v1/account/sign-out', {});
      await sessionStream.until('the end of the signed-out stream', sessionStream.ended);
      const credentials = await succeeded(client(running.url, key), 'GET', '/v1/credentials');
      const id = (credentials.credentials as { id: string; role: string }[]).find((c) => c.role === 'readonly')?.id;
      await succeeded(client(running.url, key), 'DELETE', `/v1/credential/${id}`);
      await keyStream.until('the end of the revoked key', keyStream.ended);
    } finally {
      sessionStream.close();
      keyStream.close();
    }
  });

  test("past the company's streams in this process, TOO_MANY_STREAMS, whoever asks; a stream closed makes room", async () => {
    const admin = client(running.url, key);
    const keys = [];
    for (const label of ['One', 'Two', 'Three']) {
      keys.push((await succeeded(admin, 'POST', '/v1/credentials', { role: 'readonly', label })).key as string);
    }
    const [one, two, three] = keys as [string, string, string];
    const first = await openStream(running.url, one);
    const second = await openStream(running.url, two);
    try {
      const refused = await client(running.url, three)('GET', '/v1/console/events');
      assert.equal(refused.status, 429);
      assert.deepEqual(refused.body, { type: 'TOO_MANY_STREAMS', maxStreams: 2 });
      first.close();
      await waitFor('room for another stream', async () => {
        return (await client(running.url, three)('GET', '/v1/console/events')).status === 200;
      });
    } finally {
      first.close();
      second.close();
    }
  });
});
