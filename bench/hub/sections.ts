/** The hub bench's results as sections of one table (bench/report.ts) and as named figures for its JSON line. */
import type { LatencyFigures } from '../load.ts';
import { type Row, type Section, shown } from '../report.ts';
import type { DrainFigures } from './drain.ts';
import type { FanoutFigures } from './fanout.ts';
import type { FirstSyncFigures } from './first-sync.ts';
import type { Network, PerOperation, TargetFigures, TargetOutcome, ThroughputPlan } from './throughput.ts';

export type Outcome<T> = T | { failed: string };

export interface Part {
  section: Section;
  figures: Record<string, number>;
  /** Lines printed under the table. */
  notes?: string[];
}

const failedRow = (measure: string, outcome: { failed: string }): Row => ({
  measure,
  portaria: `not measured: ${outcome.failed}`,
  reference: '',
});

const latencies = (f: LatencyFigures) => `${shown(f.p50)} / ${shown(f.p99)}`;

function figuresOf(prefix: string, values: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [`${prefix}_${name}`, value]));
}

/** "push: 408 REQUEST_TIMEOUT ×3; pull: …", or "none". */
function refusalsText(f: TargetFigures): string {
  const parts = Object.entries(f.refused).flatMap(([phase, refusals]) =>
    Object.entries(refusals).map(([answer, n]) => `${phase}: ${answer} ×${n}`),
  );
  return parts.length > 0 ? parts.join('; ') : 'none';
}

const cheapCell = (f: TargetFigures) =>
  `${shown(f.cheapDuringPush.p99)} of ${f.cheapDuringPush.samples} (${shown(f.cheapIdle.p99)})`;

function networkRows(network: Network, hub: TargetFigures, bare: TargetFigures): Row[] {
  const refusals = { hub: refusalsText(hub), bare: refusalsText(bare) };
  return [
    {
      measure: `${network}: push, mutations/s`,
      portaria: shown(hub.pushPerSecond),
      reference: shown(bare.pushPerSecond),
      ratio: hub.pushPerSecond / bare.pushPerSecond,
    },
    { measure: '  push p50 / p99 ms (one batch)', portaria: latencies(hub.push), reference: latencies(bare.push) },
    {
      measure: '  service CPU µs per mutation (PostgreSQL not counted)',
      portaria: shown(hub.cpuUsPerMutation),
      reference: shown(bare.cpuUsPerMutation),
    },
    {
      measure: `${network}: pull, feed rows/s`,
      portaria: shown(hub.pullRowsPerSecond),
      reference: shown(bare.pullRowsPerSecond),
      ratio: hub.pullRowsPerSecond / bare.pullRowsPerSecond,
    },
    {
      measure: '  pull p50 / p99 ms (one page of 500)',
      portaria: latencies(hub.pull),
      reference: latencies(bare.pull),
    },
    { measure: '  idle poll p50 / p99 ms', portaria: latencies(hub.idlePoll), reference: latencies(bare.idlePoll) },
    {
      measure: '  GET /v1/hosts?limit=1 p99 ms while kiosks push, of n (idle)',
      portaria: cheapCell(hub),
      reference: cheapCell(bare),
      ratio: hub.cheapDuringPush.p99 / bare.cheapDuringPush.p99,
    },
    ...(refusals.hub === 'none' && refusals.bare === 'none'
      ? []
      : [
          {
            measure: '  answers other than 200 (sent again)',
            portaria: `${refusals.hub}${hub.logged}`,
            reference: `${refusals.bare}${bare.logged}`,
          },
        ]),
  ];
}

function networkFigures(network: Network, hub: TargetFigures, bare: TargetFigures): Record<string, number> {
  const one = (f: TargetFigures) => ({
    push_per_s: f.pushPerSecond,
    push_p99_ms: f.push.p99,
    cpu_us_per_mutation: f.cpuUsPerMutation,
    pull_rows_per_s: f.pullRowsPerSecond,
    pull_p99_ms: f.pull.p99,
    idle_poll_p99_ms: f.idlePoll.p99,
    cheap_p99_ms: f.cheapDuringPush.p99,
    cheap_idle_p99_ms: f.cheapIdle.p99,
    failures: f.failures,
    refused: Object.values(f.refused).reduce(
      (sum, refusals) => sum + Object.values(refusals).reduce((a, b) => a + b, 0),
      0,
    ),
  });
  return {
    ...figuresOf(`push_${network}_hub`, one(hub)),
    ...figuresOf(`push_${network}_bare`, one(bare)),
    [`push_${network}_push_ratio`]: hub.pushPerSecond / bare.pushPerSecond,
    [`push_${network}_pull_ratio`]: hub.pullRowsPerSecond / bare.pullRowsPerSecond,
  };
}

export function throughputPart(run: Record<string, TargetOutcome>, plan: ThroughputPlan): Part {
  const rows: Row[] = [];
  let figures: Record<string, number> = {};
  for (const network of ['loopback', 'delayed'] as const) {
    const hub = run[`hub-${network}`];
    const bare = run[`bare-${network}`];
    if (!hub || !bare) continue;
    const failed = 'failed' in hub ? hub : 'failed' in bare ? bare : undefined;
    if (failed) {
      rows.push(failedRow(`${network}: ${'failed' in hub ? 'hub' : 'bare server'}`, failed));
      continue;
    }
    rows.push(...networkRows(network, hub as TargetFigures, bare as TargetFigures));
    figures = { ...figures, ...networkFigures(network, hub as TargetFigures, bare as TargetFigures) };
  }
  return {
    section: {
      title:
        `Hub on PostgreSQL vs the bare pg server (reference): ${plan.kiosks} simulated kiosks over ` +
        `${plan.companies} companies push batches of ${plan.batchSize} (at most ${plan.batchesPerKiosk} each, ` +
        `${plan.pushSeconds} s), pull for ${plan.pullSeconds} s; delayed: ${plan.delayedKiosks} kiosks, ` +
        `${plan.delayMs} ms each way to PostgreSQL`,
      rows,
    },
    figures,
  };
}

const perOperationCell = (p: PerOperation) => `${shown(p.all)} (${shown(p.withoutTransactionControl)})`;

export function statementsPart(run: Record<string, TargetOutcome>): Part {
  const hub = run['hub-loopback'];
  const bare = run['bare-loopback'];
  const title =
    'SQL statements sent to PostgreSQL (pg_stat_statements, top level, loopback run): all (without BEGIN, COMMIT, ' +
    'ROLLBACK, SAVEPOINT, RELEASE)';
  if (!hub || !bare || 'failed' in hub || 'failed' in bare) {
    return { section: { title, rows: [failedRow('statements', { failed: 'the loopback run failed' })] }, figures: {} };
  }
  const kinds: [keyof TargetFigures['statements'], string][] = [
    ['mutation', 'per pushed mutation'],
    ['page', `per pulled page (${shown(hub.rowsPerPage)} rows a page)`],
    ['poll', 'per idle poll'],
    ['cheap', 'per GET /v1/hosts?limit=1'],
  ];
  const rows: Row[] = kinds.map(([kind, label]) => ({
    measure: label,
    portaria: perOperationCell(hub.statements[kind]),
    reference: perOperationCell(bare.statements[kind]),
    ratio: hub.statements[kind].all / bare.statements[kind].all,
  }));
  const figures: Record<string, number> = {};
  for (const [kind] of kinds) {
    figures[`statements_per_${kind}_hub`] = hub.statements[kind].all;
    figures[`statements_per_${kind}_hub_without_tx`] = hub.statements[kind].withoutTransactionControl;
    figures[`statements_per_${kind}_bare`] = bare.statements[kind].all;
  }
  return { section: { title, rows }, figures };
}

/** The hub's most frequent statements of each phase, for reading where its statements go. */
export function statementNotes(run: Record<string, TargetOutcome>): string[] {
  const hub = run['hub-loopback'];
  if (!hub || 'failed' in hub) return [];
  return (['mutation', 'page', 'poll'] as const).flatMap((kind) => [
    `Hub's most frequent statements, ${kind} phase (calls, query):`,
    ...hub.statements[kind].top.map((s) => `  ${String(s.calls).padStart(7)}  ${s.query.slice(0, 150)}`),
  ]);
}

export function drainPart(run: { sqlite: Outcome<DrainFigures>; postgres: Outcome<DrainFigures> }): Part {
  const { sqlite, postgres } = run;
  const count = 'failed' in sqlite ? ('failed' in postgres ? 0 : postgres.checkins) : sqlite.checkins;
  const title = `Drain: ${count.toLocaleString('en-US')} check-ins queued offline at one kiosk, PostgreSQL hub vs SQLite hub (reference)`;
  if ('failed' in sqlite || 'failed' in postgres) {
    const failed = 'failed' in postgres ? postgres : (sqlite as { failed: string });
    return { section: { title, rows: [failedRow('drain', failed)] }, figures: {} };
  }
  const rows: Row[] = [
    {
      measure: 'drain to the hub, check-ins/s',
      portaria: `${shown(postgres.drainPerSecond)} (${shown(postgres.drainMs / 1000)} s)`,
      reference: `${shown(sqlite.drainPerSecond)} (${shown(sqlite.drainMs / 1000)} s)`,
      ratio: postgres.drainPerSecond / sqlite.drainPerSecond,
    },
    {
      measure: '  until pulled back too, s',
      portaria: shown(postgres.untilPulledBackMs / 1000),
      reference: shown(sqlite.untilPulledBackMs / 1000),
    },
    {
      measure: '  kiosk check-in p50 / p99 ms during the drain',
      portaria: `${shown(postgres.checkinDuringDrain.p50Ms)} / ${shown(postgres.checkinDuringDrain.p99Ms)}`,
      reference: `${shown(sqlite.checkinDuringDrain.p50Ms)} / ${shown(sqlite.checkinDuringDrain.p99Ms)}`,
    },
  ];
  const figures = {
    drain_pg_per_s: postgres.drainPerSecond,
    drain_pg_ms: postgres.drainMs,
    drain_sqlite_per_s: sqlite.drainPerSecond,
    drain_sqlite_ms: sqlite.drainMs,
    drain_pg_sqlite_ratio: postgres.drainPerSecond / sqlite.drainPerSecond,
  };
  return { section: { title, rows }, figures };
}

export function fanoutPart(run: Outcome<FanoutFigures>, watchMs: number): Part {
  if ('failed' in run) return { section: { title: 'Fan-out', rows: [failedRow('fan-out', run)] }, figures: {} };
  return {
    section: {
      title:
        `Fan-out: ${run.kiosks} kiosk processes follow the PostgreSQL hub (normal poll settings); ${run.checkins} ` +
        `check-ins, each at one kiosk; times from its answer, watched every ${watchMs} ms`,
      rows: [
        { measure: 'the hub holds it, p50 / p99 ms', portaria: latencies(run.atHub), reference: '' },
        {
          measure: `every sibling holds it, p50 / p99 ms (${run.atSiblings.samples} samples)`,
          portaria: latencies(run.atSiblings),
          reference: '',
        },
      ],
    },
    figures: {
      fanout_hub_p50_ms: run.atHub.p50,
      fanout_hub_p99_ms: run.atHub.p99,
      fanout_siblings_p50_ms: run.atSiblings.p50,
      fanout_siblings_p99_ms: run.atSiblings.p99,
    },
  };
}

export function firstSyncPart(run: Outcome<FirstSyncFigures>): Part {
  if ('failed' in run) return { section: { title: 'First sync', rows: [failedRow('first sync', run)] }, figures: {} };
  return {
    section: {
      title:
        `First sync of a new kiosk: a company with ${run.visits.toLocaleString('en-US')} visits on the PostgreSQL ` +
        `hub (seeded in SQL in ${shown(run.seedSeconds)} s)`,
      rows: [
        {
          measure:
            `until the kiosk's first sync ended, s (visits kept by the full pass ${run.keptVisits.toLocaleString('en-US')}, ` +
            `received ${run.receivedVisits.toLocaleString('en-US')})`,
          portaria: shown(run.firstSyncSeconds),
          reference: '',
        },
        { measure: '  statements the hub sent meanwhile', portaria: shown(run.statements), reference: '' },
      ],
    },
    figures: {
      first_sync_visits: run.visits,
      first_sync_seconds: run.firstSyncSeconds,
      first_sync_kept_visits: run.keptVisits,
      first_sync_received_visits: run.receivedVisits,
      first_sync_statements: run.statements,
      first_sync_seed_seconds: run.seedSeconds,
    },
  };
}
