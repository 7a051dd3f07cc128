import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { attentionOf, attentionRose, type Today } from '../../renderer/src/frontdesk/attention.ts';
import { type RosterPerson, tickOf } from '../../renderer/src/frontdesk/roster.ts';
import { mayPrintBadge, visitState } from '../../renderer/src/frontdesk/visit-state.ts';
import type { Visit } from '../../renderer/src/types.ts';

const quiet: Today = {
  day: '2026-03-02',
  at: '2026-03-02T09:00:00-03:00',
  inside: 12,
  expected: 4,
  waiting: 0,
  blocked: 0,
  denied: 2,
  notificationFailures: 0,
  withoutHost: 0,
  unanswered: 0,
  unansweredHosts: [],
};

describe("the desk's banner", () => {
  test('names what needs someone now, and only that', () => {
    assert.deepEqual(attentionOf(quiet, {}), [], 'people inside, expected or denied need no one now');
    const busy = { ...quiet, blocked: 1, waiting: 3, withoutHost: 1, notificationFailures: 2, unanswered: 1 };
    assert.deepEqual(
      attentionOf(busy, {}).map((item) => [item.kind, item.count, item.tab]),
      [
        ['blocked', 1, 'visits'],
        ['waiting', 3, 'pending'],
        ['withoutHost', 1, 'inside'],
        ['notificationFailures', 2, 'settings'],
        ['unanswered', 1, 'inside'],
      ],
    );
  });

  test('"Seen" quiets what staff saw until there is more; a new day starts afresh', () => {
    const today = { ...quiet, blocked: 1, waiting: 1 };
    const seen = { blocked: 1, waiting: 1, day: today.day };
    assert.deepEqual(attentionOf(today, seen), []);
    assert.deepEqual(
      attentionOf({ ...today, blocked: 2 }, seen).map((item) => item.kind),
      ['blocked'],
    );
    assert.deepEqual(
      attentionOf({ ...today, day: '2026-03-03' }, seen).map((item) => item.kind),
      ['blocked', 'waiting'],
    );
  });

  test('chimes when something new needs attention, not on the first read nor when things settle', () => {
    assert.equal(attentionRose(undefined, { ...quiet, blocked: 1 }), false, 'opening the desk is not news');
    assert.equal(attentionRose(quiet, { ...quiet, blocked: 1 }), true);
    assert.equal(attentionRose({ ...quiet, waiting: 2 }, { ...quiet, waiting: 1 }), false);
    assert.equal(attentionRose(quiet, { ...quiet, inside: 13, denied: 3 }), false);
  });
});

const visit = (fields: Partial<Visit>): Visit => ({
  id: 'v1',
  name: 'Ana',
  company: null,
  host: null,
  checkinAt: '2026-03-02T09:00:00-03:00',
  checkoutAt: null,
  isInsideCompany: true,
  authorizationStatus: null,
  visitorStatus: null,
  pictureUrl: null,
  ndaUrl: null,
  cardNumber: null,
  ...fields,
});

test('a visit turned away at the door gets no badge', () => {
  assert.equal(mayPrintBadge(visit({ visitorStatus: 'BLOCKED' })), false);
  assert.equal(mayPrintBadge(visit({ authorizationStatus: 'denied', isInsideCompany: true })), false);
  assert.equal(mayPrintBadge(visit({ authorizationStatus: 'waiting' })), true);
  assert.equal(mayPrintBadge(visit({ checkoutAt: '2026-03-02T10:00:00-03:00' })), true);
  assert.equal(visitState(visit({ visitorStatus: 'BLOCKED', authorizationStatus: 'denied' })), 'blocked');
});

test("a person's tick is on any of their open visits", () => {
  const person: RosterPerson = { ...visit({ id: 'latest' }), duplicateVisits: [{ id: 'earlier', checkinAt: '' }] };
  const tick = { visitId: 'earlier', checkedAt: '2026-03-02T09:30:00-03:00', checkedBy: 'c1' };
  assert.equal(tickOf(person, { startedAt: null, startedBy: null, accounted: [tick] }), tick);
  assert.equal(
    tickOf(person, { startedAt: null, startedBy: null, accounted: [{ ...tick, visitId: 'other' }] }),
    undefined,
  );
});
