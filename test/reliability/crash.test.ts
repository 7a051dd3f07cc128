import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { client, removeDir, runCli, startService, tempDir } from '../helpers/service.ts';

/*
 * The real service is killed with SIGKILL at random moments while concurrent clients check visitors in and out.
 * After every kill it restarts on the same data folder, and the database must hold every write that was
 * acknowledged with a 200, and nothing half-written.
 */

// At least `minKills` kills always; more, up to `targetKills`, while the time budget lasts (a loaded machine
// starts the service more slowly, and the count must not depend on it).
const minKills = 12;
const targetKills = 25;
const timeBudgetMs = 45_000;
const writers = 6;

const dataDir = tempDir('portaria-crash-');
after(() => removeDir(dataDir));

interface Acknowledged {
  checkins: Set<string>;
  checkouts: Set<string>;
}

/** One client: walk-in check-ins with ids it makes, and check-outs of visits it saw acknowledged. */
async function writeUntilStopped(api: ReturnType<typeof client>, acked: Acknowledged, stop: { now: boolean }) {
  while (!stop.now) {
    const open = [...acked.checkins].filter((id) => !acked.checkouts.has(id));
    try {
      if (open.length > 0 && randomInt(10) < 4) {
        const id = open[randomInt(open.length)] as string;
        const reply = await api('PATCH', `/v1/visit/checkout/${id}`, { checkoutType: 'DASHBOARD' });
        if (reply.status === 200) acked.checkouts.add(id);
      } else {
        const id = randomUUID();
        const reply = await api('POST', '/v1/visits', {
          visit: { id, checkinType: 'IPAD' },
          visitor: { name: `Visitor ${id.slice(0, 8)}`, email: `${id.slice(0, 8)}@crash.test`, company: 'Crash' },
        });
        if (reply.status === 200) acked.checkins.add(id);
      }
    } catch {
      // the process died under this request: its outcome is unknown, and the checks below allow either
    }
  }
}

interface VisitRow {
  id: string;
  name: string | null;
  email: string | null;
  cardNumber: string | null;
  checkinAt: number | null;
  checkoutAt: number | null;
  checkoutType: string | null;
  isInsideCompany: number;
}

/** Reads the database beside the running service (a second connection: the service's own recovery ran first). */
function checkDatabase(acked: Acknowledged): { visits: number } {
  const db = new Database(join(dataDir, 'portaria.db'), { fileMustExist: true });
  try {
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    const rows = db.prepare('SELECT * FROM visits').all() as VisitRow[];
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const row of rows) {
      // Whole rows only: every visit has the fields its check-in wrote, and a check-out wrote all of its own.
      assert.ok(row.name && row.email && row.cardNumber && row.checkinAt, `half-written visit ${JSON.stringify(row)}`);
      assert.equal(row.checkoutAt === null, row.isInsideCompany === 1, `half-checked-out visit ${row.id}`);
      assert.equal(row.checkoutAt === null, row.checkoutType === null, `half-checked-out visit ${row.id}`);
    }
    for (const id of acked.checkins) assert.ok(byId.has(id), `acknowledged check-in ${id} lost`);
    for (const id of acked.checkouts) assert.notEqual(byId.get(id)?.checkoutAt ?? null, null, `check-out ${id} lost`);
    return { visits: rows.length };
  } finally {
    db.close();
  }
}

test('every acknowledged check-in and check-out survives SIGKILL, and nothing is half-written', async () => {
  const { apiKey } = JSON.parse(await runCli(['company', 'create', '--data', dataDir, '--name', 'Crash Co'])) as {
    apiKey: string;
  };
  const acked: Acknowledged = { checkins: new Set(), checkouts: new Set() };
  const started = Date.now();
  let kills = 0;
  while (kills < minKills || (kills < targetKills && Date.now() - started < timeBudgetMs)) {
    const service = await startService({ dataDir });
    checkDatabase(acked);
    const api = client(service.url, apiKey);
    const stop = { now: false };
    const running = Array.from({ length: writers }, () => writeUntilStopped(api, acked, stop));
    await sleep(randomInt(100, 700));
    await service.stop('SIGKILL');
    stop.now = true;
    await Promise.all(running);
    kills++;
  }

  const service = await startService({ dataDir });
  const { visits } = checkDatabase(acked);
  const api = client(service.url, apiKey);
  for (const id of [...acked.checkins].slice(0, 50)) {
    const reply = await api('GET', `/v1/visit/${id}`);
    assert.equal(reply.status, 200, `visit ${id} answered through the API after the last restart`);
    if (acked.checkouts.has(id)) assert.notEqual(reply.body.checkoutAt, null, `visit ${id} checked out`);
  }
  await service.stop();

  console.log(
    `crash: survived ${kills} SIGKILLs; verified ${acked.checkins.size} acknowledged check-ins and ` +
      `${acked.checkouts.size} acknowledged check-outs (${visits} visits stored, integrity_check ok) in ` +
      `${Math.round((Date.now() - started) / 1000)} s`,
  );
  assert.ok(acked.checkins.size > kills, 'writes were acknowledged between the kills');
});
