// `npm install`'s postinstall: fetches Electron's binary. Electron's own postinstall is skipped (package.json
// "allowScripts") because, without network access, it fails the whole install; here a failure is one line
// and the install goes on. Without the binary, `npm start` runs the kiosk in browser mode.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const installer = 'node_modules/electron/install.js';
if (existsSync(installer)) {
  const result = spawnSync(process.execPath, [installer], { encoding: 'utf8' });
  if (result.status === 0) {
    process.stdout.write("Electron's binary is installed.\n");
  } else {
    const cause = `${result.stderr}`.split('\n').find((line) => line.trim()) ?? `exit code ${result.status}`;
    process.stdout.write(`Electron's binary was not downloaded (${cause.trim()}): npm start will use browser mode.\n`);
  }
}
