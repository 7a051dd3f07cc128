import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../components/ui.tsx';
import { RowAction, useAction } from '../settings/kit.tsx';
import { dateAndTime, timeOfDay } from '../time.ts';
import type { Visit } from '../types.ts';
import { SearchBox, useLive } from './kit.tsx';
import type { FrontDeskProps } from './props.ts';
import {
  loadRollCall,
  loadRoster,
  type RollCall,
  type Roster,
  type RosterPerson,
  type RosterTick,
  searchVisits,
  tickOf,
} from './roster.ts';

/**
 * Who is inside now, as the service counts them (checked in, not out, let in: GET /v1/roster), one row per person,
 * with a warning where a person checked in more than once, and their phone; who waits at the door, apart. In an
 * evacuation, marshals tick each person accounted for (the roll call, GET /v1/roster/check: kept by the service,
 * so every marshal's device shows the same). Printable on A4 as the evacuation roster with the ticks, whole,
 * whatever the search shows on screen.
 */
export function RosterPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const load = useCallback(async () => {
    const [roster, rollCall] = await Promise.all([loadRoster(api), loadRollCall(api)]);
    return { roster, rollCall };
  }, [api]);
  const { value, problem, reload } = useLive<{ roster: Roster; rollCall: RollCall }>(load);
  const roster = value?.roster;
  const { busy, notice, run } = useAction();
  const [clearing, setClearing] = useState(false);
  const [query, setQuery] = useState('');
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
  /** Checks out the given open visits of a person, then says so. */
  const close = (ids: readonly string[], sentence: string) =>
    run(async () => {
      for (const id of ids) await api.send('PATCH', `/v1/visit/checkout/${id}`, { checkoutType: 'DASHBOARD' });
      await reload();
      return sentence;
    });
  const repeats = (person: RosterPerson) => person.duplicateVisits.map((d) => d.id);
  /** A person leaves once: every open visit of theirs is closed. */
  const checkOut = (person: RosterPerson) =>
    close([person.id, ...repeats(person)], t('roster.checkedOut', { name: person.name ?? '' }));
  const closeRepeats = (person: RosterPerson) =>
    close(repeats(person), t('roster.repeatsClosed', { name: person.name ?? '' }));
  /** Ticks a person accounted for, or takes the tick back: stored at the service, for every marshal's device. */
  const toggleTick = (person: RosterPerson, tick: RosterTick | undefined) =>
    run(async () => {
      if (tick) await api.send('DELETE', `/v1/roster/check/${tick.visitId}`);
      else await api.send('PUT', `/v1/roster/check/${person.id}`);
      await reload();
      return undefined;
    });
  /** A new evacuation: asked twice, since it clears every marshal's ticks. */
  const newRollCall = () => {
    if (!clearing) {
      setClearing(true);
      return;
    }
    setClearing(false);
    void run(async () => {
      await api.send('POST', '/v1/roster/check');
      await reload();
      return t('roster.rollCallStarted');
    });
  };
  const tickOfPerson = (person: RosterPerson) => (value ? tickOf(person, value.rollCall) : undefined);
  const accounted = roster ? roster.inside.filter((person) => tickOfPerson(person)).length : 0;
  const inside = roster ? searchVisits(roster.inside, query) : [];
  const since = (visit: Visit) => timeOfDay(lang, data.timeZone, visit.checkinAt);
  return (
    <div className="roster">
      <div className="print-only roster-heading">
        <h2>{t('roster.title')}</h2>
        <p>{data.company?.name}</p>
        <p>{t('roster.printedAt', { time: dateAndTime(lang, data.timeZone, printedAt) })}</p>
      </div>
      <div className="panel-bar no-print">
        <SearchBox label={t('roster.search')} value={query} onChange={setQuery} />
        <button
          type="button"
          className={`btn btn-secondary${clearing ? ' btn-danger' : ''}`}
          onClick={newRollCall}
          onBlur={() => setClearing(false)}
          disabled={!value || busy || value.rollCall.accounted.length === 0}
        >
          {t(clearing ? 'roster.confirmNewRollCall' : 'roster.newRollCall')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={print} disabled={!roster}>
          {t('roster.print')}
        </button>
      </div>
      <p role="status" className="roster-count">
        {roster && t('roster.count', { count: roster.inside.length })}
        {roster && roster.inside.length > 0 && (
          <span> · {t('roster.accountedCount', { count: accounted, total: roster.inside.length })}</span>
        )}
        {roster && query.trim() && <span className="no-print"> · {t('roster.shown', { count: inside.length })}</span>}
      </p>
      <div className="no-print">
        {problem && <Notice kind="error">{problem}</Notice>}
        {notice}
      </div>
      {roster?.inside.length === 0 && <p>{t('roster.empty')}</p>}
      {roster && roster.inside.length > 0 && (
        <table className="table roster-table">
          <thead>
            <tr>
              <th scope="col" className="col-check">
                <span aria-hidden="true">✓</span>
                <span className="sr-only">{t('roster.accounted')}</span>
              </th>
              <th scope="col" className="col-photo">
                <span className="sr-only">{t('roster.photo')}</span>
              </th>
              {(['name', 'company', 'host', 'phone', 'since'] as const).map((column) => (
                <th key={column} scope="col" className={`col-${column}`}>
                  {t(`roster.${column}`)}
                </th>
              ))}
              <th scope="col" className="col-actions no-print">
                {t('roster.actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {inside.map((person) => {
              const tick = tickOfPerson(person);
              return (
                <tr
                  key={person.id}
                  className={[query.trim() ? 'searched' : '', tick ? 'accounted' : ''].join(' ').trim() || undefined}
                >
                  <td className="col-check">
                    <button
                      type="button"
                      className="btn tick"
                      aria-pressed={tick !== undefined}
                      aria-label={`${t('roster.accounted')}: ${person.name ?? ''}`}
                      disabled={busy}
                      onClick={() => toggleTick(person, tick)}
                    >
                      <span aria-hidden="true">{tick ? '✓' : ''}</span>
                    </button>
                    {tick && <span className="tick-time">{timeOfDay(lang, data.timeZone, tick.checkedAt)}</span>}
                  </td>
                  <td className="col-photo">
                    {person.pictureSignedUrl ? (
                      <img className="roster-photo" src={person.pictureSignedUrl} alt="" />
                    ) : (
                      <span className="roster-photo roster-photo-none" aria-hidden="true" />
                    )}
                  </td>
                  <td className="col-name">
                    <span className="wrap">{person.name}</span>
                    {person.duplicateVisits.length > 0 && (
                      <span className="repeat-warning">
                        {t('roster.repeated', { count: person.duplicateVisits.length + 1 })}
                      </span>
                    )}
                  </td>
                  <td className="col-company">
                    <span className="wrap">{person.company}</span>
                  </td>
                  <td className="col-host">
                    <span className="wrap">{person.host?.name}</span>
                  </td>
                  <td className="col-phone">
                    {person.phone && (
                      <a className="wrap" href={`tel:${person.phone.replace(/[^\d+]/g, '')}`}>
                        {person.phone}
                      </a>
                    )}
                  </td>
                  <td className="col-since">{since(person)}</td>
                  <td className="col-actions no-print">
                    <div className="row-actions">
                      <RowAction
                        label={t('roster.checkOut')}
                        name={person.name}
                        disabled={busy}
                        onClick={() => checkOut(person)}
                      />
                      {person.duplicateVisits.length > 0 && (
                        <RowAction
                          className="btn-small btn-secondary"
                          label={t('roster.closeRepeats')}
                          name={person.name}
                          disabled={busy}
                          onClick={() => closeRepeats(person)}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {roster && roster.waiting.length > 0 && (
        <section className="roster-waiting" aria-labelledby="roster-waiting-title">
          <h2 id="roster-waiting-title">{t('roster.waitingTitle', { count: roster.waiting.length })}</h2>
          <p className="hint no-print">{t('roster.waitingHint')}</p>
          <ul className="plain-list">
            {searchVisits(roster.waiting, query).map((visit) => (
              <li key={visit.id}>
                <span className="wrap">
                  {[visit.name, visit.company, visit.host?.name, since(visit)].filter(Boolean).join(' · ')}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
