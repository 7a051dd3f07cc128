import type { VisitObject } from '../../../../local-api/visits/contract.ts';
import { type Api, listQuery } from '../../api.ts';
import type { Visit } from '../../types.ts';
import type { ConsoleSession, PersonRole } from '../session.ts';

/** A visit waiting for its host's decision, with what the visitor answered at the kiosk. */
export type WaitingVisit = Visit & Partial<Pick<VisitObject, 'customFields' | 'notes'>>;

/** Who decides for every host's visitors (docs/console.md, "Roles: who sees what"); the others for their own. */
const decidesForAnyone: readonly PersonRole[] = ['ADMIN', 'FRONTDESK', 'SECURITY'];

/** The host whose visitors alone the person decides for; undefined for every host's. Pure. */
export const decidesFor = (session: ConsoleSession): string | undefined =>
  decidesForAnyone.includes(session.account.role) ? undefined : session.account.hostId;

/**
 * The visits waiting now for a decision, newest first: waiting and not checked out (an old visit never decided is
 * no longer at the door), and only `hostId`'s visitors when given (a manager reads every visit but decides for their
 * own; a host's session is scoped by the service already).
 */
export async function waitingVisits(api: Api, hostId: string | undefined): Promise<WaitingVisit[]> {
  const { visits } = await api.get<{ visits: WaitingVisit[] }>(
    `/v1/visits${listQuery('authorizationStatus', '==', 'waiting', 500)}`,
  );
  return visits
    .filter((visit) => !visit.checkoutAt && (hostId === undefined || visit.host?.id === hostId))
    .sort((a, b) => Date.parse(b.checkinAt) - Date.parse(a.checkinAt));
}
