/**
 * State that hub processes on one PostgreSQL database share (docs/deployment.md): wrong front-desk PINs and wrong
 * API keys counted together, and a front-desk session kept alive by requests that reach another process.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { principalForKey } from '../../local-api/credentials/store.ts';
import { guessSubjects, keyGuessCounter, keyGuessLimits } from '../../local-api/http/key-guessing.ts';
import { sharedFailureLimiter } from '../../local-api/http/rate-limit.ts';
import { openFrontDeskSession } from '../../local-api/kiosk/frontdesk.ts';
import { pinLimits } from '../../local-api/kiosk/routes.ts';
import { openService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { freshDatabase, withoutPostgres } from '../helpers/postgres.ts';
import { tempDir } from '../helpers/service.ts';
import { callerOf } from '../helpers/sync.ts';

async function twoProcesses(label: string) {
  const database = await freshDatabase(label);
  const clock = manualClock(Date.now());
  const open = async () => await openService({ dataDir: tempDir(), database, clock, logLevel: 'silent' });
  return { clock, hubs: [await open(), await open()] as [Context, Context] };
}

test('wrong PINs at two hub processes add up to one lock', { skip: withoutPostgres }, async () => {
  const { clock, hubs } = await twoProcesses('shared_pins');
  const [a, b] = hubs.map((hub) => sharedFailureLimiter(hub, 'pin', pinLimits));
  assert.ok(a && b);
  for (let i = 0; i < pinLimits.maxFailures - 1; i++) await (i % 2 ? a : b).recordFailure('company-1');
  assert.equal(await a.retryAfter('company-1'), 0, 'not locked below the limit');
  await b.recordFailure('company-1');
  // All five within the same instant: the lock lasts until the first of them leaves the window.
  assert.equal(await a.retryAfter('company-1'), pinLimits.windowMs, 'the other process sees the lock');
  assert.equal(await b.retryAfter('company-2'), 0, 'another key is not locked');
  clock.advance(pinLimits.windowMs);
  assert.equal(await b.retryAfter('company-1'), 0, 'the lock ends for both');
  for (const hub of hubs) await hub.db.close();
});

test('wrong API keys at two hub processes add up to one lock', { skip: withoutPostgres }, async () => {
  const { clock, hubs } = await twoProcesses('shared_key_guesses');
  const [a, b] = hubs.map((hub) => keyGuessCounter(hub));
  assert.ok(a && b);
  const guess = (i: number) => guessSubjects('203.0.113.5', [`prt_guess_${i}_${'x'.repeat(30)}`]);
  for (let i = 0; i < keyGuessLimits.maxFailures - 1; i++) {
    assert.deepEqual(await (i % 2 ? a : b).recordWrongKey(guess(i)), { retryAfterMs: 0, lockedNow: [] });
  }
  assert.deepEqual((await a.recordWrongKey(guess(99))).lockedNow, ['source 203.0.113.5'], 'the 10th, over both, locks');
  assert.equal(
    (await b.recordWrongKey(guess(100))).retryAfterMs,
    keyGuessLimits.lockMs,
    'the other process sees the lock',
  );
  assert.equal((await b.recordWrongKey(guessSubjects('203.0.113.6', ['prt_other']))).retryAfterMs, 0, 'another source');
  clock.advance(keyGuessLimits.lockMs);
  assert.deepEqual(await a.recordWrongKey(guess(101)), { retryAfterMs: 0, lockedNow: [] }, 'the lock ends for both');
  const rows = await hubs[0].db.prepare('SELECT count(*) FROM key_guesses').pluck().get();
  assert.equal(Number(rows), 2, 'rows whose window and lock ended are deleted: the last source and prefix remain');
  for (const hub of hubs) await hub.db.close();
});

test('a front-desk session used at one process is not idle at the other', { skip: withoutPostgres }, async () => {
  const { clock, hubs } = await twoProcesses('shared_sessions');
  const [a, b] = hubs;
  const company = await createCompany(a, { name: 'Acme', timezone: 'America/Sao_Paulo' });
  const { token: key } = await openFrontDeskSession(a, await callerOf(a, company.apiKey));
  assert.ok(await principalForKey(b, key), 'b knows the session');
  for (let minute = 0; minute < 15; minute++) {
    clock.advance(60_000);
    assert.ok(await principalForKey(a, key), `a serves the session at minute ${minute + 1}`);
  }
  assert.ok(await principalForKey(b, key), 'b finds it in use, though it saw no request for 15 minutes');
  clock.advance(10 * 60_000);
  assert.equal(await principalForKey(b, key), undefined, 'idle everywhere: ended');
  for (const hub of hubs) await hub.db.close();
});
