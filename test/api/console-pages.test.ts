import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import express from 'express';
import { consolePages } from '../../local-api/console/pages.ts';

/** The console's page served from `dist` by a bare app: what the service mounts before /v1. */
async function serve(dist: string) {
  const app = express();
  app.use(consolePages(dist));
  app.use((_req, res) => {
    res.status(404).json({ type: 'NOT_FOUND' });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => server.close() };
}

test('every path under /console answers the console page, under the CSP, never cached stale', async (t) => {
  const dist = mkdtempSync(join(tmpdir(), 'portaria-console-'));
  t.after(() => rmSync(dist, { recursive: true, force: true }));
  writeFileSync(join(dist, 'console.html'), '<!doctype html><title>console</title>');
  const server = await serve(dist);
  t.after(server.close);
  for (const path of ['/console', '/console/', '/console/today', '/console/welcome/abc.def']) {
    const answer = await fetch(`${server.url}${path}`);
    assert.equal(answer.status, 200, path);
    assert.match(await answer.text(), /<title>console<\/title>/);
    assert.match(answer.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(answer.headers.get('cache-control'), 'no-cache');
  }
  assert.equal((await fetch(`${server.url}/consoles`)).status, 404);
});

test('says how to build the console where it is not built', async (t) => {
  const server = await serve(join(tmpdir(), 'portaria-no-such-build'));
  t.after(server.close);
  const answer = await fetch(`${server.url}/console/today`);
  assert.equal(answer.status, 503);
  assert.match(await answer.text(), /npm run build:renderer/);
});
