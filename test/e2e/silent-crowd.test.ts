/**
 * Connections that send nothing cannot take the kiosk's page down (docs/reliability.md, "Connections that send
 * nothing"). The service runs with 300 file descriptors, and 600 connections that send nothing arrive, more while
 * the page loads: they used to hold every descriptor, so the page could not connect. Every client of a kiosk is
 * 127.0.0.1, so the remedy closes the oldest silent connections rather than refusing by address, and the page, which
 * sends its requests as it connects, loads as usual.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium, openKiosk } from '../helpers/browser.ts';
import { cliPath, removeDir, runCli, tempDir } from '../helpers/service.ts';

const descriptors = 300;
let service: ChildProcess;
let url: string;
let dataDir: string;
let browser: Browser;
const crowd: Socket[] = [];

before(async () => {
  dataDir = tempDir();
  await runCli(['company', 'create', '--data', dataDir, '--name', 'Acme']);
  // `ulimit` is the shell's: the service inherits the limit (soft and hard, so Node cannot raise it).
  service = spawn(
    'sh',
    [
      '-c',
      `ulimit -n ${descriptors} && exec "$0" "$@"`,
      process.execPath,
      cliPath,
      'serve',
      '--port',
      '0',
      '--data',
      dataDir,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, PORTARIA_LOG_LEVEL: 'warn' } },
  );
  url = await new Promise((resolve, reject) => {
    let out = '';
    service.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    service.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  browser = await launchChromium();
});
after(async () => {
  for (const socket of crowd) socket.destroy();
  await browser?.close();
  if (service && service.exitCode === null) {
    const exited = new Promise((done) => service.once('exit', done));
    service.kill('SIGTERM');
    await exited;
  }
  removeDir(dataDir);
});

test("the kiosk's page loads while 600 silent connections arrive at a service with 300 descriptors", {
  timeout: 60_000,
}, async () => {
  const { port } = new URL(url);
  const arrive = () => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => {});
    crowd.push(socket);
  };
  for (let i = 0; i < 2 * descriptors; i++) arrive();
  const arriving = setInterval(arrive, 20);
  try {
    const { page, problems } = await openKiosk(browser, url);
    await page.getByRole('heading', { name: 'Welcome to Acme' }).waitFor({ timeout: 20_000 });
    assert.deepEqual(problems, []);
  } finally {
    clearInterval(arriving);
  }
});
