import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { RowAction, TextInput, useAction } from '../settings/kit.tsx';
import { dateAndTime, dayIn } from '../time.ts';
import type { Visit } from '../types.ts';
import { useBadgePrinter } from './badge-print.tsx';
import { SearchBox } from './kit.tsx';
import type { FrontDeskProps } from './props.ts';
import { mayPrintBadge, visitState } from './visit-state.ts';

const pageSize = 50;

/**
 * Today's and past visits (GET /v1/visits/history): a span of days, a search, pages of 50, each visit's badge
 * printable again, and the same visits as a CSV file (GET /v1/visits/export, made formula-safe by the service).
 */
export function VisitsPanel({ api, data, lang }: FrontDeskProps) {
  const { t } = useTranslation();
  const today = dayIn(data.timeZone, new Date());
  const [span, setSpan] = useState({ from: today, to: today });
  const [query, setQuery] = useState('');
  const [offset, setOffset] = useState(0);
  const [visits, setVisits] = useState<Visit[]>();
  const [problem, setProblem] = useState<string>();
  const { busy, notice, run } = useAction();

  const params = useCallback(
    (extra: Record<string, string> = {}) =>
      new URLSearchParams({
        from: span.from,
        to: span.to,
        ...(query.trim() ? { search: query.trim() } : {}),
        ...extra,
      }),
    [span, query],
  );
  useEffect(() => {
    // Typing settles before the service is asked.
    const timer = setTimeout(() => {
      api
        .get<{ visits: Visit[] }>(`/v1/visits/history?${params({ limit: String(pageSize), offset: String(offset) })}`)
        .then(
          (answer) => {
            setVisits(answer.visits);
            setProblem(undefined);
          },
          (error) => setProblem(problemText(error)),
        );
    }, 250);
    return () => clearTimeout(timer);
  }, [api, params, offset]);

  const exportCsv = () =>
    run(async () => {
      const file = await api.download(`/v1/visits/export?${params()}`);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `visits-${span.from}-${span.to}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
      return t('visitLog.exported');
    });

  const printer = useBadgePrinter(api, data, lang);

  const day = (key: 'from' | 'to', label: string) => (
    <TextInput
      label={label}
      type="date"
      value={span[key]}
      onChange={(value) => {
        setSpan({ ...span, [key]: value });
        setOffset(0);
      }}
    />
  );
  return (
    <div className="visit-log">
      <div className="panel-bar filters">
        {day('from', t('visitLog.from'))}
        {day('to', t('visitLog.to'))}
        <SearchBox
          label={t('visitLog.search')}
          value={query}
          onChange={(value) => {
            setQuery(value);
            setOffset(0);
          }}
        />
        <button type="button" className="btn btn-secondary" onClick={exportCsv} disabled={busy}>
          {t('visitLog.export')}
        </button>
      </div>
      {problem && <Notice kind="error">{problem}</Notice>}
      {notice}
      {!visits && !problem && <Spinner label={t('common.loading')} />}
      {visits?.length === 0 && <p>{t('visitLog.empty')}</p>}
      {visits && visits.length > 0 && (
        <table className="table visit-table">
          <thead>
            <tr>
              <th scope="col">{t('roster.name')}</th>
              <th scope="col">{t('roster.company')}</th>
              <th scope="col">{t('roster.host')}</th>
              <th scope="col">{t('visitLog.checkin')}</th>
              <th scope="col">{t('visitLog.checkout')}</th>
              <th scope="col">{t('expected.state')}</th>
              <th scope="col">{t('roster.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {visits.map((visit) => (
              <tr key={visit.id}>
                <td>
                  <span className="wrap">{visit.name}</span>
                </td>
                <td>
                  <span className="wrap">{visit.company}</span>
                </td>
                <td>
                  <span className="wrap">{visit.host?.name}</span>
                </td>
                <td>{dateAndTime(lang, data.timeZone, visit.checkinAt)}</td>
                <td>{visit.checkoutAt ? dateAndTime(lang, data.timeZone, visit.checkoutAt) : ''}</td>
                <td>
                  {t(`visitLog.state.${visitState(visit)}`)}
                  {visit.hostNotification && visit.hostNotification !== 'none' && (
                    <span className={`visit-notice visit-notice-${visit.hostNotification}`}>
                      {t(`visitLog.notice.${visit.hostNotification}`)}
                    </span>
                  )}
                </td>
                <td>
                  {mayPrintBadge(visit) && (
                    <RowAction
                      label={t('visitLog.reprint')}
                      name={visit.name}
                      disabled={busy}
                      onClick={() => run(printer.print(visit))}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="panel-bar pager">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - pageSize))}
        >
          {t('visitLog.newer')}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!visits || visits.length < pageSize}
          onClick={() => setOffset(offset + pageSize)}
        >
          {t('visitLog.older')}
        </button>
      </div>
      {printer.badge}
    </div>
  );
}
