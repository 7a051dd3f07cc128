import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listQuery } from '../api.ts';
import { Notice } from '../components/ui.tsx';
import { type InsideVisit, insideVisits, todaysInvitees } from '../lists.ts';
import { problemText } from '../problems.ts';
import { dateAndTime, timeOfDay } from '../time.ts';
import type { Invitee, Visit } from '../types.ts';
import { RowAction, useAction } from './kit.tsx';
import type { FrontDeskProps } from './props.ts';

/** Lists refresh themselves this often while shown: visitors come and go while staff look. */
const refreshMs = 10_000;

/** A list loaded now and every `refreshMs`, with `reload` for after an action. */
function useLive<T>(load: () => Promise<T[]>) {
  const [items, setItems] = useState<T[]>();
  const [problem, setProblem] = useState<string>();
  const reload = useCallback(
    () =>
      load().then(
        (loaded) => {
          setItems(loaded);
          setProblem(undefined);
        },
        (error) => setProblem(problemText(error)),
      ),
    [load],
  );
  useEffect(() => {
    void reload();
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload]);
  return { items, problem, reload };
}

/** Who is inside now, printable as the evacuation roster; each visit can be checked out from here. */
export function RosterPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(() => insideVisits(api), [api]);
  const { items, problem, reload } = useLive<InsideVisit>(load);
  const { busy, notice, run } = useAction();
  const [printedAt, setPrintedAt] = useState(new Date());
  const print = () => {
    setPrintedAt(new Date());
    document.body.classList.add('printing-roster');
    // After the heading's time is rendered; the class goes once the print dialog is done.
    setTimeout(() => {
      window.print();
      document.body.classList.remove('printing-roster');
    }, 50);
  };
  const checkOut = (visit: Visit) =>
    run(async () => {
      await api.send('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutType: 'DASHBOARD' });
      await reload();
      return t('roster.checkedOut', { name: visit.name ?? '' });
    });
  return (
    <div className="roster">
      <div className="print-only roster-heading">
        <h2>{t('roster.title')}</h2>
        <p>{data.company?.name}</p>
        <p>{t('roster.printedAt', { time: dateAndTime(lang, data.timeZone, printedAt) })}</p>
      </div>
      <div className="panel-bar">
        <p role="status">{items && t('roster.count', { count: items.length })}</p>
        <button type="button" className="btn btn-secondary no-print" onClick={print}>
          {t('roster.print')}
        </button>
      </div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice}
      {items?.length === 0 && <p>{t('roster.empty')}</p>}
      {items && items.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('roster.name')}</th>
              <th scope="col">{t('roster.company')}</th>
              <th scope="col">{t('roster.host')}</th>
              <th scope="col">{t('roster.since')}</th>
              <th scope="col" className="no-print">
                {t('roster.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((visit) => (
              <tr key={visit.id}>
                <td>{visit.name}</td>
                <td>{visit.company}</td>
                <td>{visit.host?.name}</td>
                <td>{timeOfDay(lang, data.timeZone, visit.checkinAt)}</td>
                <td className="no-print">
                  <RowAction
                    className="btn-small"
                    label={t('roster.checkOut')}
                    name={visit.name}
                    disabled={busy}
                    onClick={() => checkOut(visit)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** Visits waiting for a host's decision, allowed or denied here by the front desk. */
export function PendingPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(
    async () =>
      (
        await api.get<{ visits: Visit[] }>(`/v1/visits${listQuery('authorizationStatus', '==', 'waiting')}`)
      ).visits.filter((v) => v.isInsideCompany),
    [api],
  );
  const { items, problem, reload } = useLive<Visit>(load);
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

/** Today's invitees and where each stands; one not yet arrived can be checked in by the front desk. */
export function ExpectedPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(
    async () =>
      (await todaysInvitees(api, data.timeZone)).sort((a, b) => Date.parse(a.expectedAt) - Date.parse(b.expectedAt)),
    [api, data.timeZone],
  );
  const { items, problem, reload } = useLive<Invitee>(load);
  const { busy, notice, run } = useAction();
  const checkIn = (invitee: Invitee) =>
    run(async () => {
      await api.send('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { checkinType: 'DASHBOARD' });
      await reload();
      return t('expected.checkedIn', { name: invitee.name ?? '' });
    });
  return (
    <div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice}
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
                <td>{t(`expected.${invitee.status}`)}</td>
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
