import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pngBytes } from '../helpers/files.ts';
import { client, removeDir, runCli, startService, tempDir } from '../helpers/service.ts';

/*
 * Visitor data is the service user's alone: every folder of the data folder 0700, every file 0600, whether the
 * service, the command line or a backup made it, and also when a folder an older version left readable is opened.
 */

// The usual umask: files would be 0644 and folders 0755 if nothing asked for less.
process.umask(0o022);

const scratch = tempDir('portaria-modes-');
after(() => removeDir(scratch));

/** Every entry under `dir` whose mode is not 0700 (folders) or 0600 (files), with its mode. */
function openEntries(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600))
      found.push(`${relative(scratch, path) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return found;
}

test('a data folder the command line creates is 0700 with files 0600', async () => {
  const dataDir = join(scratch, 'cli', 'data');
  await runCli(['company', 'create', '--data', dataDir, '--name', 'Modes']);
  assert.ok(readdirSync(dataDir).includes('portaria.db'));
  assert.deepEqual(openEntries(dataDir), []);
});

test('the service, its uploads and its backups keep the data private, also in a folder left readable', async () => {
  const dataDir = join(scratch, 'old');
  await runCli(['company', 'create', '--data', dataDir, '--name', 'Old']);
  // As an older version left it: everything readable by everyone.
  chmodSync(dataDir, 0o755);
  for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
  mkdirSync(join(dataDir, 'backups'), { mode: 0o755 });
  assert.ok(openEntries(dataDir).length > 2);

  const service = await startService({ dataDir, args: ['--backup-interval', '1s', '--backup-keep', '2'] });
  try {
    const api = client(service.url, (await service.company('Modes Co')).apiKey);
    const visit = await api('POST', '/v1/visits', {
      visit: { id: crypto.randomUUID() },
      visitor: { name: 'Private Person', email: 'private@modes.test' },
      visitPicture: pngBytes().toString('base64'),
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    await runCli(['backup', '--data', dataDir]);
    await runCli(['backup', '--data', dataDir, '--out', join(dataDir, 'exports', 'manual.db')]);
    const scheduled = () => readdirSync(join(dataDir, 'backups')).filter((name) => name.endsWith('.db.sha256'));
    for (let waited = 0; scheduled().length < 2; waited += 100) {
      assert.ok(waited < 15_000, 'scheduled backups within 15 s');
      await sleep(100);
    }
    const names = readdirSync(dataDir);
    for (const name of [
      'portaria.db',
      'portaria.db-wal',
      'portaria.db-shm',
      'device.key',
      'service.lock.db',
      'service.json',
      'files',
    ]) {
      assert.ok(names.includes(name), `${name} is there to be checked`);
    }
    assert.deepEqual(openEntries(dataDir), []);
  } finally {
    await service.stop();
  }
});
