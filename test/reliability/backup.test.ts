import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { client, cliPath, removeDir, startService, type TestService, tempDir } from '../helpers/service.ts';

/*
 * `portaria backup` while the service runs and writes, scheduled backups and their rotation, and `portaria restore`:
 * refused while a service holds the folder or when the backup is damaged, and bringing back the backed-up state.
 */

const dataDir = tempDir('portaria-backup-');
const scratch = tempDir('portaria-backup-out-');
let service: TestService;
let apiKey: string;
after(async () => {
  await service.stop();
  removeDir(dataDir);
  removeDir(scratch);
});

/** Runs the command line without blocking this process: the HTTP client's idle connections keep their timers. */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliPath, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const startWithBackups = () => startService({ dataDir, args: ['--backup-interval', '1s', '--backup-keep', '2'] });
const api = () => client(service.url, apiKey);
/** The id of the service's change feed, as its kiosks' cursors name it. */
const feedId = async () => String((await api()('GET', '/v1/sync/changes?limit=1')).body.cursor).split('.')[0];
const hostNames = async () =>
  ((await api()('GET', '/v1/hosts?limit=1000')).body.hosts as { name: string }[]).map((h) => h.name).sort();

before(async () => {
  service = await startWithBackups();
  apiKey = (await service.company('Backed Up')).apiKey;
  for (const name of ['Before 1', 'Before 2'])
    assert.equal((await api()('POST', '/v1/hosts', { name, email: `${name.replace(' ', '')}@b.test` })).status, 200);
});

test('backup while the service writes, then restore the backed-up state', async () => {
  const visit = (await api()('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Vince' } })).body;

  // Writes go on during the backup: it is online.
  let writing = true;
  let written = 0;
  const writer = (async () => {
    while (writing) {
      await api()('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name: 'Busy' } });
      written++;
    }
  })();
  const out = join(scratch, 'manual.db');
  const feedBefore = await feedId();
  const backedUp = await cli(['backup', '--data', dataDir, '--out', out]);
  writing = false;
  await writer;
  assert.equal(backedUp.status, 0, backedUp.stderr);
  const { file, bytes, schemaVersion } = JSON.parse(backedUp.stdout);
  assert.equal(file, out);
  assert.ok(bytes > 0 && schemaVersion > 0);
  assert.ok(written > 0, 'the service answered writes during the backup');

  // Changes after the backup, which the restore must undo.
  const hosts = (await api()('GET', '/v1/hosts')).body.hosts as { id: string; name: string }[];
  await api()('DELETE', `/v1/host/${hosts.find((h) => h.name === 'Before 1')?.id}`);
  await api()('POST', '/v1/hosts', { name: 'After', email: 'after@b.test' });
  await api()('PATCH', `/v1/visit/checkout/${visit.id}`, {});
  assert.deepEqual(await hostNames(), ['After', 'Before 2']);

  const refused = await cli(['restore', '--data', dataDir, '--from', out]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /already runs on .*--force/);
  assert.deepEqual(await hostNames(), ['After', 'Before 2'], 'a refused restore changes nothing');

  await service.stop();
  const restored = await cli(['restore', '--data', dataDir, '--from', out]);
  assert.equal(restored.status, 0, restored.stderr);
  assert.match(JSON.parse(restored.stdout).safetyCopy, /backups\/pre-restore-.*\.db$/);
  service = await startWithBackups();
  assert.deepEqual(await hostNames(), ['Before 1', 'Before 2']);
  assert.equal((await api()('GET', `/v1/visit/${visit.id}`)).body.checkoutAt, null);
  // Its kiosks see another feed, and start it over (docs/sync.md, "A hub restored from an older backup").
  assert.notEqual(await feedId(), feedBefore, 'the restored database has a new feed id');
});

test('a damaged backup is refused and the data stays as it was', async () => {
  const damaged = join(scratch, 'damaged.db');
  writeFileSync(damaged, 'SQLite format 3\0 but not really a database');
  const notPortaria = join(scratch, 'other.db');
  const other = await cli(['backup', '--data', scratch, '--out', notPortaria]);
  assert.equal(other.status, 1, 'no database to back up in a folder without one');
  for (const from of [damaged, join(scratch, 'missing.db')]) {
    // Without a digest to check, SQLite's own checks refuse them.
    const result = await cli(['restore', '--data', dataDir, '--from', from, '--force', '--without-digest']);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /restore refused/);
  }
  assert.deepEqual(await hostNames(), ['Before 1', 'Before 2']);
});

test('with --force, a backup is restored into the running service, which answers the restored state', async () => {
  const out = join(scratch, 'online.db');
  assert.equal((await cli(['backup', '--data', dataDir, '--out', out])).status, 0);
  await api()('POST', '/v1/hosts', { name: 'Online Change', email: 'online@b.test' });
  const forced = await cli(['restore', '--data', dataDir, '--from', out, '--force']);
  assert.equal(forced.status, 0, forced.stderr);
  assert.deepEqual(await hostNames(), ['Before 1', 'Before 2']);
  assert.equal((await api()('POST', '/v1/hosts', { name: 'Later', email: 'later@b.test' })).status, 200);
  assert.deepEqual(await hostNames(), ['Before 1', 'Before 2', 'Later']);
});

test('scheduled backups are written every interval and only the newest are kept', async () => {
  const scheduled = () => readdirSync(join(dataDir, 'backups')).filter((name) => /^portaria-.*\.db$/.test(name));
  for (let waited = 0; scheduled().length < 2; waited += 100) {
    assert.ok(waited < 15_000, 'two scheduled backups within 15 s');
    await sleep(100);
  }
  // Newer backups replace the older ones: waited for (a backup a second), not slept on.
  const newestOf = (names: string[]) => [...names].sort().at(-1) ?? '';
  const first = scheduled();
  let later = scheduled();
  for (let waited = 0; later.length !== 2 || newestOf(later) <= newestOf(first); waited += 50) {
    assert.ok(waited < 15_000, `newer backups within 15 s, two kept: ${later.join(', ')}`);
    await sleep(50);
    later = scheduled();
  }
  assert.equal(later.length, 2, `kept: ${later.join(', ')}`);
  // Copied first: the schedule may prune it while the restore starts.
  const newest = join(scratch, 'scheduled.db');
  copyFileSync(join(dataDir, 'backups', later.sort().at(-1) ?? ''), newest);
  copyFileSync(join(dataDir, 'backups', `${later.sort().at(-1)}.sha256`), `${newest}.sha256`);
  // Each kept backup has its digest, and pruned ones took theirs along (read from one listing, again if a
  // backup was being written or pruned just then).
  const digestsMatch = () => {
    const names = readdirSync(join(dataDir, 'backups')).filter((name) => name.startsWith('portaria-'));
    const backups = names.filter((name) => name.endsWith('.db'));
    return (
      JSON.stringify(backups.map((name) => `${name}.sha256`)) ===
      JSON.stringify(names.filter((n) => n.endsWith('.sha256')))
    );
  };
  for (let tries = 0; !digestsMatch(); tries++) {
    assert.ok(tries < 20, 'every scheduled backup has its digest, and no digest outlives its backup');
    await sleep(50);
  }
  const check = await cli(['restore', '--data', scratch, '--from', newest]);
  assert.equal(check.status, 0, `a scheduled backup restores: ${check.stderr}`);
});

test('every backup carries its SHA-256 digest; one altered byte and the restore is refused', async () => {
  const marker = 'digest-probe@backup.test';
  const visit = await api()('POST', '/v1/visits', {
    visit: { id: randomUUID() },
    visitor: { name: 'Probe', email: marker },
  });
  assert.equal(visit.status, 200);
  const out = join(scratch, 'digest.db');
  const backedUp = await cli(['backup', '--data', dataDir, '--out', out]);
  assert.equal(backedUp.status, 0, backedUp.stderr);
  const bytes = readFileSync(out);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  assert.equal(JSON.parse(backedUp.stdout).sha256, sha256);
  assert.equal(readFileSync(`${out}.sha256`, 'utf8'), `${sha256}  digest.db\n`, 'the format of sha256sum');

  // One byte of the e-mail, in a column no index covers: SQLite's integrity check cannot see it.
  const at = bytes.indexOf(marker);
  assert.ok(at > 0);
  const altered = join(scratch, 'altered.db');
  bytes[at] = 'D'.charCodeAt(0);
  writeFileSync(altered, bytes);
  copyFileSync(`${out}.sha256`, `${altered}.sha256`);
  const before = await hostNames();
  await api()('POST', '/v1/hosts', { name: 'After Digest', email: 'after-digest@b.test' });
  const refused = await cli(['restore', '--data', dataDir, '--from', altered, '--force']);
  assert.equal(refused.status, 1, refused.stdout);
  assert.match(refused.stderr, /restore refused: .*altered\.db does not match its SHA-256 digest/);
  assert.deepEqual(await hostNames(), [...before, 'After Digest'].sort(), 'nothing was restored');

  // Without its digest a backup is refused too, unless the operator accepts it outright.
  const bare = join(scratch, 'bare.db');
  copyFileSync(out, bare);
  const undigested = await cli(['restore', '--data', dataDir, '--from', bare, '--force']);
  assert.equal(undigested.status, 1);
  assert.match(undigested.stderr, /has no SHA-256 digest .*--without-digest/);
  const accepted = await cli(['restore', '--data', dataDir, '--from', bare, '--force', '--without-digest']);
  assert.equal(accepted.status, 0, accepted.stderr);
  const restored = await cli(['restore', '--data', dataDir, '--from', out, '--force']);
  assert.equal(restored.status, 0, restored.stderr);
  assert.deepEqual(await hostNames(), before);
});
