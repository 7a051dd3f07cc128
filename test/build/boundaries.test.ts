import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { checkBoundaries } from '../../main/build/boundaries.ts';
import { removeDir, repoRoot, tempDir } from '../helpers/service.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

function tree(files: Record<string, string>): string {
  const root = tempDir('portaria-boundaries-');
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('the repository keeps to the boundaries', () => {
  assert.deepEqual(checkBoundaries(repoRoot), []);
});

test('a planted forbidden import, an impure module under the page and a cycle are each reported', () => {
  const root = tree({
    'main/shell.ts': 'export const shell = 1;\n',
    'main/window.ts': "import { serve } from './cli/serve.ts';\nexport const window = serve;\n",
    'local-api/app.ts': "import { shell } from '../main/shell.ts';\nexport const app = shell;\n",
    'local-api/store/db.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    'local-api/rules/pure.ts': "import { z } from 'zod';\nexport const name = z.string();\n",
    'local-api/rules/hashes.ts': "import { createHash } from 'node:crypto';\nexport const hash = createHash;\n",
    'local-api/visits/schema.ts': "import type { read } from '../store/db.ts';\nexport type Read = typeof read;\n",
    'local-api/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
    'local-api/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    'renderer/src/ok.tsx':
      "import { name } from '../../local-api/rules/pure.ts';\nimport type { Read } from '../../local-api/visits/schema.ts';\nexport { name };\nexport type { Read };\n",
    'renderer/src/store.tsx': "import { read } from '../../local-api/store/db.ts';\nexport { read };\n",
    'renderer/src/hash.tsx': "export const load = () => import('../../local-api/rules/hashes.ts');\n",
    'preload/index.ts': "import { app } from '../local-api/app.ts';\nexport { app };\n",
    // Allowed, so not reported: the command line takes the shell, the service and the build tools; the build tools
    // take their own modules.
    'main/cli/serve.ts': "import { paths } from '../build/paths.ts';\nexport const serve = paths;\n",
    'main/cli/main.ts':
      "import { shell } from '../shell.ts';\nimport { app } from '../../local-api/app.ts';\nimport { serve } from './serve.ts';\nexport { app, serve, shell };\n",
    'main/build/paths.ts': 'export const paths = 1;\n',
    'main/build/build.ts':
      "import { paths } from './paths.ts';\nimport { app } from '../../local-api/app.ts';\nexport { app, paths };\n",
    'local-api/serve.ts': "export const load = () => import('../main/cli/serve.ts');\n",
    'renderer/src/build.tsx': "import { paths } from '../../main/build/paths.ts';\nexport { paths };\n",
  });
  assert.deepEqual(checkBoundaries(root).sort(), [
    'import cycle: local-api/a.ts → local-api/b.ts → local-api/a.ts',
    'local-api/app.ts imports main/shell.ts: local-api/ may not import main/ (the service runs without the shell, the page and the command line)',
    'local-api/rules/hashes.ts imports node:crypto: the page runs local-api/rules/hashes.ts, which may not import Node or other packages',
    'local-api/serve.ts imports main/cli/serve.ts: local-api/ may not import main/ (the service runs without the shell, the page and the command line)',
    // The forbidden module is also run by the page, and it is not pure either.
    'local-api/store/db.ts imports node:fs: the page runs local-api/store/db.ts, which may not import Node or other packages',
    'main/build/build.ts imports local-api/app.ts: main/build/ may not import local-api/ (the build tools run before anything is built)',
    'main/window.ts imports main/cli/serve.ts: main/ may not import main/cli/ (the shell runs the built service and page, not their tools)',
    'preload/index.ts imports local-api/app.ts: preload/ may not import local-api/ (the sandboxed preload requires nothing but electron)',
    'renderer/src/build.tsx imports main/build/paths.ts: renderer/ may not import main/ (the page runs in a browser; of the service it may use only pure rules and schemas (pageMayUse))',
    'renderer/src/store.tsx imports local-api/store/db.ts: renderer/ may not import local-api/ (the page runs in a browser; of the service it may use only pure rules and schemas (pageMayUse))',
  ]);

  const command = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'main/build/boundaries.ts'), '--root', root],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(command.status, 1, command.stderr);
  assert.match(command.stderr, /^local-api\/app\.ts imports main\/shell\.ts: /m);
  assert.match(command.stderr, /10 forbidden import\(s\)/);
});
