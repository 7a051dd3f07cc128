import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { guestsScope } from '../credentials/guests.ts';
import { type PersonAtDoor, type PersonIdentity, personIdentity, samePerson } from '../rules/identity.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import type { VisitRow } from '../visits/contract.ts';
import { visitObjects } from '../visits/present.ts';

/**
 * The open visits: checked in and not out, not blocked at the door. A denied visit stays "inside" in the visit
 * object's `isInsideCompany` (the interface leaves it to the host), but the person was not let in. `scope` narrows
 * them (a `host` person's own). They are read from the index of open visits alone (migration 0037), newest first
 * in its order: the company's other visits, however many, are never read.
 */
const openVisitsSql = (columns: string, scope = '') => `SELECT ${columns} FROM visits
  WHERE companyId = :companyId AND deletedAt IS NULL AND isInsideCompany = 1 AND checkoutAt IS NULL
    AND (visitorStatus IS NULL OR visitorStatus <> 'BLOCKED')
    AND (authorizationStatus IS NULL OR authorizationStatus <> 'DENIED') ${scope}
  ORDER BY checkinAt DESC, rowid DESC`;

/** What tells an open visit's person apart and whether it waits for a decision: all `groupRoster` reads. */
type OpenVisit = Pick<VisitRow, 'authorizationStatus'> & PersonAtDoor;

export interface RosterGroups<T extends OpenVisit = VisitRow> {
  /** Per person, their open visits newest first; people in the order of their latest check-in, newest first. */
  inside: T[][];
  waiting: T[];
}

/**
 * Splits open visits (newest first) into the people inside and those waiting for a host's decision. A visit joins
 * the first person found whose every visit is the same person as it (`samePerson`); the roster counts people for an
 * evacuation, so two people are never merged into one row. Pure.
 */
export function groupRoster<T extends OpenVisit>(open: readonly T[]): RosterGroups<T> {
  const waiting = open.filter((visit) => visit.authorizationStatus === 'AWAITING');
  const people: { visits: T[]; identities: PersonIdentity[] }[] = [];
  // Only visits of one name and company can be one person: look among those alone.
  const byKey = new Map<string, typeof people>();
  for (const visit of open) {
    if (visit.authorizationStatus === 'AWAITING') continue;
    const identity = personIdentity(visit);
    const candidates = byKey.get(identity.key) ?? [];
    const person = candidates.find((p) => p.identities.every((other) => samePerson(identity, other)));
    if (person) {
      person.visits.push(visit);
      person.identities.push(identity);
      continue;
    }
    const added = { visits: [visit], identities: [identity] };
    people.push(added);
    byKey.set(identity.key, [...candidates, added]);
  }
  return { inside: people.map((person) => person.visits), waiting };
}

export async function roster(ctx: Context, caller: Caller) {
  const open = (await prepared(ctx.db, openVisitsSql('*')).all({ companyId: caller.companyId })) as VisitRow[];
  const groups = groupRoster(open);
  const latest = await visitObjects(
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
    waiting: await visitObjects(ctx, caller, groups.waiting),
    at: formatInZone(ctx.clock.now(), caller.timeZone),
  };
}

/** The columns the counts read of each open visit: who the person is, the decision, the host. */
const countedColumns = 'name, company, email, phone, cpf, rg, document, authorizationStatus, hostId, customHostName';
type CountedVisit = OpenVisit & Pick<VisitRow, 'hostId' | 'customHostName'>;

/**
 * The roster's counts without its rows: people inside, those of them without a host, and visits waiting; a `host`
 * person's own visitors. Only the columns the grouping reads are read: a whole visit row is many times larger.
 * A host's are found among the open visits, as many as the people inside, rather than among every visit of theirs,
 * which grow with the years: SQLite plans without statistics and would take an index of the host's visits for its
 * order; the unary + keeps it from the host column (PostgreSQL plans from statistics, and has no unary + on text).
 */
export async function rosterCounts(ctx: Context, caller: Caller) {
  const scope = guestsScope(caller, ctx.db.sqlite ? '+hostId' : 'hostId');
  const open = (await prepared(ctx.db, openVisitsSql(countedColumns, scope ? `AND ${scope.sql}` : '')).all({
    companyId: caller.companyId,
    ...scope?.params,
  })) as CountedVisit[];
  const groups = groupRoster(open);
  const hostless = (visit: CountedVisit) => !visit.hostId && !visit.customHostName;
  return {
    inside: groups.inside.length,
    withoutHost: groups.inside.filter((visits) => visits.every(hostless)).length,
    waiting: groups.waiting.length,
  };
}
