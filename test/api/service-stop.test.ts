import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { startService } from '../helpers/service.ts';

test('the service stops although a browser holds connections open without a request on them', async () => {
  const service = await startService();
  const { hostname, port } = new URL(service.url);
  // Browsers open connections ahead of need (Chromium's preconnect) and may send nothing on them for a long time;
  // the kiosk's page is open while the service stops (the Electron shell quitting, a restart).
  const idle = connect(Number(port), hostname);
  idle.on('error', () => undefined); // the service resets it when it stops: that is the point
  await new Promise((resolve) => idle.once('connect', resolve));
  let timer: NodeJS.Timeout | undefined;
  const exited = await Promise.race([
    service.stop().then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), 15_000);
    }),
  ]);
  clearTimeout(timer);
  idle.destroy();
  assert.equal(exited, true, 'the service exited');
});
