/**
 * A new kiosk's first sync against a hub whose company has a long history: the same reference data, more or fewer
 * past visits. Each hub is `portaria serve` on a seeded SQLite folder (bench/seed.ts, the `history` profile, reused
 * from bench/.work when it is the same); the kiosk is this process, reading `GET /v1/sync/changes` in pages of 500
 * from no cursor to the end, as a kiosk does. A snapshot reads what a kiosk needs from the tables, so its rows,
 * pages and time should not grow with the visits.
 *
 *   node --import tsx bench/sync-first.ts --visits 20000,2000000 --hosts 5000 --invitees 5000
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getOnce } from './load.ts';
import { reusableSeed, seed } from './seed.ts';
import { repoRoot, startPortaria } from './servers.ts';

const { values } = parseArgs({
  options: {
    visits: { type: 'string', default: '20000,2000000' },
    hosts: { type: 'string', default: '5000' },
    invitees: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '3' },
  },
});

interface FirstSync {
  visits: number;
  rows: number;
  pages: number;
  /** The fastest of the rounds, and the slowest, ms. */
  bestMs: number;
  worstMs: number;
}

async function firstSync(url: string, apiKey: string): Promise<{ rows: number; pages: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let cursor: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ limit: '500', ...(cursor ? { since: cursor } : {}) });
    const answer = await getOnce(url, `/v1/sync/changes?${query}`, apiKey);
    if (answer.status !== 200) throw new Error(`page answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    const page = JSON.parse(answer.body) as { changes: unknown[]; cursor: string; hasMore: boolean };
    rows += page.changes.length;
    pages += 1;
    cursor = page.cursor;
    if (!page.hasMore) return { rows, pages, ms: performance.now() - started };
  }
}

const figures: FirstSync[] = [];
for (const visits of values.visits.split(',').map(Number)) {
  const counts = { hosts: Number(values.hosts), invitees: Number(values.invitees), visits };
  const dir = join(repoRoot, 'bench/.work', `sync-first-${visits}`);
  const seeded = reusableSeed(dir, counts, 'history') ?? (await seed(dir, counts, 'history'));
  const hub = await startPortaria(dir);
  try {
    const rounds: { rows: number; pages: number; ms: number }[] = [];
    for (let round = 0; round < Number(values.rounds); round++) rounds.push(await firstSync(hub.url, seeded.apiKey));
    const ms = rounds.map((r) => r.ms);
    const { rows, pages } = rounds[0] ?? { rows: 0, pages: 0 };
    figures.push({ visits, rows, pages, bestMs: Math.min(...ms), worstMs: Math.max(...ms) });
    process.stderr.write(`${visits} visits: ${rows} rows in ${pages} pages, ${Math.round(Math.min(...ms))} ms\n`);
  } finally {
    await hub.stop();
  }
}
process.stdout.write(`${JSON.stringify({ firstSync: figures })}\n`);
