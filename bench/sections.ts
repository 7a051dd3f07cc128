/** Each part of the run as a section of the table and as named figures for the JSON line. */
import type { ComparisonRun } from './compare.ts';
import type { HubFigures, HubOutcome, HubPlan, HubRun } from './hub/arrangements.ts';
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

/**
 * One endpoint driven on two servers: requests/s (its ratio held to `rpsTarget`), latencies, server CPU per request
 * (reference ÷ measured, held to `cpuTarget` when given), and the answers that were not 2xx, if any.
 */
function comparisonRows(
  label: string,
  measured: LoadFigures,
  reference: LoadFigures,
  options: { rpsTarget: number; cpuLabel: string; cpuTarget?: number },
): Row[] {
  const ratio = measured.rps / reference.rps;
  const cpuRatio = reference.cpuUsPerRequest / measured.cpuUsPerRequest;
  const rows: Row[] = [
    {
      measure: `${label}: req/s`,
      portaria: shown(measured.rps),
      reference: shown(reference.rps),
      ratio,
      target: targets.atLeast(ratio, options.rpsTarget),
    },
    { measure: '  p50 / p99 ms', portaria: latencies(measured), reference: latencies(reference) },
    {
      measure: `  server CPU µs per request (ratio: ${options.cpuLabel})`,
      portaria: shown(measured.cpuUsPerRequest),
      reference: shown(reference.cpuUsPerRequest),
      ratio: cpuRatio,
      ...(options.cpuTarget === undefined ? {} : { target: targets.atLeast(cpuRatio, options.cpuTarget) }),
    },
  ];
  const failed = measured.failures + reference.failures;
  if (failed > 0) rows.push({ measure: '  answers not 2xx (ids ran out?)', portaria: `${failed}`, reference: '' });
  return rows;
}

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
    rows.push(...comparisonRows(endpoint.label, portaria, ceiling, { rpsTarget: 0.7, cpuLabel: 'ceiling ÷ Portaria' }));
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

/** The SQLite kiosk path of this tree against the same endpoints as an earlier commit served them. */
export function kioskPathPart(run: ComparisonRun | { failed: string }, commit: string): Part {
  const title = `SQLite kiosk path: this tree vs ${commit} (reference), same database, same run`;
  if ('failed' in run) {
    return { section: { title, rows: [{ measure: 'Kiosk path', portaria: run.failed, reference: '' }] }, figures: {} };
  }
  const rows: Row[] = [];
  const figures: Record<string, number> = {};
  for (const { endpoint, portaria, ceiling: before, ratio } of run.comparisons) {
    const k = `kiosk_${endpoint.key}`;
    const cpuRatio = before.cpuUsPerRequest / portaria.cpuUsPerRequest;
    Object.assign(figures, {
      [`${k}_rps`]: portaria.rps,
      [`${k}_before_rps`]: before.rps,
      [`${k}_p99_ms`]: portaria.p99,
      [`${k}_before_p99_ms`]: before.p99,
      [`${k}_before_ratio`]: ratio,
      [`${k}_cpu_ratio`]: cpuRatio,
      [`${k}_failures`]: portaria.failures + before.failures,
    });
    rows.push(
      ...comparisonRows(endpoint.label, portaria, before, {
        rpsTarget: 0.9,
        cpuLabel: `${commit} ÷ this tree`,
        cpuTarget: 0.9,
      }),
    );
  }
  return { section: { title, rows }, figures };
}

const hubLatencies = (f: HubFigures, key: 'push' | 'pull') => `${shown(f[key].p50)} / ${shown(f[key].p99)}`;

/** Rows comparing two arrangements of the hub; a row saying why when either could not be measured. */
function hubRows(label: string, measured: HubOutcome, reference: HubOutcome, referenceName: string): Row[] {
  if ('failed' in measured || 'failed' in reference) {
    const why = 'failed' in measured ? measured.failed : (reference as { failed: string }).failed;
    return [{ measure: label, portaria: `not measured: ${why}`, reference: '' }];
  }
  const push = measured.pushPerSecond / reference.pushPerSecond;
  const pull = measured.pullRowsPerSecond / reference.pullRowsPerSecond;
  const rows: Row[] = [
    {
      measure: `${label}: push, mutations/s`,
      portaria: shown(measured.pushPerSecond),
      reference: `${shown(reference.pushPerSecond)} (${referenceName})`,
      ratio: push,
    },
    {
      measure: '  push p50 / p99 ms (one batch)',
      portaria: hubLatencies(measured, 'push'),
      reference: hubLatencies(reference, 'push'),
    },
    {
      measure: '  hub CPU µs per mutation (PostgreSQL not counted)',
      portaria: shown(measured.cpuUsPerMutation),
      reference: shown(reference.cpuUsPerMutation),
    },
    {
      measure: `${label}: pull, feed rows/s`,
      portaria: shown(measured.pullRowsPerSecond),
      reference: `${shown(reference.pullRowsPerSecond)} (${referenceName})`,
      ratio: pull,
    },
    {
      measure: '  pull p50 / p99 ms (one page)',
      portaria: hubLatencies(measured, 'pull'),
      reference: hubLatencies(reference, 'pull'),
    },
  ];
  const rolledBack = (f: HubFigures) =>
    f.transactions
      ? `${f.transactions.rollbacks.toLocaleString('en-US')} / ${f.transactions.commits.toLocaleString('en-US')}`
      : '—';
  if (measured.transactions) {
    rows.push({
      measure: '  PostgreSQL transactions rolled back (conflicts retried) / committed',
      portaria: rolledBack(measured),
      reference: rolledBack(reference),
    });
  }
  const failures = measured.failures + reference.failures;
  if (failures > 0)
    rows.push({ measure: '  mutations not applied, pages not 200', portaria: `${failures}`, reference: '' });
  return rows;
}

function hubFigures(prefix: string, outcome: HubOutcome): Record<string, number> {
  if ('failed' in outcome) return {};
  return {
    [`${prefix}_push_per_s`]: outcome.pushPerSecond,
    [`${prefix}_push_p50_ms`]: outcome.push.p50,
    [`${prefix}_push_p99_ms`]: outcome.push.p99,
    [`${prefix}_pull_rows_per_s`]: outcome.pullRowsPerSecond,
    [`${prefix}_pull_p50_ms`]: outcome.pull.p50,
    [`${prefix}_pull_p99_ms`]: outcome.pull.p99,
    [`${prefix}_cpu_us_per_mutation`]: outcome.cpuUsPerMutation,
    [`${prefix}_failures`]: outcome.failures,
    ...(outcome.transactions && {
      [`${prefix}_commits`]: outcome.transactions.commits,
      [`${prefix}_rollbacks`]: outcome.transactions.rollbacks,
    }),
  };
}

/** The hub on PostgreSQL beside the hub on SQLite, and two PostgreSQL hub processes beside one. */
export function hubPart(run: HubRun, plan: HubPlan): Part {
  const figures: Record<string, number> = {
    ...hubFigures('hub_sqlite', run.sqlite),
    ...hubFigures('hub_pg', run.postgres),
    ...hubFigures('hub_pg_two', run.postgresTwo),
  };
  const ratio = (a: HubOutcome, b: HubOutcome, key: 'pushPerSecond' | 'pullRowsPerSecond') =>
    'failed' in a || 'failed' in b ? undefined : a[key] / b[key];
  for (const [name, value] of Object.entries({
    hub_pg_push_sqlite_ratio: ratio(run.postgres, run.sqlite, 'pushPerSecond'),
    hub_pg_pull_sqlite_ratio: ratio(run.postgres, run.sqlite, 'pullRowsPerSecond'),
    hub_pg_two_push_scaling_ratio: ratio(run.postgresTwo, run.postgres, 'pushPerSecond'),
    hub_pg_two_pull_scaling_ratio: ratio(run.postgresTwo, run.postgres, 'pullRowsPerSecond'),
  })) {
    if (value !== undefined) figures[name] = value;
  }
  const mutations = plan.kiosks * plan.batchesPerKiosk * plan.batchSize;
  return {
    section: {
      title:
        `Hub: ${plan.kiosks} kiosks over ${plan.companies} companies push ${mutations.toLocaleString('en-US')} ` +
        `mutations, then pull the feed for ${plan.pullSeconds} s (bench/hub/arrangements.ts; the hub's own bench: npm run bench:hub)`,
      rows: [
        ...hubRows('PostgreSQL, 1 process vs SQLite', run.postgres, run.sqlite, 'SQLite'),
        ...hubRows('PostgreSQL, 2 processes vs 1', run.postgresTwo, run.postgres, '1 process'),
      ],
    },
    figures,
  };
}
