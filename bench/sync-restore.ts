/**
 * How long a hub restored from an older backup takes to get back the visits its kiosk holds, and what a visitor
 * checking in at that kiosk meanwhile waits. Prints one JSON line.
 *
 *   node --import tsx bench/sync-restore.ts [--visits 5000]
 *
 * Two real service processes (hub, kiosk) on loopback. The hub is backed up before the kiosk's check-ins (half of
 * them checked out), which all reach it; then it is stopped, restored from that backup and started again.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { startFaultProxy } from '../test/helpers/fault-proxy.ts';
import { client, removeDir, runCli, startService, tempDir } from '../test/helpers/service.ts';
import { startKiosk, syncNow } from '../test/helpers/sync-service.ts';

const { values } = parseArgs({ options: { visits: { type: 'string', default: '5000' } } });
const total = Number(values.visits);
const concurrency = 8;

const uuid = (n: number, prefix: string) => `${prefix}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function percentile(sorted: number[], p: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
  return Math.round(value * 10) / 10;
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

let hub = await startService({ env: { PORTARIA_LOG_LEVEL: 'warn' } });
const company = await hub.company('Bench');
const proxy = await startFaultProxy(hub.url);
const kiosk = await startKiosk(proxy.url, company.apiKey);
const atKiosk = client(kiosk.url, kiosk.apiKey);
const backupDir = tempDir();

async function checkin(id: string, name: string): Promise<number> {
  const started = performance.now();
  const reply = await atKiosk('POST', '/v1/visits', { visit: { id }, visitor: { name } });
  if (reply.status !== 200) throw new Error(`check-in answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return performance.now() - started;
}

/** The hub's visits and check-outs, read from its database file (a second connection; WAL lets it read). */
function hubCounts(): { visits: number; checkedOut: number } {
  const db = new Database(join(hub.dataDir, 'portaria.db'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT COUNT(*) AS visits, COUNT(checkoutAt) AS checkedOut FROM visits WHERE companyId = ?')
      .get(company.id) as { visits: number; checkedOut: number };
  } finally {
    db.close();
  }
}

async function settle(): Promise<void> {
  for (;;) {
    const status = await syncNow(kiosk, kiosk.apiKey);
    if (status.state === 'online' && status.pending === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

try {
  const backup = join(backupDir, 'hub.db');
  await runCli(['backup', '--data', hub.dataDir, '--out', backup]);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const n = next++;
        const id = uuid(n, '00000000');
        await checkin(id, `Visitor ${n}`);
        if (n % 2 === 0) await atKiosk('PATCH', `/v1/visit/checkout/${id}`, {});
      }
    }),
  );
  await settle();
  const before = hubCounts();

  await hub.stop();
  await runCli(['restore', '--data', hub.dataDir, '--from', backup]);
  const restoredCounts = hubCounts();
  hub = await startService({ dataDir: hub.dataDir, env: { PORTARIA_LOG_LEVEL: 'warn' } });
  proxy.target = hub.url;
  const started = performance.now();
  const sync = settle();
  const during: number[] = [];
  let back = false;
  let backMs = 0;
  const probe = (async () => {
    for (let n = 0; !back; n++) {
      during.push(await checkin(uuid(n, '11111111'), `During ${n}`));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  while (!back) {
    const counts = hubCounts();
    if (counts.visits >= total && counts.checkedOut >= before.checkedOut) {
      backMs = performance.now() - started;
      back = true;
    } else {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await probe;
  await sync;
  await settle();
  const after = hubCounts();
  process.stdout.write(
    `${JSON.stringify({
      bench: 'sync-restore',
      visits: total,
      atHubBeforeRestore: before,
      inBackup: restoredCounts,
      backMs: Math.round(backMs),
      visitsPerSecond: Math.round((total / backMs) * 1000),
      atHubAfter: after,
      checkinDuringRecovery: summary(during),
    })}\n`,
  );
} finally {
  await kiosk.stop();
  await proxy.close();
  await hub.stop();
  removeDir(kiosk.dataDir);
  removeDir(hub.dataDir);
  removeDir(backupDir);
}
