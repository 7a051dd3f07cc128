import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { answerDeadlineMs, retryCapMs } from '../../local-api/sync/agent.ts';
import type { FaultProxy } from '../helpers/fault-proxy.ts';
import { client, type TestService } from '../helpers/service.ts';
import { type Kiosk, startHubAndKiosk, syncNow, waitFor } from '../helpers/sync-service.ts';

/*
 * A hub that accepts connections and never answers: behind a blackholing middlebox, or its process stopped
 * (SIGSTOP). The kiosk must notice within its deadline, a manual sync must not hang with it, and check-ins made
 * meanwhile must leave within seconds of the hub's return.
 */

let hub: TestService;
let proxy: FaultProxy;
let kiosk: Kiosk;

const atKiosk = () => client(kiosk.url, kiosk.apiKey);
const status = async () => (await atKiosk()('GET', '/v1/sync/status')).body;

/** How long the kiosk may take to say so: a poll (5 s) to start a sync, its deadline, and a little. */
const noticeWithinMs = 5_000 + answerDeadlineMs + 3_000;

before(async () => {
  ({ hub, proxy, kiosk } = await startHubAndKiosk());
});
after(async () => {
  // A hub left stopped by a failed assertion must wake to hear its SIGTERM.
  hub.process.kill('SIGCONT');
  await Promise.all([kiosk.stop(), proxy.close(), hub.stop()]);
});

/** Waits until the status says offline, and checks that it did within the promise; answers how long it took. */
async function noticedOffline(since: number): Promise<number> {
  const noticed = await waitFor(
    'the status to say offline',
    async () => {
      const now = await status();
      return now.state === 'offline' && now;
    },
    noticeWithinMs + 5_000,
  );
  const noticeMs = Date.now() - since;
  assert.ok(noticeMs <= noticeWithinMs, `offline after ${noticeMs} ms`);
  assert.match(noticed.lastError, /^hub did not answer within 10 s$/);
  return noticeMs;
}

async function checkIn(name: string): Promise<void> {
  const reply = await atKiosk()('POST', '/v1/visits', { visit: { id: randomUUID() }, visitor: { name } });
  assert.equal(reply.status, 200, 'the kiosk answers from its own database');
}

/** Waits until the kiosk has pushed everything; answers how long it took. */
async function pendingLeaves(): Promise<number> {
  const started = Date.now();
  const settled = await waitFor(
    'the outbox to empty',
    async () => {
      const now = await status();
      return now.state === 'online' && now.pending === 0 && now;
    },
    30_000,
  );
  assert.equal(settled.lastError, null, 'the error clears once the hub answers');
  return Date.now() - started;
}

test('a blackholed hub: offline within the deadline, a manual sync returns by it, check-ins leave on its return', async (t) => {
  proxy.set('silent');
  const noticeMs = await noticedOffline(Date.now());

  await checkIn('Blackholed Bea');
  const runStarted = Date.now();
  const ran = await syncNow(kiosk, kiosk.apiKey);
  const runMs = Date.now() - runStarted;
  assert.ok(runMs <= answerDeadlineMs + 2_000, `a manual sync answered after ${runMs} ms`);
  assert.deepEqual([ran.state, ran.pending], ['offline', 1]);

  proxy.set('pass');
  const leaveMs = await pendingLeaves();
  // At worst a try already waiting on the dead connection runs out its deadline, then the next retry comes.
  assert.ok(leaveMs <= answerDeadlineMs + retryCapMs + 3_000, `pending left ${leaveMs} ms after the hub returned`);
  t.diagnostic(`blackholed hub: offline after ${noticeMs} ms, manual sync ${runMs} ms, pushed ${leaveMs} ms after`);
});

test('a stopped hub process (SIGSTOP): offline within the deadline; on SIGCONT the check-ins leave within seconds', async (t) => {
  // The proxy passes; the hub's kernel accepts its connections while the hub's process sleeps.
  proxy.set('pass');
  await syncNow(kiosk, kiosk.apiKey);
  hub.process.kill('SIGSTOP');
  const stoppedAt = Date.now();
  let noticeMs = 0;
  try {
    noticeMs = await noticedOffline(stoppedAt);
    await checkIn('Stopped Stan');
    // Stopped for a while longer, as in an outage of 40 s.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 40_000 - (Date.now() - stoppedAt))));
  } finally {
    hub.process.kill('SIGCONT');
  }
  const leaveMs = await pendingLeaves();
  assert.ok(leaveMs <= retryCapMs + 3_000, `pending left ${leaveMs} ms after SIGCONT`);
  t.diagnostic(`stopped hub: offline after ${noticeMs} ms, check-in pushed ${leaveMs} ms after SIGCONT`);
});
