import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareWithCeiling, hotEndpoints } from '../../bench/compare.ts';
import { measureHubs } from '../../bench/hub/arrangements.ts';
import { figuresOf } from '../../bench/integration.ts';
import { markers, writeGeneratedSection } from '../../bench/report.ts';
import { hubPart } from '../../bench/sections.ts';
import { seed } from '../../bench/seed.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

test('the ceiling comparison drives both servers and answers numbers', async () => {
  const dir = tempDir('portaria-bench-');
  try {
    const seeded = await seed(join(dir, 'hot'), { hosts: 5, invitees: 200, visits: 200 }, 'fresh');
    const run = await compareWithCeiling({
      seeded,
      workDir: join(dir, 'run'),
      settings: { connections: 2, seconds: 0.5 },
      warmupSeconds: 0,
      rounds: 1,
      endpoints: hotEndpoints.filter((e) => e.key === 'visit_get'),
    });
    assert.equal(run.comparisons.length, 1);
    const [comparison] = run.comparisons;
    assert.ok(comparison);
    for (const figures of [comparison.portaria, comparison.ceiling]) {
      assert.equal(figures.failures, 0, 'every request answered 2xx');
      assert.ok(Number.isInteger(figures.requests) && figures.requests >= 2, `requests: ${figures.requests}`);
      // One round of 0.5 s: requests/s is the requests over a run of 0.5 s (autocannon may overrun a little).
      assert.ok(
        figures.rps <= figures.requests / 0.45 && figures.rps >= figures.requests / 1.5,
        `${figures.rps} req/s for ${figures.requests} requests in about 0.5 s`,
      );
      assert.ok(
        figures.p50 >= 0 && figures.p50 <= figures.p99 && figures.p99 < 5000,
        `p50 ${figures.p50}, p99 ${figures.p99}`,
      );
      // The server's own CPU time per answer: more than nothing, less than the whole run's wall time.
      assert.ok(
        figures.cpuUsPerRequest > 0 && figures.cpuUsPerRequest * figures.requests < 2 * 1_500_000,
        `${figures.cpuUsPerRequest} µs per request`,
      );
    }
    assert.equal(comparison.ratio, comparison.portaria.rps / comparison.ceiling.rps);
    // A Node process with Express and SQLite holds tens of MiB; neither server may hold more than a GiB here.
    for (const mib of [run.portariaPeakRssMb, run.ceilingPeakRssMb]) assert.ok(mib > 20 && mib < 1024, `${mib} MiB`);
  } finally {
    removeDir(dir);
  }
});

test('regenerating the benchmark section leaves the other sections of the document alone', () => {
  const dir = tempDir('portaria-bench-doc-');
  try {
    const file = join(dir, 'benchmarks.md');
    writeFileSync(file, '# Benchmarks\n\n## Event loop\n\nTheirs.\n');
    writeGeneratedSection(file, '## Core', 'first figures');
    writeGeneratedSection(file, '## Core', 'second figures');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /## Event loop\n\nTheirs\./);
    assert.equal(text.split(markers.start).length, 2, 'one generated block');
    assert.match(text, /second figures/);
    assert.doesNotMatch(text, /first figures/);
  } finally {
    removeDir(dir);
  }
});

test("an integration script's last JSON line gives its numeric figures, named after the script", () => {
  const output = 'warming up\n{"bench":"qr","aesPerSecond":1200,"node":"v20"}\n';
  assert.deepEqual(figuresOf(output, 'qr'), { qr_aesPerSecond: 1200 });
  assert.throws(() => figuresOf('no json here\n', 'qr'));
});

test('the hub section compares PostgreSQL with SQLite and two processes with one, and says why a figure is missing', () => {
  const plan = { kiosks: 4, companies: 2, batchesPerKiosk: 2, batchSize: 100, pullSeconds: 1 };
  const figures = (push: number, pull: number) => ({
    pushPerSecond: push,
    push: { p50: 10, p99: 40, samples: 8 },
    pullRowsPerSecond: pull,
    pull: { p50: 5, p99: 20, samples: 30 },
    cpuUsPerMutation: 300,
    failures: 0,
  });
  const measured = hubPart(
    { sqlite: figures(1000, 8000), postgres: figures(500, 6000), postgresTwo: figures(750, 9000) },
    plan,
  );
  assert.equal(measured.figures.hub_pg_push_sqlite_ratio, 0.5);
  assert.equal(measured.figures.hub_pg_two_push_scaling_ratio, 1.5);
  assert.equal(measured.figures.hub_pg_two_pull_scaling_ratio, 1.5);
  assert.match(measured.section.title, /4 kiosks over 2 companies push 800 mutations/);
  assert.equal(measured.section.rows.filter((row) => row.ratio !== undefined).length, 4);

  const failed = hubPart(
    { sqlite: figures(1000, 8000), postgres: { failed: 'push answered 500' }, postgresTwo: { failed: 'x' } },
    plan,
  );
  assert.equal(failed.figures.hub_pg_push_sqlite_ratio, undefined);
  assert.equal(failed.figures.hub_sqlite_push_per_s, 1000);
  assert.match(failed.section.rows[0]?.portaria ?? '', /not measured: push answered 500/);
});

test('the hub bench drives kiosks against SQLite, PostgreSQL and two PostgreSQL processes, and answers numbers', async () => {
  const dir = tempDir('portaria-bench-hub-');
  const plan = { kiosks: 2, companies: 1, batchesPerKiosk: 2, batchSize: 10, pullSeconds: 0.3 };
  const previous = process.env.PORTARIA_BENCH_POSTGRES;
  // The suite's server when it runs against PostgreSQL (a database per arrangement, dropped after); a cluster of the
  // bench's own otherwise, as npm run bench starts.
  if (process.env.PORTARIA_TEST_POSTGRES) process.env.PORTARIA_BENCH_POSTGRES = process.env.PORTARIA_TEST_POSTGRES;
  try {
    const run = await measureHubs(join(dir, 'hub'), plan, () => {});
    for (const [name, outcome] of Object.entries(run)) {
      assert.ok(!('failed' in outcome), `${name}: ${'failed' in outcome ? outcome.failed : ''}`);
      assert.equal(outcome.failures, 0, `${name}: every mutation applied, every page 200`);
      assert.equal(outcome.push.samples, plan.kiosks * plan.batchesPerKiosk, `${name}: one latency per batch`);
      assert.ok(outcome.pushPerSecond > 0 && outcome.pullRowsPerSecond > 0, `${name}: throughput`);
      assert.ok(outcome.push.p50 <= outcome.push.p99 && outcome.pull.p50 <= outcome.pull.p99, `${name}: percentiles`);
      assert.equal(outcome.transactions === undefined, name === 'sqlite', `${name}: PostgreSQL's counts, on it only`);
    }
    assert.ok(!existsSync(join(dir, 'hub')), 'the hub folders are removed');
  } finally {
    if (previous === undefined) delete process.env.PORTARIA_BENCH_POSTGRES;
    else process.env.PORTARIA_BENCH_POSTGRES = previous;
    removeDir(dir);
  }
});
