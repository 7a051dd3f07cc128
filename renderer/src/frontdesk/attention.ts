/*
 * What the front desk's overview counts and what of it needs someone now: the rules, apart from the screen that
 * shows them.
 */

/** GET /v1/today: the day's counts, in the company's zone (docs/api.md, "Front desk"). */
export interface Today {
  day: string;
  at: string;
  inside: number;
  expected: number;
  waiting: number;
  blocked: number;
  denied: number;
  notificationFailures: number;
  withoutHost: number;
  /** Hosts escalated today who have not answered yet, and who they are (docs/api.md, "Escalation"). */
  unanswered: number;
  unansweredHosts: UnansweredHost[];
}

/** "Ana has not answered about Bob": a host escalated today, still silent. */
export interface UnansweredHost {
  visitId: string;
  hostName: string;
  visitorName: string;
}

/** The desk's tabs a count of the overview opens. */
export type TodayTab = 'inside' | 'pending' | 'expected' | 'visits' | 'settings';

/** The overview's counts in the order shown, each with the tab that lists what it counts. */
export const overview = [
  ['inside', 'inside'],
  ['expected', 'expected'],
  ['waiting', 'pending'],
  ['blocked', 'visits'],
  ['denied', 'visits'],
  ['notificationFailures', 'settings'],
] as const satisfies readonly (readonly [keyof Today, TodayTab])[];

/** What needs someone now, and the tab where it is dealt with. */
const attentionKinds = [
  ['blocked', 'visits'],
  ['waiting', 'pending'],
  ['withoutHost', 'inside'],
  ['notificationFailures', 'settings'],
  ['unanswered', 'inside'],
] as const satisfies readonly (readonly [keyof Today, TodayTab])[];
type AttentionKind = (typeof attentionKinds)[number][0];
export type Seen = Partial<Record<AttentionKind, number>> & { day?: string };

/**
 * What the banner shows: each kind of attention whose count is above what staff marked as seen today. Blocked
 * visitors and failed messages are the day's tallies (they never go down until tomorrow), so "Seen" is what
 * quiets them; a visit waiting or a visitor without a host leaves the banner once dealt with. Pure.
 */
export function attentionOf(today: Today, seen: Seen): { kind: AttentionKind; count: number; tab: TodayTab }[] {
  const seenToday = seen.day === today.day ? seen : {};
  return attentionKinds
    .filter(([kind]) => today[kind] > (seenToday[kind] ?? 0))
    .map(([kind, tab]) => ({ kind, count: today[kind], tab }));
}

/** Whether anything needs attention that did not before: the moment to chime. Pure. */
export const attentionRose = (before: Today | undefined, now: Today): boolean =>
  before !== undefined && attentionKinds.some(([kind]) => now[kind] > (before.day === now.day ? before[kind] : 0));
