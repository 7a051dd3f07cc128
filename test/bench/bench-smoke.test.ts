import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareWithCeiling, hotEndpoints } from '../../bench/compare.ts';
import { figuresOf } from '../../bench/integration.ts';
import { markers, writeGeneratedSection } from '../../bench/report.ts';
import { seed } from '../../bench/seed.ts';
import { removeDir, tempDir } from '../helpers/service.ts';

test('the ceiling comparison drives both servers and answers numbers', async () => {
  const dir = tempDir('portaria-bench-');
  try {
    const seeded = seed(join(dir, 'hot'), { hosts: 5, invitees: 200, visits: 200 }, 'fresh');
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
      for (const value of [figures.rps, figures.requests, figures.cpuUsPerRequest]) assert.ok(value > 0, `${value}`);
      for (const value of [figures.p50, figures.p99]) assert.ok(Number.isFinite(value) && value >= 0, `${value}`);
    }
    assert.ok(comparison.ratio > 0 && Number.isFinite(comparison.ratio));
    assert.ok(run.portariaPeakRssMb > 0 && run.ceilingPeakRssMb > 0);
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
