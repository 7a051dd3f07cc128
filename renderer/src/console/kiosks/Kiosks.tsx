import '../directory.css';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { ApiProblem } from '../../api.ts';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { kiosksWords } from './words.ts';

/** A kiosk device as `GET /v1/kiosks` answers it (docs/api.md, "Kiosks"). */
interface KioskEntry {
  deviceId: string;
  name: string | null;
  self: boolean;
  state: 'online' | 'offline' | 'paired' | 'standalone' | 'connecting';
  enrolledAt: string | null;
  lastSeenAt: string | null;
  pending: number | null;
  clockSkewMs: number | null;
  appVersion: string | null;
}

/** Kiosks report with their pulls, every few seconds: the list is read again this often while open. */
const refreshMs = 15_000;

/**
 * The company's kiosks (docs/console.md, "Kiosks"): each enrolled device with its last contact, sync state, what it
 * has not sent yet, its clock's offset and version; a standalone kiosk shows itself. An administrator enrols a new
 * kiosk by the code it shows (docs/sync.md, "Pairing").
 */
export default function Kiosks() {
  const { api, session, lang } = useConsole();
  const words = useWords(kiosksWords);
  const id = useId();
  const [kiosks, setKiosks] = useState<KioskEntry[]>();
  const [failed, setFailed] = useState(false);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; problem: boolean }>();

  const read = useCallback(async () => {
    try {
      setKiosks((await api.get<{ kiosks: KioskEntry[] }>('/v1/kiosks')).kiosks);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, [api]);

  useEffect(() => {
    void read();
    const timer = setInterval(() => void read(), refreshMs);
    return () => clearInterval(timer);
  }, [read]);

  const pair = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(undefined);
    try {
      const paired = await api.send<KioskEntry>('POST', '/v1/kiosks/pair', {
        code,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      setMessage({ text: words.paired_done(paired.name ?? paired.deviceId.slice(0, 8)), problem: false });
      setCode('');
      setName('');
      await read();
    } catch (error) {
      const type = error instanceof ApiProblem ? error.type : 'other';
      const text = type === 'INVALID_PAIRING_CODE' || type === 'TOO_MANY_REQUESTS' ? words[type] : words.other;
      setMessage({ text, problem: true });
    } finally {
      setBusy(false);
    }
  };

  const time = new Intl.DateTimeFormat(lang, {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: session.company.timeZone,
  });
  const shownTime = (text: string | null) => (text ? time.format(new Date(text)) : words.never);
  // The hub's clock minus the device's: positive, the device's clock is behind.
  const clock = (ms: number | null) =>
    ms === null ? words.unknown : ms >= 0 ? words.clockBehind(words.seconds(ms)) : words.clockAhead(words.seconds(-ms));

  return (
    <div className="directory">
      <p role="status" className="directory-count">
        {kiosks === undefined ? words.loading : kiosks.length === 0 ? words.none : ''}
      </p>
      {failed ? <p role="alert">{words.failed}</p> : null}
      {kiosks && kiosks.length > 0 ? (
        <table className="console-table directory-table">
          <thead>
            <tr>
              <th scope="col">{words.kiosk}</th>
              <th scope="col">{words.state}</th>
              <th scope="col">{words.lastContact}</th>
              <th scope="col">{words.pending}</th>
              <th scope="col">{words.clock}</th>
              <th scope="col">{words.version}</th>
              <th scope="col">{words.enrolled}</th>
            </tr>
          </thead>
          <tbody>
            {kiosks.map((kiosk) => (
              <tr key={kiosk.deviceId}>
                <td data-label={words.kiosk}>
                  <strong>{kiosk.self ? words.thisDevice : (kiosk.name ?? kiosk.deviceId.slice(0, 8))}</strong>
                  <span className="directory-sub">{kiosk.deviceId}</span>
                </td>
                <td data-label={words.state}>
                  <span className={`directory-state directory-state-${kiosk.state}`}>{words[kiosk.state]}</span>
                </td>
                <td data-label={words.lastContact}>{shownTime(kiosk.lastSeenAt)}</td>
                <td data-label={words.pending}>{kiosk.pending ?? words.unknown}</td>
                <td data-label={words.clock}>{clock(kiosk.clockSkewMs)}</td>
                <td data-label={words.version}>{kiosk.appVersion ?? words.unknown}</td>
                <td data-label={words.enrolled}>{shownTime(kiosk.enrolledAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      <form className="console-card directory-form" aria-labelledby={`${id}-title`} onSubmit={(e) => void pair(e)}>
        <h2 id={`${id}-title`}>{words.pairTitle}</h2>
        <p id={`${id}-hint`} className="directory-sub">
          {words.pairHint}
        </p>
        <label>
          {words.code}
          <input
            type="text"
            value={code}
            required
            maxLength={32}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            aria-describedby={`${id}-hint`}
            className="directory-code"
            onChange={(event) => setCode(event.target.value)}
          />
        </label>
        <label>
          {words.name}
          <input
            type="text"
            value={name}
            maxLength={100}
            placeholder={words.nameHint}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <p role={message?.problem ? 'alert' : 'status'}>{message?.text ?? ''}</p>
        <div className="directory-actions">
          <button type="submit" className="btn btn-small" disabled={busy}>
            {busy ? words.pairing : words.pair}
          </button>
        </div>
      </form>
    </div>
  );
}
