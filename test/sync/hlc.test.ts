import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  compareHlc,
  formatHlc,
  type Hlc,
  isHlc,
  parseHlc,
  receiveHlc,
  tickHlc,
  zeroHlc,
} from '../../local-api/sync/hlc.ts';

const t0 = Date.UTC(2026, 10, 22, 12, 0, 0);

test('a tick follows the wall clock when it moves ahead', () => {
  const first = tickHlc(zeroHlc('a'), t0);
  assert.deepEqual(first, { wallMs: t0, counter: 0, node: 'a' });
  assert.deepEqual(tickHlc(first, t0 + 5), { wallMs: t0 + 5, counter: 0, node: 'a' });
});

test('a tick counts when the wall clock stands still or goes back', () => {
  const first = tickHlc(zeroHlc('a'), t0);
  const same = tickHlc(first, t0);
  assert.deepEqual(same, { wallMs: t0, counter: 1, node: 'a' });
  const back = tickHlc(same, t0 - 60_000);
  assert.deepEqual(back, { wallMs: t0, counter: 2, node: 'a' });
  assert.ok(compareHlc(formatHlc(back), formatHlc(same)) > 0);
});

test('a counter past 16 bits carries into the milliseconds', () => {
  const full: Hlc = { wallMs: t0, counter: 0xffff, node: 'a' };
  assert.deepEqual(tickHlc(full, t0), { wallMs: t0 + 1, counter: 0, node: 'a' });
});

test('receiving a later remote timestamp moves the local clock past it', () => {
  const local = tickHlc(zeroHlc('kiosk'), t0);
  const remote: Hlc = { wallMs: t0 + 120_000, counter: 3, node: 'hub' };
  const after = receiveHlc(local, remote, t0 + 1);
  assert.deepEqual(after, { wallMs: t0 + 120_000, counter: 4, node: 'kiosk' });
  // A write made after seeing the remote one is later, though this clock runs two minutes behind.
  assert.ok(compareHlc(formatHlc(tickHlc(after, t0 + 2)), formatHlc(remote)) > 0);
});

test('receiving takes the wall clock when it is ahead of both', () => {
  const local: Hlc = { wallMs: t0, counter: 7, node: 'a' };
  const remote: Hlc = { wallMs: t0 + 1, counter: 9, node: 'b' };
  assert.deepEqual(receiveHlc(local, remote, t0 + 10), { wallMs: t0 + 10, counter: 0, node: 'a' });
});

test('receiving equal wall times takes the larger counter, plus one', () => {
  const local: Hlc = { wallMs: t0, counter: 2, node: 'a' };
  const remote: Hlc = { wallMs: t0, counter: 5, node: 'b' };
  assert.deepEqual(receiveHlc(local, remote, t0 - 1), { wallMs: t0, counter: 6, node: 'a' });
  assert.deepEqual(receiveHlc({ ...local, counter: 9 }, remote, t0 - 1), { wallMs: t0, counter: 10, node: 'a' });
});

test('receiving an older remote timestamp keeps counting locally', () => {
  const local: Hlc = { wallMs: t0 + 50, counter: 1, node: 'a' };
  assert.deepEqual(receiveHlc(local, { wallMs: t0, counter: 0, node: 'b' }, t0), {
    wallMs: t0 + 50,
    counter: 2,
    node: 'a',
  });
});

test('formatted timestamps sort as the clocks they hold, node id breaking ties', () => {
  const stamps: Hlc[] = [
    { wallMs: t0, counter: 0, node: 'b' },
    { wallMs: t0, counter: 0, node: 'a' },
    { wallMs: t0, counter: 16, node: 'a' },
    { wallMs: t0, counter: 2, node: 'z' },
    { wallMs: t0 + 1, counter: 0, node: 'a' },
    { wallMs: 999, counter: 0xffff, node: 'a' },
  ];
  const byText = [...stamps].sort((x, y) => compareHlc(formatHlc(x), formatHlc(y)));
  const byValue = [...stamps].sort(
    (x, y) => x.wallMs - y.wallMs || x.counter - y.counter || (x.node < y.node ? -1 : x.node > y.node ? 1 : 0),
  );
  assert.deepEqual(byText, byValue);
});

test('format and parse round-trip; malformed text is not a timestamp', () => {
  const hlc: Hlc = { wallMs: t0, counter: 0xabc, node: '0123abcd' };
  const text = formatHlc(hlc);
  assert.equal(text, `00${t0}-0abc-0123abcd`);
  assert.deepEqual(parseHlc(text), hlc);
  assert.ok(isHlc(text));
  for (const bad of ['', '1-2-3', `${t0}-0000-a`, `00${t0}-00000-a`, `00${t0}-0000-`, `00${t0}-0000-a b`]) {
    assert.equal(parseHlc(bad), undefined, bad);
    assert.equal(isHlc(bad), false, bad);
  }
});
