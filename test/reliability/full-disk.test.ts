import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { readFlushMs } from '../../local-api/audit/store.ts';
import { isStorageFull, storageFullEpisodes } from '../../local-api/http/storage-full.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { PostgresError } from '../../local-api/store/postgres.ts';
import { client, removeDir, runCli, tempDir } from '../helpers/service.ts';

describe('what says the storage is full', () => {
  test("SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100), the file system's ENOSPC and EDQUOT; nothing else", () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    for (const code of ['SQLITE_FULL', 'ENOSPC', 'EDQUOT']) assert.equal(isStorageFull(withCode(code)), true, code);
    assert.equal(isStorageFull(new PostgresError('could not extend file', '53100')), true);
    for (const error of [withCode('SQLITE_BUSY'), new PostgresError('unique', '23505'), new Error('x'), null, 'text']) {
      assert.equal(isStorageFull(error), false, String(error));
    }
  });

  test('an episode is logged once, from the first refused write to the next write that succeeds', () => {
    const lines: string[] = [];
    const episodes = storageFullEpisodes({
      error: (m) => lines.push(`error ${m}`),
      info: (m) => lines.push(`info ${m}`),
    });
    const full = Object.assign(new Error('full'), { code: 'SQLITE_FULL' });
    episodes.wrote();
    for (let i = 0; i < 5; i++) episodes.refused(full);
    episodes.wrote();
    episodes.wrote();
    episodes.refused(full);
    assert.deepEqual(
      lines.map((line) => line.split(' ')[0]),
      ['error', 'info', 'error'],
    );
    assert.match(lines[0] ?? '', /SQLITE_FULL.*507 STORAGE_FULL/);
  });
});

describe('a full disk (SQLite, for real: the database may not grow by a page)', () => {
  const dataDir = tempDir();
  let running: RunningService;
  let api: ReturnType<typeof client>;
  let hostId: string;
  const logged: string[] = [];

  before(async () => {
    running = await startService({ dataDir, port: 0, logLevel: 'info' });
    const created = JSON.parse(
      await runCli(['company', 'create', '--data', dataDir, '--name', 'Full'], { PORTARIA_DATABASE: '' }),
    );
    api = client(running.url, created.apiKey);
    hostId = (await api('POST', '/v1/hosts', { name: 'Helena', email: 'helena@full.test' })).body.id;
    const { log } = running.ctx;
    log.error = ((...args: unknown[]) => void logged.push(`error ${JSON.stringify(args)}`)) as typeof log.error;
    log.info = ((...args: unknown[]) => void logged.push(`info ${JSON.stringify(args)}`)) as typeof log.info;
  });
  after(async () => {
    await running?.close();
    removeDir(dataDir);
  });

  const walkIn = (name: string) =>
    api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name, company: 'x'.repeat(150) } });

  test('writes answer 507 STORAGE_FULL, logged once; reads go on; a write after space is freed succeeds', async () => {
    const sqlite = running.ctx.db.sqlite;
    assert.ok(sqlite, 'an SQLite database');
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true })}`);
    const answers: number[] = [];
    // The last pages' free room fills within a few check-ins; 200 is far more than it takes.
    for (let i = 0; i < 200 && answers.filter((status) => status === 507).length < 5; i++) {
      const reply = await walkIn(`Visitor ${i}`);
      answers.push(reply.status);
      if (reply.status !== 200) assert.deepEqual(reply.body, { type: 'STORAGE_FULL' });
    }
    assert.deepEqual(answers.slice(-5), [507, 507, 507, 507, 507]);
    assert.deepEqual(new Set(answers), new Set([200, 507]), 'nothing but success and 507');
    assert.equal(logged.filter((line) => line.startsWith('error')).length, 1, 'one line for the episode');
    assert.doesNotMatch(logged.join('\n'), /\bat .*\.ts:\d+/, 'no stack');

    const read = await api('GET', '/v1/roster');
    assert.equal(read.status, 200, 'reads go on');
    // The read's audit entry is written a moment later (readFlushMs), into the full disk: the service goes on.
    await new Promise((resolve) => setTimeout(resolve, readFlushMs + 500));
    assert.equal((await api('GET', '/v1/roster')).status, 200, 'reads still go on');
    const document = (await api('GET', '/v1/openapi.json')).body;
    assert.deepEqual(
      document.paths['/v1/visits'].post.responses['507'].content['application/json'].schema.properties.type.enum,
      ['STORAGE_FULL'],
    );
    assert.equal(document.paths['/v1/roster'].get.responses['507'], undefined, 'a read never meets it');

    sqlite.pragma('max_page_count = 1073741823');
    assert.equal((await walkIn('After')).status, 200);
    assert.equal((await walkIn('Again')).status, 200);
    assert.equal(logged.filter((line) => line.startsWith('info')).length, 1, 'the episode ends once');
  });
});
