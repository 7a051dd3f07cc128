import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { consolePart, consoleRequests, measureConsole } from '../../bench/console.ts';
import { seed } from '../../bench/seed.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

test("the console section signs people in and times every page's first answer for each", async () => {
  const dir = tempDir('portaria-bench-console-');
  try {
    const seeded = await seed(join(dir, 'large'), { hosts: 5, invitees: 100, visits: 400 }, 'history');
    const runs = await measureConsole(seeded, 0.05);
    assert.deepEqual(
      runs.map((run) => run.who),
      ['admin', 'host'],
    );
    for (const run of runs) {
      const asked = consoleRequests.filter((request) => request.who.includes(run.who)).map((r) => r.key);
      assert.deepEqual([...run.figures.keys()], asked, run.who);
      for (const [key, latency] of run.figures) {
        assert.ok(latency.samples >= 10, `${run.who} ${key}: ${latency.samples} samples`);
        assert.ok(latency.p50 > 0 && latency.p50 <= latency.p95, `${run.who} ${key}: ${latency.p50} / ${latency.p95}`);
      }
    }
    assert.deepEqual([...(runs[0]?.cold.keys() ?? [])], ['analytics_30', 'analytics_90']);
    const part = consolePart(runs, seeded);
    const timed = runs.reduce((sum, run) => sum + run.figures.size, 0);
    assert.equal(part.section.rows.length, timed + 2);
    assert.ok(part.section.rows.every((row) => row.target === undefined || row.target.text === '≤ 1'));
    // A seeded folder is reused from run to run: its people exist already, and sign in.
    const again = await measureConsole(seeded, 0.05);
    assert.deepEqual(
      again.map((run) => run.figures.size),
      runs.map((run) => run.figures.size),
    );
  } finally {
    removeDir(dir);
  }
});
