import type { Api } from '../api.ts';
import { fold } from '../search.ts';
import type { Visit } from '../types.ts';

/** A person inside (GET /v1/roster): their latest open visit and the other open visits of the same person. */
export type RosterPerson = Visit & { duplicateVisits: { id: string; checkinAt: string }[] };

export interface Roster {
  inside: RosterPerson[];
  waiting: Visit[];
  at: string;
}

export const loadRoster = (api: Api) => api.get<Roster>('/v1/roster');

/** The visits whose name, company, host or e-mail hold every word typed (without regard to case and accents). */
export function searchVisits<T extends Visit>(visits: readonly T[], query: string): T[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...visits];
  return visits.filter((visit) => {
    const text = fold([visit.name, visit.company, visit.host?.name, visit.email].filter(Boolean).join(' '));
    return words.every((word) => text.includes(word));
  });
}

/** One person accounted for in the roll call (GET /v1/roster/check). */
export interface RosterTick {
  visitId: string;
  checkedAt: string;
  checkedBy: string;
}

/** The roll call of an evacuation, kept by the service so every marshal's device shows the same ticks. */
export interface RollCall {
  startedAt: string | null;
  startedBy: string | null;
  accounted: RosterTick[];
}

export const loadRollCall = (api: Api) => api.get<RollCall>('/v1/roster/check');

/** The tick of a person: on their row's visit, or on another open visit of theirs (ticked before a regrouping). */
export function tickOf(person: RosterPerson, rollCall: RollCall): RosterTick | undefined {
  const visits = new Set([person.id, ...person.duplicateVisits.map((visit) => visit.id)]);
  return rollCall.accounted.find((tick) => visits.has(tick.visitId));
}
