import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { recordInputs, staleness, stalenessInBackground } from '../../main/build/fresh.mjs';
import { removeDir, tempDir } from '../helpers/service.ts';

const root = tempDir();
after(() => removeDir(root));

test('the check the launcher runs beside loading says what the one the build runs says', async () => {
  const manifest = join(root, 'out', '.inputs.json');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'a');
  writeFileSync(join(root, 'src', 'deep', 'b.ts'), 'b');
  writeFileSync(join(root, 'package.json'), '{}');
  const both = async () => {
    const inBackground = await stalenessInBackground(root, manifest);
    assert.equal(inBackground, staleness(root, manifest));
    return inBackground;
  };

  assert.equal(await both(), 'it was never built');
  recordInputs(root, manifest, { folders: ['src'], files: ['package.json'] });
  assert.equal(await both(), undefined);

  utimesSync(join(root, 'src', 'deep', 'b.ts'), new Date(), new Date(Date.now() + 5000));
  assert.equal(await both(), 'src/deep/b.ts changed');
  recordInputs(root, manifest, { folders: ['src'], files: ['package.json'] });

  writeFileSync(join(root, 'src', 'deep', 'c.ts'), 'c');
  assert.equal(await both(), 'files were added to or removed from src');
  rmSync(join(root, 'src', 'deep', 'c.ts'));
  assert.equal(await both(), undefined);

  rmSync(join(root, 'package.json'));
  assert.equal(await both(), 'package.json changed');
  rmSync(join(root, 'src'), { recursive: true });
  assert.equal(await both(), 'src is missing');
});
