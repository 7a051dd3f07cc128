import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { secretBox } from '../../local-api/secrets/box.ts';
import { backoff } from '../../main/recovery.ts';
import { type ServiceEndpoint, ServiceSupervisor, type SupervisorLog } from '../../main/service.ts';
import { kioskConnection } from '../../main/service-link.ts';
import { type ForkService, nodeServiceProcess, type ServiceProcess } from '../../main/service-process.ts';
import type { FromService, ToService } from '../../main/service-protocol.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

const dirs: string[] = [];
const supervisors: ServiceSupervisor[] = [];
// A failed assertion leaves its service process running, which would keep this test file from ending.
after(async () => {
  for (const s of supervisors) await s.stop();
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

/** The plain-Node implementation, keeping each process it starts so a test can end one from outside. */
function recordingFork(): { fork: ForkService; processes: ServiceProcess[] } {
  const processes: ServiceProcess[] = [];
  const fork = nodeServiceProcess();
  return {
    processes,
    fork: () => {
      const child = fork();
      processes.push(child);
      return child;
    },
  };
}

function supervisor(options: Partial<ConstructorParameters<typeof ServiceSupervisor>[0]> = {}) {
  const dataDir = tempDir('portaria-shell-');
  dirs.push(dataDir);
  const { log, lines } = recordingLog();
  const deviceKey = randomBytes(32);
  const restartPolicy = { baseMs: 5, maxMs: 20, windowMs: 1000 };
  const s = new ServiceSupervisor({
    dataDir,
    port: 0,
    deviceKey,
    companyName: 'Acme',
    fork: nodeServiceProcess(),
    log,
    logLevel: 'warn',
    restartPolicy,
    ...options,
  });
  supervisors.push(s);
  return { s, lines, dataDir, deviceKey };
}

/** The admin key of the company the first start created (shown once: kept here for the service's restarts). */
const adminKeys = new Map<string, string>();
const hosts = (service: ServiceEndpoint) => {
  if (service.firstStart) adminKeys.set(service.url, service.firstStart.apiKey);
  return client(service.url, adminKeys.get(service.url));
};

describe('the service supervisor, with service processes of child_process.fork', () => {
  test('starts the service in its own process on 127.0.0.1 and reports its URL and the company it made', async () => {
    const { fork, processes } = recordingFork();
    const { s, dataDir, deviceKey } = supervisor({ fork });
    const service = await s.start();
    assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(processes.length, 1);
    assert.notEqual(processes[0]?.pid, process.pid);
    assert.equal((await fetch(`${service.url}/v1/hosts`)).status, 401);
    assert.equal((await hosts(service)('GET', '/v1/hosts')).status, 200, 'the admin key of the first start');
    assert.match(service.firstStart?.pin ?? '', /^\d{8}$/, 'and its first front-desk PIN');
    const { apiKey } = await kioskConnection(service.url);
    assert.equal((await client(service.url, apiKey)('GET', '/v1/kiosk/settings')).status, 200, "the page's credential");
    assert.equal((await client(service.url, apiKey)('GET', '/v1/credentials')).status, 403, 'a kiosk credential');
    const db = new Database(join(dataDir, 'portaria.db'), { readonly: true });
    const { kioskKey } = db.prepare('SELECT kioskKey FROM device_enrolment').get() as { kioskKey: string };
    db.close();
    assert.equal(secretBox(deviceKey).open(kioskKey), apiKey, 'sealed with the key handed over');
    await s.stop();
  });

  test('a graceful stop closes the database: WAL checkpointed and removed, the file opens again', async () => {
    const { s, dataDir } = supervisor();
    const service = await s.start();
    const created = await hosts(service)('POST', '/v1/hosts', { name: 'Helena Host', email: 'helena@acme.test' });
    assert.equal(created.status, 200);
    const wal = join(dataDir, 'portaria.db-wal');
    assert.equal(existsSync(wal), true, 'a running service has its WAL file');
    await s.stop();
    assert.equal(s.running, false);
    assert.equal(existsSync(wal), false, 'the last connection closed checkpoints the WAL and removes it');
    const db = new Database(join(dataDir, 'portaria.db'), { readonly: true });
    try {
      assert.deepEqual(db.prepare('SELECT name FROM hosts').all(), [{ name: 'Helena Host' }]);
    } finally {
      db.close();
    }
    await assert.rejects(fetch(`${service.url}/v1/hosts`));
    await s.stop();
  });

  test('the device key travels over the message channel: not in argv, the environment or the log', async (t) => {
    if (process.platform !== 'linux') return t.skip('reads /proc, which only Linux has');
    const { fork, processes } = recordingFork();
    const { s, lines, deviceKey } = supervisor({ fork });
    await s.start();
    try {
      const pid = processes[0]?.pid;
      const seen = ['cmdline', 'environ'].map((file) => readFileSync(`/proc/${pid}/${file}`));
      for (const form of [
        deviceKey,
        Buffer.from(deviceKey.toString('base64')),
        Buffer.from(deviceKey.toString('hex')),
      ]) {
        for (const bytes of seen) assert.equal(bytes.includes(form), false);
        assert.equal(JSON.stringify(lines).includes(form.toString()), false);
      }
    } finally {
      await s.stop();
    }
  });

  test('a service process that dies is started again on the same port, with its data', async () => {
    const { fork, processes } = recordingFork();
    let restarted: (service: ServiceEndpoint) => void = () => undefined;
    const restart = new Promise<ServiceEndpoint>((resolve) => {
      restarted = resolve;
    });
    const { s, lines } = supervisor({ fork, onRestart: (service) => restarted(service) });
    const first = await s.start();
    assert.equal((await hosts(first)('POST', '/v1/hosts', { name: 'Ivo', email: 'ivo@acme.test' })).status, 200);
    process.kill(processes[0]?.pid ?? 0, 'SIGKILL');
    const second = await restart;
    try {
      assert.equal(processes.length, 2);
      assert.equal(second.url, first.url, 'same URL: the page keeps its origin');
      assert.equal(second.firstStart, undefined, 'a restart makes no company');
      assert.deepEqual(await kioskConnection(second.url), await kioskConnection(first.url));
      const listed = await hosts(second)('GET', '/v1/hosts');
      assert.deepEqual(
        listed.body.hosts.map((host: { name: string }) => host.name),
        ['Ivo'],
      );
      const failures = lines.filter((line) => line.level === 'error');
      assert.deepEqual(
        failures.map((line) => [line.message, String((line.data as { err: Error }).err)]),
        [['service failed; restarting it', 'Error: the service process ended (code null, signal SIGKILL)']],
      );
    } finally {
      await s.stop();
    }
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

  test('a service that cannot start fails the start with its reason, and its process ends', async () => {
    const { fork, processes } = recordingFork();
    const { s } = supervisor({ fork, deviceKey: randomBytes(16) });
    await assert.rejects(s.start(), /device key must be 32 bytes/);
    assert.equal(s.running, false);
    const code = await new Promise((resolve) => processes[0]?.onExit(resolve));
    assert.equal(code, 0, 'it closed when asked, rather than being killed');
  });
});

type Behaviour = { start?: 'ok' | 'fail' | 'silent'; stop?: 'exit' | 'ignore' };
type FakeProcess = ServiceProcess & { crash(): void; ended: string | undefined };

/** A service process in memory, answering the protocol as told: for the supervisor's timing and failure paths. */
function fakeProcess(behaviour: Behaviour): FakeProcess {
  const messageListeners: ((message: unknown) => void)[] = [];
  const exitListeners: ((code: number | null, signal: string | null) => void)[] = [];
  const emit = (message: FromService) =>
    setImmediate(() => {
      for (const listener of messageListeners) listener(message);
    });
  const fake: FakeProcess = {
    pid: 4242,
    ended: undefined,
    send(message: ToService) {
      if (fake.ended) return;
      if (message.type === 'stop') {
        if (behaviour.stop !== 'ignore') setImmediate(() => end(0, null));
      } else if (behaviour.start === 'fail') {
        emit({ type: 'start-failed', message: 'database is damaged' });
      } else if (behaviour.start !== 'silent') {
        const url = `http://127.0.0.1:${message.port || 4780}`;
        emit({ type: 'started', url });
      }
    },
    onMessage: (listener) => messageListeners.push(listener),
    onExit: (listener) => exitListeners.push(listener),
    kill: () => setImmediate(() => end(null, 'SIGKILL')),
    crash: () => end(null, 'SIGSEGV'),
  };
  const end = (code: number | null, signal: string | null) => {
    if (fake.ended) return;
    fake.ended = signal ?? `code ${code}`;
    for (const listener of exitListeners) listener(code, signal);
  };
  emit({ type: 'ready' });
  return fake;
}

function fakeForks(...behaviours: Behaviour[]): { fork: ForkService; processes: FakeProcess[] } {
  const processes: FakeProcess[] = [];
  return {
    processes,
    fork: () => {
      const fake = fakeProcess(behaviours[processes.length] ?? {});
      processes.push(fake);
      return fake;
    },
  };
}

describe('the service supervisor, with service processes in memory', () => {
  test('keeps retrying a restart that fails, spaced by the backoff, until it succeeds', async () => {
    const { fork, processes } = fakeForks({}, { start: 'fail' }, { start: 'fail' }, {});
    const { s, lines } = supervisor({ fork });
    await s.start();
    processes[0]?.crash();
    await s.settled();
    assert.equal(processes.length, 4);
    assert.equal(s.running, true);
    const delays = lines
      .filter((line) => line.level === 'error')
      .map((line) => (line.data as { restartInMs: number }).restartInMs);
    assert.deepEqual(delays, [5, 10, 20]);
    await s.stop();
  });

  test('stop cancels a pending restart', async () => {
    const { fork, processes } = fakeForks({});
    const { s } = supervisor({ fork, restartPolicy: { baseMs: 60_000, maxMs: 60_000, windowMs: 1000 } });
    await s.start();
    processes[0]?.crash();
    await s.stop();
    await s.settled();
    assert.equal(s.running, false);
    assert.equal(processes.length, 1);
  });

  test('a process that does not stop when asked is killed after the bounded wait', async () => {
    const { fork, processes } = fakeForks({ stop: 'ignore' });
    const { s, lines } = supervisor({ fork, stopTimeoutMs: 20 });
    await s.start();
    await s.stop();
    assert.equal(processes[0]?.ended, 'SIGKILL');
    assert.ok(lines.some((line) => line.level === 'warn' && line.message.includes('killing it')));
  });

  test('a process silent at start is killed and the start fails', async () => {
    const { fork, processes } = fakeForks({ start: 'silent' });
    const { s } = supervisor({ fork, startTimeoutMs: 20 });
    await assert.rejects(s.start(), /did not start within 20 ms/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(processes[0]?.ended, 'SIGKILL');
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
