import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFailureLimiter } from '../../local-api/http/rate-limit.ts';
import { lookupLimits } from '../../local-api/kiosk/visitor-routes.ts';
import { manualClock } from '../helpers/context.ts';

test('locks a key after too many failures within the window, then lets it try again', async () => {
  const clock = manualClock();
  const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000, lockMs: 30_000 }, clock);
  await limiter.recordFailure('a');
  clock.advance(20_000);
  await limiter.recordFailure('a');
  assert.equal(await limiter.retryAfter('a'), 0);
  clock.advance(20_000);
  await limiter.recordFailure('a');
  assert.equal(await limiter.retryAfter('a'), 30_000, 'the first failure leaves the window before the lock ends');
  assert.equal(await limiter.retryAfter('b'), 0, 'other keys are not affected');
  clock.advance(10_000);
  assert.equal(await limiter.retryAfter('a'), 20_000);
  clock.advance(20_000);
  assert.equal(await limiter.retryAfter('a'), 0);
});

test('failures outside the window are forgotten, and a success clears the record', async () => {
  const clock = manualClock();
  const limiter = createFailureLimiter({ maxFailures: 2, windowMs: 1_000, lockMs: 5_000 }, clock);
  await limiter.recordFailure('a');
  clock.advance(1_000);
  await limiter.recordFailure('a');
  assert.equal(await limiter.retryAfter('a'), 0);
  await limiter.recordSuccess('a');
  await limiter.recordFailure('a');
  assert.equal(await limiter.retryAfter('a'), 0);
});

test('remembers a bounded number of keys', async () => {
  const limiter = createFailureLimiter({ maxFailures: 1, windowMs: 60_000, lockMs: 60_000, maxKeys: 2 }, manualClock());
  for (const key of ['a', 'b', 'c']) await limiter.recordFailure(key);
  assert.equal(await limiter.retryAfter('a'), 0, 'the stalest key was forgotten');
  assert.ok((await limiter.retryAfter('c')) > 0);
});

test('the kiosk lookup limit holds over any window: a lock does not wipe the failures that caused it', async () => {
  const clock = manualClock();
  const limiter = createFailureLimiter(lookupLimits, clock);
  const allowed: number[] = [];
  // A guesser who tries every second for half an hour, counted only when the screen let the lookup run.
  for (let second = 0; second < 30 * 60; second++) {
    if ((await limiter.retryAfter('kiosk')) === 0) {
      await limiter.recordFailure('kiosk');
      allowed.push(clock.now());
    }
    clock.advance(1_000);
  }
  const most = Math.max(
    ...allowed.map((start) => allowed.filter((at) => at >= start && at < start + lookupLimits.windowMs).length),
  );
  assert.equal(
    most,
    lookupLimits.maxFailures,
    `at most ${lookupLimits.maxFailures} within any ${lookupLimits.windowMs} ms`,
  );
  assert.equal(allowed.length, 3 * lookupLimits.maxFailures, 'and that many again in each window after');
});

test('attempts taken all at once: as many pass as the limit allows, the others wait', async () => {
  const clock = manualClock();
  const limiter = createFailureLimiter({ maxFailures: 5, windowMs: 60_000, lockMs: 30_000 }, clock);
  const waits = await Promise.all(Array.from({ length: 10 }, () => limiter.takeAttempt('company')));
  assert.equal(waits.filter((wait) => wait === 0).length, 5);
  assert.ok(
    waits.slice(5).every((wait) => wait === 60_000),
    JSON.stringify(waits),
  );
});
