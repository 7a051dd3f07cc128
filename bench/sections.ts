/** Each part of the run as a section of the table and as named figures for the JSON line. */
import type { ComparisonRun } from './compare.ts';
import type { ScriptResult } from './integration.ts';
import type { LoadFigures } from './load.ts';
import type { UnindexedField } from './plans.ts';
import type { RendererResult } from './renderer.ts';
import { type Row, type Section, shown, targets } from './report.ts';
import { type ScaleRun, scaleQueries, visitsOffset } from './scale.ts';
import type { SeededData } from './seed.ts';
import type { StartupFigures } from './startup.ts';

export interface Part {
  section: Section;
  figures: Record<string, number>;
  /** Lines printed under the table (details too long for a cell). */
  notes?: string[];
}

const latencies = (f: LoadFigures) => `${shown(f.p50)} / ${shown(f.p99)}`;

export function ceilingPart(run: ComparisonRun): Part {
  const rows: Row[] = [];
  const figures: Record<string, number> = { noise_ceiling_variation_ratio: run.ceilingVariation };
  for (const { endpoint, portaria, ceiling, ratio } of run.comparisons) {
    const k = endpoint.key;
    Object.assign(figures, {
      [`${k}_portaria_rps`]: portaria.rps,
      [`${k}_portaria_p50_ms`]: portaria.p50,
      [`${k}_portaria_p99_ms`]: portaria.p99,
      [`${k}_portaria_cpu_us`]: portaria.cpuUsPerRequest,
      [`${k}_ceiling_rps`]: ceiling.rps,
      [`${k}_ceiling_p50_ms`]: ceiling.p50,
      [`${k}_ceiling_p99_ms`]: ceiling.p99,
      [`${k}_ceiling_cpu_us`]: ceiling.cpuUsPerRequest,
      [`${k}_ceiling_ratio`]: ratio,
      [`${k}_cpu_ratio`]: ceiling.cpuUsPerRequest / portaria.cpuUsPerRequest,
      [`${k}_failures`]: portaria.failures + ceiling.failures,
    });
    rows.push(
      {
        measure: `${endpoint.label}: req/s`,
        portaria: shown(portaria.rps),
        reference: shown(ceiling.rps),
        ratio,
        target: targets.atLeast(ratio, 0.7),
      },
      { measure: '  p50 / p99 ms', portaria: latencies(portaria), reference: latencies(ceiling) },
      {
        measure: '  server CPU µs per request (ratio: ceiling ÷ Portaria)',
        portaria: shown(portaria.cpuUsPerRequest),
        reference: shown(ceiling.cpuUsPerRequest),
        ratio: ceiling.cpuUsPerRequest / portaria.cpuUsPerRequest,
      },
    );
    const failed = portaria.failures + ceiling.failures;
    if (failed > 0) rows.push({ measure: '  answers not 2xx (ids ran out?)', portaria: `${failed}`, reference: '' });
  }
  return { section: { title: 'Hot endpoints: Portaria vs the ceiling (bench/ceiling.ts)', rows }, figures };
}

export function scalePart(
  large: ScaleRun,
  small: ScaleRun,
  largeDb: SeededData,
  smallDb: SeededData,
  unindexed: UnindexedField[],
): Part {
  const rows: Row[] = [];
  const figures: Record<string, number> = { unindexed_query_fields: unindexed.length };
  for (const q of scaleQueries) {
    const big = large.figures.get(q.key);
    const little = small.figures.get(q.key);
    if (!big || !little) continue;
    const offsets = q.key === 'visits_offset' ? ` (offset ${visitsOffset(largeDb)} / ${visitsOffset(smallDb)})` : '';
    const sizes = big.size === little.size ? `${big.size}` : `${big.size} / ${little.size}`;
    for (const p of ['p50', 'p99'] as const) {
      const ratio = big[p] / little[p];
      Object.assign(figures, {
        [`${q.key}_large_${p}_ms`]: big[p],
        [`${q.key}_small_${p}_ms`]: little[p],
        [`${q.key}_${p}_ratio`]: ratio,
      });
      rows.push({
        measure: `${q.label}${offsets}, ${sizes} objects: ${p} ms`,
        portaria: shown(big[p]),
        reference: shown(little[p]),
        ratio,
        target: targets.atMost(ratio, 2),
      });
    }
  }
  rows.push({
    measure: 'List query fields with no index (they read every row of the company)',
    portaria: `${unindexed.length}`,
    reference: 'listed below',
  });
  const lists = [...new Set(unindexed.map((u) => u.list))];
  const notes = lists.map(
    (list) =>
      `Query fields of GET /v1/${list} with no index (EXPLAIN QUERY PLAN): ` +
      unindexed.flatMap((u) => (u.list === list ? [`\`${u.field}\``] : [])).join(', '),
  );
  const count = (n: number) => n.toLocaleString('en-US');
  const factor = Math.round(largeDb.counts.visits / smallDb.counts.visits);
  const { hosts, invitees, visits } = largeDb.counts;
  return {
    section: {
      title: `Lists at scale: ${count(hosts)} hosts, ${count(invitees)} invitees, ${count(visits)} visits (reference: ÷${factor})`,
      rows,
    },
    figures,
    notes,
  };
}

export function startupPart(
  startup: Record<'small' | 'large' | 'ceiling', StartupFigures>,
  hot: ComparisonRun,
  large: ScaleRun,
  small: ScaleRun,
): Part {
  return {
    figures: {
      startup_small_ms: startup.small.firstAnswerMs,
      startup_large_ms: startup.large.firstAnswerMs,
      startup_ceiling_ms: startup.ceiling.firstAnswerMs,
      startup_ratio: startup.small.firstAnswerMs / startup.ceiling.firstAnswerMs,
      rss_idle_small_mb: startup.small.idleRssMb,
      rss_idle_large_mb: startup.large.idleRssMb,
      rss_idle_ceiling_mb: startup.ceiling.idleRssMb,
      rss_load_hot_mb: hot.portariaPeakRssMb,
      rss_load_ceiling_mb: hot.ceilingPeakRssMb,
      rss_load_large_mb: large.peakRssMb,
      rss_load_small_mb: small.peakRssMb,
    },
    section: {
      title: 'Start-up and memory (reference: the ceiling server, or the small database)',
      rows: [
        {
          measure: 'Start-up to first answer, small database: ms',
          portaria: shown(startup.small.firstAnswerMs),
          reference: `${shown(startup.ceiling.firstAnswerMs)} (ceiling)`,
          ratio: startup.small.firstAnswerMs / startup.ceiling.firstAnswerMs,
          target: targets.atMost(startup.small.firstAnswerMs / startup.ceiling.firstAnswerMs, 1.5),
        },
        {
          measure: 'Start-up to first answer, large database: ms',
          portaria: shown(startup.large.firstAnswerMs),
          reference: `${shown(startup.small.firstAnswerMs)} (small)`,
          ratio: startup.large.firstAnswerMs / startup.small.firstAnswerMs,
        },
        {
          measure: 'Resident memory idle, small / large database: MiB',
          portaria: `${shown(startup.small.idleRssMb)} / ${shown(startup.large.idleRssMb)}`,
          reference: `${shown(startup.ceiling.idleRssMb)} (ceiling)`,
        },
        {
          measure: 'Resident memory under load, hot endpoints: MiB (peak)',
          portaria: shown(hot.portariaPeakRssMb),
          reference: `${shown(hot.ceilingPeakRssMb)} (ceiling)`,
        },
        {
          measure: 'Resident memory under load, large lists: MiB (peak)',
          portaria: shown(large.peakRssMb),
          reference: `${shown(small.peakRssMb)} (small)`,
        },
      ],
    },
  };
}

export function integrationPart(scripts: ScriptResult[]): Part {
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  for (const result of scripts) {
    if (result.error)
      rows.push({ measure: `bench/${result.script}`, portaria: `failed: ${result.error}`, reference: '' });
    for (const [name, value] of Object.entries(result.figures)) {
      figures[name] = value;
      rows.push({ measure: name, portaria: shown(value), reference: '' });
    }
  }
  if (rows.length === 0)
    rows.push({ measure: 'bench/qr.ts, bench/sync-drain.ts', portaria: 'not present', reference: '' });
  return { section: { title: 'Integration and sync (their own scripts)', rows }, figures };
}

export function rendererPart(renderer: RendererResult): Part {
  if (!renderer.built) {
    return {
      section: { title: 'Renderer', rows: [{ measure: 'Renderer', portaria: renderer.reason, reference: '' }] },
      figures: {},
    };
  }
  return {
    figures: {
      renderer_js_gzip_kb: renderer.jsGzipKb,
      renderer_css_gzip_kb: renderer.cssGzipKb,
      renderer_tti_ms: renderer.ttiMs,
    },
    section: {
      title: 'Renderer (headless Chromium)',
      rows: [
        { measure: 'Initial JavaScript, gzip: KiB', portaria: shown(renderer.jsGzipKb), reference: '' },
        { measure: 'Initial CSS, gzip: KiB', portaria: shown(renderer.cssGzipKb), reference: '' },
        { measure: 'Time to interactive, welcome screen: ms', portaria: shown(renderer.ttiMs), reference: '' },
      ],
    },
  };
}
