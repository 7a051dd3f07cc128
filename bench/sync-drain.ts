/**
 * How long a kiosk takes to hand 10,000 check-ins queued while its hub was down to that hub, both on loopback,
 * and what a visitor checking in at that kiosk meanwhile waits (bench/hub/drain.ts). Prints one JSON line.
 *
 *   node --import tsx bench/sync-drain.ts [--checkins 10000]
 *
 * Two real service processes (hub on SQLite, kiosk); between them the tests' fault proxy, set to refuse connections
 * while the check-ins are queued, then to pass. `npm run bench:hub` measures the same on a PostgreSQL hub beside.
 */
import { parseArgs } from 'node:util';
import { removeDir, startService } from '../test/helpers/service.ts';
import { drainOffline } from './hub/drain.ts';

const { values } = parseArgs({ options: { checkins: { type: 'string', default: '10000' } } });
const hub = await startService({ env: { PORTARIA_LOG_LEVEL: 'warn' } });
try {
  const figures = await drainOffline(hub.url, (await hub.company('Bench')).apiKey, Number(values.checkins));
  process.stdout.write(`${JSON.stringify({ bench: 'sync-drain', ...figures })}\n`);
} finally {
  await hub.stop();
  removeDir(hub.dataDir);
}
