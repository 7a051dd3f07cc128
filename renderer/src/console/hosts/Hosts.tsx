import '../directory.css';
import { useCallback, useEffect, useId, useState } from 'react';
import { useConsole } from '../context.ts';
import { useLive } from '../live.ts';
import { useWords } from '../words.ts';
import { type HostEntry, HostForm, problemWords } from './HostForm.tsx';
import { HostImport } from './HostImport.tsx';
import { hostsWords } from './words.ts';

type AccountState = 'none' | 'invited' | 'active';

/** The service's pages of hosts: its largest, until one comes back short. */
const hostPage = 1000;

/**
 * The host directory (docs/console.md, "Hosts"): searched as one types; an administrator adds, edits, deactivates,
 * sends or resends a person's account invitation (or hands over its link) and imports a spreadsheet. The other
 * roles that see the page read it.
 */
export default function Hosts() {
  const { api, session } = useConsole();
  const words = useWords(hostsWords);
  const isAdmin = session.account.role === 'ADMIN';
  const searchId = useId();
  const [hosts, setHosts] = useState<HostEntry[]>([]);
  const [accounts, setAccounts] = useState<Map<string, AccountState>>(new Map());
  const [search, setSearch] = useState('');
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<HostEntry | 'new'>();
  const [notice, setNotice] = useState<string>();
  const [link, setLink] = useState<{ name: string; url: string }>();

  const read = useCallback(async () => {
    setFailed(false);
    try {
      const all: HostEntry[] = [];
      for (let offset = 0; ; offset += hostPage) {
        const page = await api.get<{ hosts: HostEntry[] }>(`/v1/hosts?limit=${hostPage}&offset=${offset}`);
        all.push(...page.hosts);
        if (page.hosts.length < hostPage) break;
      }
      setHosts(all.sort((a, b) => a.name.localeCompare(b.name)));
      // A service without accounts (an older one) shows no account state.
      const states = await api.optional<{ accounts: { hostId: string; state: AccountState }[] }>('/v1/accounts');
      setAccounts(new Map((states?.accounts ?? []).map((account) => [account.hostId, account.state])));
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [api]);

  useEffect(() => {
    void read();
  }, [read]);
  useLive((topics) => {
    if (topics.length === 0 || topics.some((topic) => topic.startsWith('host'))) void read();
  });

  const act = async (host: HostEntry, change: Record<string, unknown>, done: string) => {
    setNotice(undefined);
    try {
      await api.send('PATCH', `/v1/host/${host.id}`, change);
      setNotice(done);
      await read();
    } catch (error) {
      setNotice(problemWords(words, error));
    }
  };

  const showLink = async (host: HostEntry) => {
    setNotice(undefined);
    try {
      const made = await api.send<{ url: string | null; path: string }>('POST', `/v1/host/${host.id}/account-link`);
      setLink({ name: host.name, url: made.url ?? new URL(made.path, location.origin).href });
    } catch (error) {
      setNotice(problemWords(words, error));
    }
  };

  const needle = search.trim().toLowerCase();
  const shown = needle
    ? hosts.filter((host) =>
        [host.name, host.email, host.position, host.sector].some((text) => text?.toLowerCase().includes(needle)),
      )
    : hosts;
  const stateOf = (host: HostEntry): AccountState => accounts.get(host.id) ?? 'none';
  const stateWords = { none: words.accountNone, invited: words.accountInvited, active: words.accountActive };

  return (
    <div className="directory">
      {isAdmin ? null : <p>{words.readOnly}</p>}
      <div className="directory-toolbar">
        <label htmlFor={searchId}>{words.search}</label>
        <input
          id={searchId}
          type="search"
          placeholder={words.searchHint}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        {isAdmin ? (
          <button type="button" className="btn btn-small" onClick={() => setEditing('new')}>
            {words.add}
          </button>
        ) : null}
      </div>

      {editing ? (
        <HostForm
          host={editing === 'new' ? undefined : editing}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) {
              setNotice(words.saved);
              void read();
            }
          }}
        />
      ) : null}
      {link ? (
        <div className="console-card">
          <label>
            {words.linkOf(link.name)}
            <input type="text" readOnly value={link.url} onFocus={(event) => event.target.select()} />
          </label>
          <p className="directory-sub">{words.linkNote}</p>
        </div>
      ) : null}

      <p role="status" className="directory-count">
        {notice ?? (loading ? words.loading : words.count(shown.length, hosts.length))}
      </p>
      {failed ? <p role="alert">{words.failed}</p> : null}

      {shown.length > 0 ? (
        <table className="console-table directory-table">
          <thead>
            <tr>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.email}</th>
              <th scope="col">{words.role}</th>
              <th scope="col">{words.sector}</th>
              <th scope="col">{words.active}</th>
              <th scope="col">{words.account}</th>
              {isAdmin ? <th scope="col">{words.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((host) => (
              <tr key={host.id}>
                <td data-label={words.name}>
                  <strong>{host.name}</strong>
                  {host.position ? <span className="directory-sub">{host.position}</span> : null}
                </td>
                <td data-label={words.email}>{host.email}</td>
                <td data-label={words.role}>{words[host.role]}</td>
                <td data-label={words.sector}>{host.sector ?? '—'}</td>
                <td data-label={words.active}>{host.isActive ? words.yes : words.no}</td>
                <td data-label={words.account}>{stateWords[stateOf(host)]}</td>
                {isAdmin ? (
                  <td data-label={words.actions}>
                    <div className="directory-row-actions">
                      <button
                        type="button"
                        className="btn btn-small btn-secondary"
                        aria-label={words.editOf(host.name)}
                        onClick={() => setEditing(host)}
                      >
                        {words.edit}
                      </button>
                      <button
                        type="button"
                        className="btn btn-small btn-secondary"
                        onClick={() => void act(host, { isActive: !host.isActive }, words.saved)}
                      >
                        {host.isActive ? words.deactivate : words.activate}
                      </button>
                      {host.isActive && stateOf(host) !== 'active' ? (
                        <>
                          <button
                            type="button"
                            className="btn btn-small btn-secondary"
                            onClick={() =>
                              void act(
                                host,
                                stateOf(host) === 'none' && !host.sendInvitationEmail
                                  ? { sendInvitationEmail: true }
                                  : { resendInvitationEmail: true },
                                words.invited(host.name),
                              )
                            }
                          >
                            {stateOf(host) === 'none' && !host.sendInvitationEmail ? words.invite : words.resend}
                          </button>
                          <button
                            type="button"
                            className="btn btn-small btn-secondary"
                            onClick={() => void showLink(host)}
                          >
                            {words.link}
                          </button>
                        </>
                      ) : null}
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}

      {isAdmin ? <HostImport onImported={() => void read()} /> : null}
    </div>
  );
}
