import type { Visit } from '../types.ts';

export type VisitState = 'blocked' | 'denied' | 'out' | 'waiting' | 'inside';

/** The state of a visit in a word, as the service's CSV export says it. */
export function visitState(visit: Visit): VisitState {
  if (visit.visitorStatus === 'BLOCKED') return 'blocked';
  if (visit.authorizationStatus === 'denied') return 'denied';
  if (visit.checkoutAt) return 'out';
  if (visit.authorizationStatus === 'waiting') return 'waiting';
  return 'inside';
}

/** A visit turned away at the door gets no badge: it would let the person through. */
export const mayPrintBadge = (visit: Visit): boolean => !['blocked', 'denied'].includes(visitState(visit));
