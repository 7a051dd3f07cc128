import { useCallback, useEffect, useState } from 'react';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { Field, NewPassword, Outcome, useSubmit } from './parts.tsx';
import { accountWords } from './words.ts';

interface SessionEntry {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  address: string | null;
}

/** A browser's name and system, enough to tell one's devices apart, from its User-Agent. */
function deviceOf(userAgent: string | null): string | undefined {
  if (!userAgent) return undefined;
  const browser = /(Edg|Firefox|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[1]?.replace('Edg', 'Edge');
  const system = /(Windows|Android|iPhone|iPad|Mac OS X|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  return [browser, system].filter(Boolean).join(' · ') || undefined;
}

/** The signed-in person's account: who they are, their password, and where they are signed in. */
export default function Account() {
  const { api, session, lang, refreshSession } = useConsole();
  const words = useWords(accountWords);
  const [current, setCurrent] = useState('');
  const [passwords, setPasswords] = useState<[string, string]>(['', '']);
  const change = useSubmit();
  const sessionsState = useSubmit();
  const [sessions, setSessions] = useState<SessionEntry[]>();

  const load = useCallback(async () => {
    setSessions((await api.get<{ sessions: SessionEntry[] }>('/v1/account/sessions')).sessions);
  }, [api]);
  useEffect(() => {
    void load().catch(() => setSessions([]));
  }, [load]);

  const when = (iso: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  const savePassword = change.submit(async () => {
    await api.send('PUT', '/v1/account/password', { currentPassword: current, newPassword: passwords[0] });
    setCurrent('');
    setPasswords(['', '']);
    await load();
    return words.changed;
  });
  const end = (id: string, isCurrent: boolean) =>
    sessionsState.submit(async () => {
      await api.send('DELETE', `/v1/account/sessions/${id}`);
      if (isCurrent) await refreshSession();
      else await load();
      return undefined;
    });
  const endOthers = sessionsState.submit(async () => {
    await api.send('DELETE', '/v1/account/sessions');
    await load();
    return words.signedOutOthers;
  });

  return (
    <>
      <section className="console-card" aria-labelledby="account-who">
        <h2 id="account-who">{session.account.name}</h2>
        <dl className="console-facts">
          <dt>{words.email}</dt>
          <dd>{session.account.email}</dd>
          <dt>{words.role}</dt>
          <dd>{words.roles(session.account.role)}</dd>
        </dl>
      </section>
      <section className="console-card" aria-labelledby="account-password">
        <h2 id="account-password">{words.changePassword}</h2>
        <form
          className="form account-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (passwords[0] !== passwords[1]) change.setProblem(words.mismatch);
            else void savePassword();
          }}
        >
          <Field
            label={words.currentPassword}
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={setCurrent}
          />
          <NewPassword value={passwords} onChange={setPasswords} />
          <button type="submit" className="btn btn-primary" disabled={change.busy}>
            {words.save}
          </button>
        </form>
        <Outcome
          problem={change.problem === words.invalidCredentials ? words.wrongCurrent : change.problem}
          done={change.done}
        />
      </section>
      <section className="console-card" aria-labelledby="account-sessions">
        <h2 id="account-sessions">{words.sessionsTitle}</h2>
        {sessions ? (
          <table className="console-table">
            <thead>
              <tr>
                <th scope="col">{words.device}</th>
                <th scope="col">{words.address}</th>
                <th scope="col">{words.lastSeen}</th>
                <th scope="col">{words.started}</th>
                <th scope="col">
                  <span className="sr-only">{words.signOutSession}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((entry) => (
                <tr key={entry.id}>
                  <td data-label={words.device}>
                    {deviceOf(entry.userAgent) ?? words.unknownDevice}
                    {entry.current ? <strong> ({words.thisDevice})</strong> : null}
                  </td>
                  <td data-label={words.address}>{entry.address ?? '—'}</td>
                  <td data-label={words.lastSeen}>{when(entry.lastSeenAt)}</td>
                  <td data-label={words.started}>{when(entry.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small"
                      disabled={sessionsState.busy}
                      onClick={() => void end(entry.id, entry.current)()}
                    >
                      {words.signOutSession}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <p>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={sessionsState.busy || (sessions?.length ?? 0) < 2}
            onClick={() => void endOthers()}
          >
            {words.signOutOthers}
          </button>
        </p>
        <Outcome problem={sessionsState.problem} done={sessionsState.done} />
      </section>
    </>
  );
}
