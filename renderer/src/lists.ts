import { type Api, listQuery } from './api.ts';
import { isToday } from './time.ts';
import type { Invitee, Visit } from './types.ts';

export type InsideVisit = Visit & { inviteeId?: string | null };

/** Who is inside now: the open visits (the evacuation roster). */
export const insideVisits = async (api: Api): Promise<InsideVisit[]> =>
  (await api.get<{ visits: InsideVisit[] }>(`/v1/visits${listQuery('isInsideCompany', '==', 'true')}`)).visits;

/** Today's invitees: those expected from 36 hours ago on, kept when their day is today in the company's zone. */
export async function todaysInvitees(api: Api, timeZone: string): Promise<Invitee[]> {
  const since = Math.floor(Date.now() / 1000) - 36 * 3600;
  const { invitees } = await api.get<{ invitees: Invitee[] }>(
    `/v1/invitees${listQuery('expectedAt', '>=', since, 2000)}`,
  );
  return invitees.filter((i) => isToday(timeZone, i.expectedAt));
}
