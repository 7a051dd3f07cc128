import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guessSource, trustedProxies } from '../../local-api/http/client-address.ts';
import { afterWrongKey, keyGuessLimits, memoryKeyGuessCounter } from '../../local-api/http/key-guessing.ts';
import { parseCidrList } from '../../local-api/outgoing/destinations.ts';
import { manualClock } from '../helpers/context.ts';

test('a source is an IPv4 address, or the /64 of an IPv6 one', () => {
  assert.equal(guessSource('203.0.113.5'), '203.0.113.5');
  assert.equal(guessSource('::ffff:203.0.113.5'), '203.0.113.5');
  assert.equal(guessSource('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(guessSource('2001:db8:1:2::ffff'), '2001:db8:1:2::/64', 'one subscriber, one count');
  assert.equal(guessSource(undefined), 'unknown');
});

test('only declared proxies are trusted', () => {
  assert.equal(trustedProxies([]), false);
  const declared = parseCidrList('10.0.0.0/24, fd00::1');
  assert.ok(declared.ok);
  const trust = trustedProxies(declared.cidrs);
  assert.ok(trust);
  assert.deepEqual(['10.0.0.7', '::ffff:10.0.0.7', 'fd00::1', '10.0.1.7', 'fd00::2', 'not an address'].map(trust), [
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});

test('a window opens at the first wrong key; the 10th within it locks, and the count starts over', () => {
  const limits = keyGuessLimits;
  let count = afterWrongKey(undefined, 0, limits);
  assert.deepEqual(count, { windowStart: 0, failures: 1, lockedUntil: 0 });
  for (let i = 2; i < limits.maxFailures; i++) count = afterWrongKey(count, i, limits);
  assert.equal(count.failures, limits.maxFailures - 1);
  assert.deepEqual(
    afterWrongKey(count, limits.windowMs, limits),
    { windowStart: limits.windowMs, failures: 1, lockedUntil: 0 },
    'the window ended',
  );
  const locked = afterWrongKey(count, 100, limits);
  assert.deepEqual(locked, { windowStart: 100, failures: 0, lockedUntil: 100 + limits.lockMs });
});

test('in memory: a locked subject refuses further wrong keys without counting them; the stalest are forgotten', async () => {
  const clock = manualClock(0);
  const counter = memoryKeyGuessCounter({ ...keyGuessLimits, maxFailures: 2, maxSubjects: 3 }, clock);
  assert.deepEqual(await counter.recordWrongKey(['source a', 'prefix p']), { retryAfterMs: 0, lockedNow: [] });
  assert.deepEqual(await counter.recordWrongKey(['source a', 'prefix q']), {
    retryAfterMs: 0,
    lockedNow: ['source a'],
  });
  clock.advance(1_000);
  assert.deepEqual(await counter.recordWrongKey(['source a', 'prefix q']), { retryAfterMs: 59_000, lockedNow: [] });
  assert.deepEqual(await counter.recordWrongKey(['source b', 'prefix q']), {
    retryAfterMs: 0,
    lockedNow: ['prefix q'],
  });
  // Past three subjects the stalest are forgotten: prefix p, then source a, its lock with it.
  await counter.recordWrongKey(['source c', 'prefix r']);
  assert.deepEqual(await counter.recordWrongKey(['source a']), { retryAfterMs: 0, lockedNow: [] }, 'forgotten');
});
