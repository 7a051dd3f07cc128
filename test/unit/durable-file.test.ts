import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createFileDurably } from '../../local-api/store/durable-file.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

const dir = tempDir();
after(() => removeDir(dir));

test('creates the whole file with its mode, refuses to replace one, and leaves no temporary file', () => {
  const file = join(dir, 'device.key');
  createFileDurably(file, Buffer.from('k'.repeat(32)));
  assert.equal(readFileSync(file, 'utf8'), 'k'.repeat(32));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.throws(() => createFileDurably(file, 'other'), { code: 'EEXIST' });
  assert.equal(readFileSync(file, 'utf8'), 'k'.repeat(32), 'the first file is kept');
  assert.deepEqual(readdirSync(dir), ['device.key']);
});
