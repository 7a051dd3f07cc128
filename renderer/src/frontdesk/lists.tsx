import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import { Notice } from '../components/ui.tsx';
import { completionOf } from '../flows/Invited.tsx';
import { type InsideVisit, todaysInvitees } from '../lists.ts';
import { RowAction, useAction } from '../settings/kit.tsx';
import { timeOfDay } from '../time.ts';
import type { Invitee, Visit } from '../types.ts';
import { ExpectedCheckin } from './ExpectedCheckin.tsx';
import { useLive } from './kit.tsx';
import type { FrontDeskProps } from './props.ts';
import { loadRoster } from './roster.ts';
import { visitState } from './visit-state.ts';

/**
 * Visits waiting for a host's decision, allowed or denied here by the front desk; a visit held at the door (a name
 * on the blocklist) says so.
 */
export function PendingPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(async () => (await loadRoster(api)).waiting, [api]);
  const { value: items, problem, reload } = useLive<Visit[]>(load);
  const { busy, notice, run } = useAction();
  const decide = (visit: Visit, decision: 'allow' | 'deny') =>
    run(async () => {
      await api.send('PATCH', `/v1/visit/${decision}/${visit.id}`, { authorizationVia: 'DASHBOARD' });
      await reload();
      return t(decision === 'allow' ? 'pending.allowed' : 'pending.denied', { name: visit.name ?? '' });
    });
  return (
    <div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice}
      {items?.length === 0 && <p>{t('pending.empty')}</p>}
      <ul className="card-list">
        {items?.map((visit) => (
          <li key={visit.id} className="card">
            <p className="card-title">{visit.name}</p>
            <p>
              {[visit.company, visit.host?.name, timeOfDay(lang, data.timeZone, visit.checkinAt)]
                .filter(Boolean)
                .join(' · ')}
            </p>
            {/* Held at the door: the name is on the blocklist; the desk decides knowing it (the note says why). */}
            {visit.heldAtDoor && <Notice kind="error">{visit.statusNote}</Notice>}
            <div className="card-actions">
              <RowAction
                className="btn-secondary"
                label={t('pending.deny')}
                name={visit.name}
                disabled={busy}
                onClick={() => decide(visit, 'deny')}
              />
              <RowAction
                className="btn-primary"
                label={t('pending.allow')}
                name={visit.name}
                disabled={busy}
                onClick={() => decide(visit, 'allow')}
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** An invitee of today with the latest visit their invitation made today, if any. */
type ExpectedInvitee = Invitee & { visit: InsideVisit | undefined };

/** Today's visits, newest first (the desk's own history of the day; a busy day's first 1000). */
const todaysVisits = async (api: Api) =>
  (await api.get<{ visits: InsideVisit[] }>('/v1/visits/history?limit=1000')).visits;

/** Today's invitees and where each stands; one not yet arrived can be checked in by the front desk. */
export function ExpectedPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(async () => {
    const [invitees, visits] = await Promise.all([todaysInvitees(api, data.timeZone), todaysVisits(api)]);
    // The history is newest first: an invitee's latest visit of the day is the first seen.
    const visitOf = new Map<string, InsideVisit>();
    for (const visit of visits)
      if (visit.inviteeId && !visitOf.has(visit.inviteeId)) visitOf.set(visit.inviteeId, visit);
    return invitees
      .sort((a, b) => Date.parse(a.expectedAt) - Date.parse(b.expectedAt))
      .map((invitee) => ({ ...invitee, visit: visitOf.get(invitee.id) }));
  }, [api, data.timeZone]);
  const { value: items, problem, reload } = useLive<ExpectedInvitee[]>(load);
  const { busy, notice, run } = useAction();
  const [completing, setCompleting] = useState<Invitee>();
  /** An invitee who came is "Arrived" only if let in: one blocked, denied or still waiting says so instead. */
  const inviteeState = (invitee: ExpectedInvitee) => {
    const state = invitee.status === 'arrived' && invitee.visit ? visitState(invitee.visit) : undefined;
    return state && state !== 'inside' && state !== 'out'
      ? t(`visitLog.state.${state}`)
      : t(`expected.${invitee.status}`);
  };
  /** A guest whose invitation lacks required answers is asked them here first (or let in with a reason). */
  const checkIn = (invitee: Invitee) => {
    const { requirements } = completionOf(invitee, data, lang);
    if (requirements.fieldDefs.length + requirements.questionDefs.length > 0) {
      setCompleting(invitee);
      return;
    }
    void run(async () => {
      await api.send('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { checkinType: 'DASHBOARD' });
      await reload();
      return t('expected.checkedIn', { name: invitee.name ?? '' });
    });
  };
  const completed = (sentence: string) =>
    run(async () => {
      setCompleting(undefined);
      await reload();
      return sentence;
    });
  return (
    <div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice}
      {completing && (
        <ExpectedCheckin
          api={api}
          data={data}
          lang={lang}
          invitee={completing}
          onDone={completed}
          onCancel={() => setCompleting(undefined)}
        />
      )}
      {items?.length === 0 && <p>{t('expected.empty')}</p>}
      {items && items.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('expected.time')}</th>
              <th scope="col">{t('roster.name')}</th>
              <th scope="col">{t('roster.host')}</th>
              <th scope="col">{t('expected.state')}</th>
              <th scope="col">{t('roster.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((invitee) => (
              <tr key={invitee.id}>
                <td>{timeOfDay(lang, data.timeZone, invitee.expectedAt)}</td>
                <td>{invitee.name}</td>
                <td>{invitee.host?.name}</td>
                <td>{inviteeState(invitee)}</td>
                <td>
                  {invitee.status === 'confirmed' && (
                    <RowAction
                      className="btn-small"
                      label={t('expected.checkIn')}
                      name={invitee.name}
                      disabled={busy}
                      onClick={() => checkIn(invitee)}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
