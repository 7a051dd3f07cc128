/**
 * State that hub processes on one PostgreSQL database share (docs/deployment.md): wrong front-desk PINs counted
 * together, and a front-desk session kept alive by requests that reach another process.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { principalForKey } from '../../local-api/credentials/store.ts';
import { sharedFailureLimiter } from '../../local-api/http/rate-limit.ts';
import { openFrontDeskSession } from '../../local-api/kiosk/frontdesk.ts';
import { pinLimits } from '../../local-api/kiosk/routes.ts';
import { openService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/service.ts';
import { callerOf } from '../helpers/sync.ts';

function twoProcesses(label: string) {
  const database = freshDatabase(label);
  const clock = manualClock(Date.now());
  const open = () => openService({ dataDir: tempDir(), database, clock, logLevel: 'silent' });
  return { clock, hubs: [open(), open()] as [Context, Context] };
}

test('wrong PINs at two hub processes add up to one lock', { skip: withoutPostgres }, () => {
  const { clock, hubs } = twoProcesses('shared_pins');
  const [a, b] = hubs.map((hub) => sharedFailureLimiter(hub, 'pin', pinLimits));
  assert.ok(a && b);
  for (let i = 0; i < pinLimits.maxFailures - 1; i++) (i % 2 ? a : b).recordFailure('company-1');
  assert.equal(a.retryAfter('company-1'), 0, 'not locked below the limit');
  b.recordFailure('company-1');
  // All five within the same instant: the lock lasts until the first of them leaves the window.
  assert.equal(a.retryAfter('company-1'), pinLimits.windowMs, 'the other process sees the lock');
  assert.equal(b.retryAfter('company-2'), 0, 'another key is not locked');
  clock.advance(pinLimits.windowMs);
  assert.equal(b.retryAfter('company-1'), 0, 'the lock ends for both');
  for (const hub of hubs) hub.db.close();
});

test('a front-desk session used at one process is not idle at the other', { skip: withoutPostgres }, () => {
  const { clock, hubs } = twoProcesses('shared_sessions');
  const [a, b] = hubs;
  const company = createCompany(a, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const { token: key } = openFrontDeskSession(a, callerOf(a, company.apiKey));
  assert.ok(principalForKey(b, key), 'b knows the session');
  for (let minute = 0; minute < 15; minute++) {
    clock.advance(60_000);
    assert.ok(principalForKey(a, key), `a serves the session at minute ${minute + 1}`);
  }
  assert.ok(principalForKey(b, key), 'b finds it in use, though it saw no request for 15 minutes');
  clock.advance(10 * 60_000);
  assert.equal(principalForKey(b, key), undefined, 'idle everywhere: ended');
  for (const hub of hubs) hub.db.close();
});
