import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { test } from 'node:test';
import { StatementCounter, startBenchCluster } from '../../bench/hub/cluster.ts';
import { chosenPhases, quickPlan, sizedPlan } from '../../bench/hub/plan.ts';
import { measureTarget, startDelayProxy, type ThroughputPlan } from '../../bench/hub/throughput.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

test('--only picks phases in the bench order and names the known ones for an unknown one', () => {
  assert.deepEqual(chosenPhases('fanout,push'), ['push', 'fanout']);
  assert.equal(chosenPhases(undefined).length, 5);
  assert.throws(() => chosenPhases('push,pull'), /unknown phase pull: the phases are push, drain, fanout/);
});

test('sizes given on the command line change only what they name, and must be counts', () => {
  const sized = sizedPlan(quickPlan, { kiosks: '12', visits: '5000' });
  assert.equal(sized.throughput.kiosks, 12);
  assert.equal(sized.historyVisits, 5000);
  assert.deepEqual({ ...sized, throughput: quickPlan.throughput, historyVisits: quickPlan.historyVisits }, quickPlan);
  assert.throws(() => sizedPlan(quickPlan, { drain: '1e3x' }), /--drain must be a whole number above 0, not 1e3x/);
  assert.throws(() => sizedPlan(quickPlan, { fanoutKiosks: '1' }), /at least 2/);
});

test('the delay proxy holds each direction by its delay and keeps the bytes in order', async () => {
  const echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const { port } = echo.address() as { port: number };
  const proxy = await startDelayProxy(`postgres://postgres@127.0.0.1:${port}`, 40);
  try {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(proxy.url).port) });
    await new Promise((resolve) => socket.once('connect', resolve));
    const sent = performance.now();
    const received: Buffer[] = [];
    const all = new Promise<void>((resolve) =>
      socket.on('data', (chunk: Buffer) => {
        received.push(chunk);
        if (Buffer.concat(received).length === 6) resolve();
      }),
    );
    socket.write('abc');
    socket.write('def');
    await all;
    assert.ok(performance.now() - sent >= 78, 'there and back, 40 ms each way');
    assert.equal(Buffer.concat(received).toString(), 'abcdef');
    socket.destroy();
  } finally {
    await proxy.stop();
    echo.close();
  }
});

test('the hub and the bare server are driven alike, and the statements they send are counted', async () => {
  const cluster = await startBenchCluster();
  const counter = await StatementCounter.open(cluster.url);
  const workDir = tempDir('portaria-bench-hub-test-');
  const plan: ThroughputPlan = {
    kiosks: 2,
    companies: 1,
    batchSize: 10,
    batchesPerKiosk: 2,
    pushSeconds: 30,
    pullSeconds: 0.3,
    idlePolls: 2,
    idleProbeSeconds: 0.3,
    delayMs: 1,
    delayedKiosks: 1,
  };
  try {
    const setup = { cluster, proxyUrl: cluster.url, counter, workDir };
    const bare = await measureTarget('bare', 'loopback', setup, plan);
    const hub = await measureTarget('hub', 'loopback', setup, plan);
    for (const [name, figures] of Object.entries({ bare, hub })) {
      assert.equal(figures.failures, 0, `${name}: every mutation applied, every page and poll as expected`);
      assert.equal(figures.push.samples, plan.kiosks * plan.batchesPerKiosk, `${name}: one latency per batch`);
      assert.ok(figures.pushPerSecond > 0 && figures.pullRowsPerSecond > 0, `${name}: throughput`);
      assert.ok(figures.cheapIdle.samples > 0 && figures.cheapDuringPush.samples > 0, `${name}: cheap GET timed`);
    }
    // The bare server: BEGIN and COMMIT per batch, a row and its feed entry per mutation; one query per page or GET.
    assert.ok(Math.abs(bare.statements.mutation.all - (2 + 2 / plan.batchSize)) < 1e-9);
    assert.equal(bare.statements.mutation.withoutTransactionControl, 2);
    assert.equal(bare.statements.poll.all, 1);
    assert.equal(bare.statements.cheap.all, 1);
    assert.ok(hub.statements.mutation.all > bare.statements.mutation.all, 'the hub does more per mutation');
    assert.ok(hub.statements.mutation.top.length > 0, 'its statements are named');
  } finally {
    await counter.close();
    cluster.stop();
    removeDir(workDir);
  }
});
