import '../directory.css';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useConsole } from '../context.ts';
import { useLive } from '../live.ts';
import { useWords } from '../words.ts';
import { saveFile } from './save-file.ts';
import { visitLogWords } from './words.ts';

/** A visit as the log answers it: what the page shows of it. */
interface LoggedVisit {
  id: string;
  name: string | null;
  company: string | null;
  host: { id: string; name: string } | null;
  customHostName: string | null;
  checkinAt: string;
  checkoutAt: string | null;
  authorizationStatus: 'waiting' | 'allowed' | 'denied' | null;
  visitorStatus: string | null;
  checkinByIpadId: string | null;
  pictureSignedUrl: string | null;
  ndaSignedUrl: string | null;
}

interface LogPage {
  visits: LoggedVisit[];
  nextCursor: string | null;
}

const states = ['inside', 'waiting', 'out', 'denied', 'blocked'] as const;
type State = (typeof states)[number];

/** The visit's state in one word, as the service's status filter reads it (docs/api.md, "Front desk"). */
function stateOf(visit: LoggedVisit): State {
  if (visit.visitorStatus === 'BLOCKED') return 'blocked';
  if (visit.authorizationStatus === 'denied') return 'denied';
  if (visit.checkoutAt !== null) return 'out';
  if (visit.authorizationStatus === 'waiting') return 'waiting';
  return 'inside';
}

interface Filters {
  from: string;
  to: string;
  search: string;
  host: string;
  visitorType: string;
  status: string;
  kiosk: string;
}

/** Today in the company's zone, as a date input holds it. */
const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

/** The query of the log and its export: the filters that are set. */
function queryOf(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value.trim()) query.set(key, value.trim());
  return query;
}

const pageSize = 50;

/**
 * The visit log (docs/console.md, "Visit log"): any day or span, searched and filtered, read a page at a time
 * (by the log's cursor), each visit with its photo and signed agreement; the same visits as a CSV file.
 */
export default function VisitLog() {
  const { api, session, lang } = useConsole();
  const words = useWords(visitLogWords);
  const timeZone = session.company.timeZone;
  const isAdmin = session.account.role === 'ADMIN';
  const [draft, setDraft] = useState<Filters>(() => {
    const today = todayIn(timeZone);
    return { from: today, to: today, search: '', host: '', visitorType: '', status: '', kiosk: '' };
  });
  const [filters, setFilters] = useState(draft);
  const [visits, setVisits] = useState<LoggedVisit[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [hosts, setHosts] = useState<{ id: string; name: string }[]>([]);
  const [types, setTypes] = useState<{ id: string; name: string; localizedName?: Record<string, string> }[]>([]);
  // The kiosks the log can tell apart: by what their check-ins carry (`checkinById`).
  const [kiosks, setKiosks] = useState<{ checkinById: string; name: string | null; self: boolean }[]>([]);

  useEffect(() => {
    void api.get<{ hosts: { id: string; name: string }[] }>('/v1/hosts/directory?limit=1000').then(
      (answer) => setHosts(answer.hosts),
      () => setHosts([]),
    );
    void api.get<{ visitorTypes: { id: string; name: string }[] }>('/v1/visitortypes').then(
      (answer) => setTypes(answer.visitorTypes),
      () => setTypes([]),
    );
    if (isAdmin) {
      void api.get<{ kiosks: { checkinById: string | null; name: string | null; self: boolean }[] }>('/v1/kiosks').then(
        (answer) =>
          setKiosks(answer.kiosks.flatMap((k) => (k.checkinById ? [{ ...k, checkinById: k.checkinById }] : []))),
        () => setKiosks([]),
      );
    }
  }, [api, isAdmin]);

  const read = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setFailed(false);
      try {
        const query = queryOf(filters);
        query.set('limit', String(pageSize));
        if (after) query.set('cursor', after);
        const page = await api.get<LogPage>(`/v1/visits/history?${query}`);
        setVisits((shown) => (after ? [...shown, ...page.visits] : page.visits));
        setCursor(page.nextCursor);
      } catch {
        setFailed(true);
      } finally {
        setLoading(false);
      }
    },
    [api, filters],
  );

  useEffect(() => {
    void read(null);
  }, [read]);

  // A check-in or check-out elsewhere shows at once, while the first page is what the person reads.
  useLive(() => {
    if (visits.length <= pageSize) void read(null);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };

  const download = async () => {
    setExporting(true);
    try {
      const blob = await api.download(`/v1/visits/export?${queryOf(filters)}`);
      saveFile(blob, `visits-${filters.from || 'today'}.csv`);
    } catch {
      setFailed(true);
    } finally {
      setExporting(false);
    }
  };

  const time = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short', timeZone });
  const shownTime = (text: string | null) => (text ? time.format(new Date(text)) : '—');
  const kioskName = (checkinById: string | null) => {
    if (checkinById === null) return words.atDesk;
    const kiosk = kiosks.find((k) => k.checkinById === checkinById);
    return kiosk?.self ? words.thisKiosk : (kiosk?.name ?? `${words.kiosk} ${checkinById.slice(0, 8)}`);
  };
  const field = (key: keyof Filters) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [key]: event.target.value }),
  });

  return (
    <div className="directory">
      <form className="console-card directory-filters" onSubmit={submit} aria-label={words.filters}>
        <label>
          {words.from}
          <input type="date" {...field('from')} required />
        </label>
        <label>
          {words.to}
          <input type="date" {...field('to')} required />
        </label>
        <label className="directory-wide">
          {words.search}
          <input type="search" placeholder={words.searchHint} maxLength={200} {...field('search')} />
        </label>
        <label>
          {words.host}
          <select {...field('host')}>
            <option value="">{words.any}</option>
            {hosts.map((host) => (
              <option key={host.id} value={host.id}>
                {host.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {words.visitorType}
          <select {...field('visitorType')}>
            <option value="">{words.any}</option>
            {types.map((type) => (
              <option key={type.id} value={type.id}>
                {type.localizedName?.[lang] || type.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {words.status}
          <select {...field('status')}>
            <option value="">{words.any}</option>
            {states.map((state) => (
              <option key={state} value={state}>
                {words[state]}
              </option>
            ))}
          </select>
        </label>
        {isAdmin && kiosks.length > 0 ? (
          <label>
            {words.kiosk}
            <select {...field('kiosk')}>
              <option value="">{words.any}</option>
              {kiosks.map((kiosk) => (
                <option key={kiosk.checkinById} value={kiosk.checkinById}>
                  {kioskName(kiosk.checkinById)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="directory-actions">
          <button type="submit" className="btn btn-small">
            {words.show}
          </button>
          <button
            type="button"
            className="btn btn-small btn-secondary"
            onClick={() => void download()}
            disabled={exporting}
          >
            {exporting ? words.exporting : words.export}
          </button>
        </div>
      </form>

      {failed ? <p role="alert">{words.failed}</p> : null}
      <p role="status" className="directory-count">
        {loading && visits.length === 0 ? words.loading : visits.length === 0 ? words.none : words.shown(visits.length)}
      </p>

      {visits.length > 0 ? (
        <table className="console-table directory-table">
          <thead>
            <tr>
              <th scope="col">{words.photo}</th>
              <th scope="col">{words.visitor}</th>
              <th scope="col">{words.host}</th>
              <th scope="col">{words.checkin}</th>
              <th scope="col">{words.checkout}</th>
              <th scope="col">{words.status}</th>
              <th scope="col">{words.kiosk}</th>
              <th scope="col">{words.agreement}</th>
            </tr>
          </thead>
          <tbody>
            {visits.map((visit) => (
              <tr key={visit.id}>
                <td data-label={words.photo}>
                  {visit.pictureSignedUrl ? (
                    <img
                      className="directory-thumb"
                      src={visit.pictureSignedUrl}
                      alt={words.photoOf(visit.name ?? '')}
                      loading="lazy"
                      width={48}
                      height={48}
                    />
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label={words.visitor}>
                  <strong>{visit.name}</strong>
                  {visit.company ? <span className="directory-sub">{visit.company}</span> : null}
                </td>
                <td data-label={words.host}>{visit.host?.name ?? visit.customHostName ?? words.noHost}</td>
                <td data-label={words.checkin}>{shownTime(visit.checkinAt)}</td>
                <td data-label={words.checkout}>{shownTime(visit.checkoutAt)}</td>
                <td data-label={words.status}>
                  <span className={`directory-state directory-state-${stateOf(visit)}`}>{words[stateOf(visit)]}</span>
                </td>
                <td data-label={words.kiosk}>{kioskName(visit.checkinByIpadId)}</td>
                <td data-label={words.agreement}>
                  {visit.ndaSignedUrl ? (
                    <a href={visit.ndaSignedUrl} target="_blank" rel="noopener noreferrer">
                      {words.openAgreement}
                    </a>
                  ) : (
                    words.noAgreement
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      {cursor ? (
        <button
          type="button"
          className="btn btn-small directory-more"
          onClick={() => void read(cursor)}
          disabled={loading}
        >
          {loading ? words.loading : words.more}
        </button>
      ) : null}
    </div>
  );
}
