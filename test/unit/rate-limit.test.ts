import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFailureLimiter } from '../../local-api/http/rate-limit.ts';
import { manualClock } from '../helpers/context.ts';

test('locks a key after too many failures within the window, then lets it try again', () => {
  const clock = manualClock();
  const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000, lockMs: 30_000 }, clock);
  limiter.recordFailure('a');
  limiter.recordFailure('a');
  assert.equal(limiter.retryAfter('a'), 0);
  limiter.recordFailure('a');
  assert.equal(limiter.retryAfter('a'), 30_000);
  assert.equal(limiter.retryAfter('b'), 0, 'other keys are not affected');
  clock.advance(10_000);
  assert.equal(limiter.retryAfter('a'), 20_000);
  clock.advance(20_000);
  assert.equal(limiter.retryAfter('a'), 0);
});

test('failures outside the window are forgotten, and a success clears the record', () => {
  const clock = manualClock();
  const limiter = createFailureLimiter({ maxFailures: 2, windowMs: 1_000, lockMs: 5_000 }, clock);
  limiter.recordFailure('a');
  clock.advance(1_000);
  limiter.recordFailure('a');
  assert.equal(limiter.retryAfter('a'), 0);
  limiter.recordSuccess('a');
  limiter.recordFailure('a');
  assert.equal(limiter.retryAfter('a'), 0);
});

test('remembers a bounded number of keys', () => {
  const limiter = createFailureLimiter({ maxFailures: 1, windowMs: 60_000, lockMs: 60_000, maxKeys: 2 }, manualClock());
  for (const key of ['a', 'b', 'c']) limiter.recordFailure(key);
  assert.equal(limiter.retryAfter('a'), 0, 'the stalest key was forgotten');
  assert.ok(limiter.retryAfter('c') > 0);
});
