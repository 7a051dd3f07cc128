// `npm install`'s postinstall (after install-electron.mjs): links the command line as node_modules/.bin/portaria, so
// that `npx portaria` runs it at once. package.json has no "bin" on purpose: npm (10 and 11) runs a project's own
// "bin" by installing the project into its npx cache, and reads every installed package again to do so, on every
// call (seconds; bench/cli-launch.ts). A command in node_modules/.bin is run directly. The folder .bin is one npm's
// record of node_modules (its hidden lock file) does not compare, so writing there leaves that record current.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const bin = join('node_modules', '.bin');
mkdirSync(bin, { recursive: true });
if (process.platform === 'win32') {
  writeFileSync(join(bin, 'portaria.cmd'), '@node "%~dp0\\..\\..\\main\\cli\\portaria.mjs" %*\r\n');
} else {
  rmSync(join(bin, 'portaria'), { force: true });
  symlinkSync(join('..', '..', 'main', 'cli', 'portaria.mjs'), join(bin, 'portaria'));
}
