import type { VisitObject } from '../../../../local-api/visits/contract.ts';
import { type Api, listQuery } from '../../api.ts';
import type { Visit } from '../../types.ts';

/** A visit waiting for its host's decision, with what the visitor answered at the kiosk. */
export type WaitingVisit = Visit & Partial<Pick<VisitObject, 'customFields' | 'notes'>>;

/**
 * The visits waiting now for a decision, newest first: waiting and not checked out (an old visit never decided is
 * no longer at the door). A host's session sees their own visitors' (the service scopes the list).
 */
export async function waitingVisits(api: Api): Promise<WaitingVisit[]> {
  const { visits } = await api.get<{ visits: WaitingVisit[] }>(
    `/v1/visits${listQuery('authorizationStatus', '==', 'waiting', 500)}`,
  );
  return visits.filter((visit) => !visit.checkoutAt).sort((a, b) => Date.parse(b.checkinAt) - Date.parse(a.checkinAt));
}
