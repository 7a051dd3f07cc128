import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, test } from 'node:test';
import { deviceCredential } from '../../local-api/device.ts';
import { startService } from '../../local-api/server.ts';
import { backoff } from '../../main/recovery.ts';
import { ServiceSupervisor, type SupervisorLog } from '../../main/service.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

function recordingLog() {
  const lines: { level: string; message: string; data: object }[] = [];
  const log: SupervisorLog = {
    info: (data, message) => lines.push({ level: 'info', message, data }),
    warn: (data, message) => lines.push({ level: 'warn', message, data }),
    error: (data, message) => lines.push({ level: 'error', message, data }),
  };
  return { log, lines };
}

function supervisor(options: Partial<ConstructorParameters<typeof ServiceSupervisor>[0]> = {}) {
  const dataDir = tempDir('portaria-shell-');
  dirs.push(dataDir);
  const { log, lines } = recordingLog();
  const restartPolicy = { baseMs: 5, maxMs: 20, windowMs: 1000 };
  return { s: new ServiceSupervisor({ dataDir, port: 0, log, restartPolicy, ...options }), lines, dataDir };
}

const status = async (url: string) => (await fetch(`${url}/v1/hosts`)).status;

describe('the service supervisor', () => {
  test('starts the service in-process on 127.0.0.1 and stops it: server closed, database closed', async () => {
    const { s } = supervisor();
    const service = await s.start();
    assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await status(service.url), 401);
    await s.stop();
    assert.equal(s.running, false);
    assert.equal(service.ctx.db.open, false);
    await assert.rejects(fetch(`${service.url}/v1/hosts`));
    await s.stop();
  });

  test('restarts a failed service on the same port, with its data', async () => {
    const restarted: string[] = [];
    const { s, lines } = supervisor({ onRestart: (service) => restarted.push(service.url) });
    const first = await s.start();
    const { apiKey } = deviceCredential(first.ctx, 'Acme').credential;
    s.failed(new Error('boom'));
    s.failed(new Error('a second report of the same failure'));
    await s.settled();
    assert.deepEqual(restarted, [first.url], 'one restart, same URL');
    assert.equal(first.ctx.db.open, false, 'the failed service was closed');
    const reply = await fetch(`${first.url}/v1/hosts`, { headers: { authorization: `Bearer ${apiKey}` } });
    assert.equal(reply.status, 200, 'the same database, reopened');
    assert.ok(lines.some((line) => line.level === 'error' && line.message.includes('restarting')));
    await s.stop();
  });

  test('keeps retrying a restart that fails, spaced by the backoff, until it succeeds', async () => {
    let attempts = 0;
    const { s, lines } = supervisor({
      start: async (options) => {
        attempts += 1;
        if (attempts === 2 || attempts === 3) throw new Error(`attempt ${attempts} fails`);
        return startService(options);
      },
    });
    await s.start();
    s.failed(new Error('boom'));
    await s.settled();
    assert.equal(attempts, 4);
    assert.equal(s.running, true);
    const delays = lines
      .filter((line) => line.level === 'error')
      .map((line) => (line.data as { restartInMs: number }).restartInMs);
    assert.deepEqual(delays, [5, 10, 20]);
    await s.stop();
  });

  test('stop cancels a pending restart', async () => {
    const { s } = supervisor({ restartPolicy: { baseMs: 60_000, maxMs: 60_000, windowMs: 1000 } });
    const service = await s.start();
    s.failed(new Error('boom'));
    await s.stop();
    await s.settled();
    assert.equal(s.running, false);
    assert.equal(service.ctx.db.open, false);
  });

  test('takes a free port when the preferred one is in use at the first start', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const taken = (squatter.address() as { port: number }).port;
    const { s, lines } = supervisor({ port: taken });
    try {
      const service = await s.start();
      assert.notEqual(new URL(service.url).port, String(taken));
      assert.ok(lines.some((line) => line.level === 'warn' && line.message.includes('port in use')));
    } finally {
      await s.stop();
      squatter.close();
    }
  });

  test('a service that cannot start at all fails the start', async () => {
    const { s } = supervisor({ start: () => Promise.reject(new Error('database is damaged')) });
    await assert.rejects(s.start(), /database is damaged/);
    assert.equal(s.running, false);
  });
});

describe('the recovery backoff', () => {
  test('doubles within the window, up to the cap, and starts over after a quiet spell', () => {
    let now = 0;
    const delays = backoff(() => now, { baseMs: 100, maxMs: 500, windowMs: 10_000 });
    const seen = [delays.next(), delays.next(), delays.next(), delays.next(), delays.next()];
    assert.deepEqual(seen, [100, 200, 400, 500, 500]);
    now = 20_000;
    assert.equal(delays.next(), 100);
  });
});
