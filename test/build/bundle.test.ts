import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { client, removeDir, repoRoot, startService, tempDir } from '../helpers/service.ts';

const dir = tempDir();
after(() => removeDir(dir));

test('the command line loads the body parsers with the first body, not at start, and only English of zod', async () => {
  // Told by the process itself: each time something requires iconv-lite (what body-parser reads bodies with).
  const watch = join(dir, 'watch-loads.cjs');
  writeFileSync(
    watch,
    `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'iconv-lite') process.stderr.write('required iconv-lite\\n');
  return load.call(this, request, ...rest);
};
`,
  );
  const service = await startService({ env: { NODE_OPTIONS: `--require ${watch}` } });
  try {
    const api = client(service.url, (await service.company('Bundle')).apiKey);
    assert.equal((await api('GET', '/v1/hosts')).status, 200);
    assert.doesNotMatch(service.stderr(), /required iconv-lite/, 'a request without a body reads none');
    const created = await api('POST', '/v1/hosts', { name: 'Ana', email: 'ana@bundle.test' });
    assert.equal(created.status, 200);
    assert.equal(created.body.name, 'Ana');
    assert.match(service.stderr(), /required iconv-lite/, 'the first body loads the parsers');
  } finally {
    await service.stop();
  }

  const bundle = readFileSync(join(repoRoot, 'dist/electron/main/cli/main.js'), 'utf8');
  assert.match(bundle, /Invalid input/, "zod's English messages");
  assert.doesNotMatch(bundle, /Eingabe|Entrada inv/, 'no other language (German, Spanish…)');
});
