import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import type { VisitRow } from '../visits/contract.ts';
import { visitObjects } from '../visits/present.ts';

/**
 * The open visits: checked in and not out, not blocked at the door. A denied visit stays "inside" in the visit
 * object's `isInsideCompany` (the interface leaves it to the host), but the person was not let in.
 */
const openVisitsSql = `SELECT * FROM visits
  WHERE companyId = ? AND deletedAt IS NULL AND isInsideCompany = 1 AND checkoutAt IS NULL
    AND (visitorStatus IS NULL OR visitorStatus <> 'BLOCKED')
    AND (authorizationStatus IS NULL OR authorizationStatus <> 'DENIED')
  ORDER BY checkinAt DESC, rowid DESC`;

const normalized = (text: unknown) =>
  String(text ?? '')
    .normalize('NFKC')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();

/**
 * The marks by which two visits are the same person: the visitor record the service linked it to (it recognizes
 * returning people by e-mail, CPF or document), and the name and company as typed, without regard to case and
 * spacing. Visits sharing any mark are one person.
 */
export const personMarks = (visit: Record<string, unknown>): string[] => [
  ...(visit.visitorId ? [`visitor:${String(visit.visitorId)}`] : []),
  `name:${normalized(visit.name)}|${normalized(visit.company)}`,
];

export interface RosterGroups {
  /** Per person, their open visits newest first; people in the order of their latest check-in, newest first. */
  inside: VisitRow[][];
  waiting: VisitRow[];
}

/** Splits open visits (newest first) into the people inside and those waiting for a host's decision. Pure. */
export function groupRoster(open: readonly VisitRow[]): RosterGroups {
  const waiting = open.filter((visit) => visit.authorizationStatus === 'AWAITING');
  const admitted = open.filter((visit) => visit.authorizationStatus !== 'AWAITING');
  // Union-find over the visits: each mark joins the visits that carry it.
  const parent = admitted.map((_, i) => i);
  const root = (i: number): number => {
    let at = i;
    while (parent[at] !== at) at = parent[at] as number;
    parent[i] = at;
    return at;
  };
  const firstWithMark = new Map<string, number>();
  admitted.forEach((visit, i) => {
    for (const mark of personMarks(visit)) {
      const seen = firstWithMark.get(mark);
      if (seen === undefined) firstWithMark.set(mark, i);
      else parent[Math.max(root(i), root(seen))] = Math.min(root(i), root(seen));
    }
  });
  const people = new Map<number, VisitRow[]>();
  admitted.forEach((visit, i) => {
    const person = root(i);
    const visits = people.get(person);
    if (visits) visits.push(visit);
    else people.set(person, [visit]);
  });
  return { inside: [...people.values()], waiting };
}

export function roster(ctx: Context, caller: Caller) {
  const open = prepared(ctx.db, openVisitsSql).all(caller.companyId) as VisitRow[];
  const groups = groupRoster(open);
  const latest = visitObjects(
    ctx,
    caller,
    groups.inside.map((visits) => visits[0] as VisitRow),
  );
  return {
    inside: latest.map((visit, i) => ({
      ...visit,
      duplicateVisits: (groups.inside[i] ?? []).slice(1).map((other) => ({
        id: other.id,
        checkinAt: formatInZone(Number(other.checkinAt), caller.timeZone),
      })),
    })),
    waiting: visitObjects(ctx, caller, groups.waiting),
    at: formatInZone(ctx.clock.now(), caller.timeZone),
  };
}

/** The roster's counts without its rows: people inside, those of them without a host, and visits waiting. */
export function rosterCounts(ctx: Context, companyId: string) {
  const groups = groupRoster(prepared(ctx.db, openVisitsSql).all(companyId) as VisitRow[]);
  const hostless = (visit: VisitRow) => !visit.hostId && !visit.customHostName;
  return {
    inside: groups.inside.length,
    withoutHost: groups.inside.filter((visits) => visits.every(hostless)).length,
    waiting: groups.waiting.length,
  };
}
