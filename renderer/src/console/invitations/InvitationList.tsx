import { useCallback, useState } from 'react';
import { dateAndTime, dayIn } from '../../time.ts';
import type { Invitee } from '../../types.ts';
import { useConsole } from '../context.ts';
import { useLiveLoad } from '../live-load.ts';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import { InputField } from './FormField.tsx';
import { localInput, startOfDay } from './when.ts';
import { invitationsWords } from './words.ts';

type Listed = Invitee & { email?: string | null };

/** A button acting on one invitation: it says whom it acts on to a screen reader. */
function RowButton(props: { label: string; name: string; disabled: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="btn btn-small btn-secondary"
      disabled={props.disabled}
      aria-label={`${props.label}: ${props.name}`}
      onClick={props.onClick}
    >
      {props.label}
    </button>
  );
}

/** A page of the list: enough for a phone's screen and a desk's. */
const pageSize = 25;

/**
 * The invitations from a day on, by expected time, a page at a time (GET /v1/invitees by `expectedAt`): who
 * arrived, and for those still expected, resend, reschedule and cancel. A host's session lists their own guests
 * (the service scopes the list). It follows the company live.
 */
export function InvitationList(props: { onOutcome: (sentence: string, failed: boolean) => void }) {
  const { api, lang, session } = useConsole();
  const words = useWords(invitationsWords);
  const timeZone = session.company.timeZone;
  const [from, setFrom] = useState(() => dayIn(timeZone, new Date()));
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<{ id: string; expected: string }>();
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const since = Math.floor(startOfDay(timeZone, from) / 1000);
    const query = new URLSearchParams({
      queryKey: 'expectedAt',
      queryOp: '>=',
      queryValue: String(since),
      // One more than the page: whether there is a next one.
      limit: String(pageSize + 1),
      offset: String(offset),
    });
    return (await api.get<{ invitees: Listed[] }>(`/v1/invitees?${query.toString()}`)).invitees;
  }, [api, timeZone, from, offset]);
  const { value, problem, reload } = useLiveLoad(load, ['invitees', 'visits', 'meetings']);
  const act = async (work: () => Promise<unknown>, sentence: string) => {
    setBusy(true);
    try {
      await work();
      props.onOutcome(sentence, false);
      setEditing(undefined);
      await reload();
    } catch (error) {
      props.onOutcome(words.problem(problemCode(error)), true);
    } finally {
      setBusy(false);
    }
  };
  const invitees = value?.slice(0, pageSize) ?? [];
  return (
    <section aria-labelledby="invitations-list">
      <h2 id="invitations-list">{words.list}</h2>
      <div className="invite-list-bar">
        <InputField
          label={words.from}
          type="date"
          value={from}
          onChange={(day) => {
            if (!day) return;
            setFrom(day);
            setOffset(0);
          }}
        />
      </div>
      {problem !== undefined && (
        <p role="alert" className="console-problem">
          {words.problem(problemCode(problem))}
        </p>
      )}
      {value === undefined && problem === undefined && <p>{words.loading}</p>}
      {value && invitees.length === 0 && <p>{words.empty}</p>}
      {invitees.length > 0 && (
        <table className="console-table invite-list">
          <thead>
            <tr>
              <th scope="col">{words.when}</th>
              <th scope="col">{words.name}</th>
              <th scope="col">{words.host}</th>
              <th scope="col">{words.status}</th>
              <th scope="col">{words.actions}</th>
            </tr>
          </thead>
          <tbody>
            {invitees.map((invitee) => {
              const name = invitee.name ?? '';
              return (
                <tr key={invitee.id}>
                  <td data-label={words.when}>{dateAndTime(lang, timeZone, invitee.expectedAt)}</td>
                  <td data-label={words.name}>{name}</td>
                  <td data-label={words.host}>{invitee.host?.name ?? words.noHost}</td>
                  <td data-label={words.status}>
                    <span className={`invite-status invite-status-${invitee.status}`}>{words[invitee.status]}</span>
                  </td>
                  <td data-label={words.actions}>
                    {invitee.status === 'confirmed' && editing?.id !== invitee.id && (
                      <div className="invite-actions">
                        {invitee.email && (
                          <RowButton
                            label={words.resend}
                            name={name}
                            disabled={busy}
                            onClick={() =>
                              void act(() => api.send('POST', `/v1/invitee/${invitee.id}/resend`), words.resent(name))
                            }
                          />
                        )}
                        <RowButton
                          label={words.reschedule}
                          name={name}
                          disabled={busy}
                          onClick={() =>
                            setEditing({ id: invitee.id, expected: localInput(timeZone, new Date(invitee.expectedAt)) })
                          }
                        />
                        <RowButton
                          label={words.cancel}
                          name={name}
                          disabled={busy}
                          onClick={() =>
                            void act(
                              () => api.send('PATCH', `/v1/invitee/${invitee.id}`, { status: 'canceled' }),
                              words.canceledName(name),
                            )
                          }
                        />
                      </div>
                    )}
                    {editing?.id === invitee.id && (
                      <form
                        className="invite-actions"
                        onSubmit={(event) => {
                          event.preventDefault();
                          void act(
                            () => api.send('PATCH', `/v1/invitee/${invitee.id}`, { expectedAt: editing.expected }),
                            words.rescheduled(name),
                          );
                        }}
                      >
                        <InputField
                          label={words.newTime(name)}
                          type="datetime-local"
                          required
                          value={editing.expected}
                          onChange={(expected) => setEditing({ ...editing, expected })}
                        />
                        <button type="submit" className="btn btn-small btn-primary" disabled={busy}>
                          {words.save}
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-secondary"
                          onClick={() => setEditing(undefined)}
                        >
                          {words.keep}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {(offset > 0 || (value?.length ?? 0) > pageSize) && (
        <nav className="invite-pages" aria-label={words.showing(offset + 1, offset + invitees.length)}>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - pageSize))}
          >
            {words.previous}
          </button>
          <span>{words.showing(offset + 1, offset + invitees.length)}</span>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={(value?.length ?? 0) <= pageSize}
            onClick={() => setOffset(offset + pageSize)}
          >
            {words.next}
          </button>
        </nav>
      )}
    </section>
  );
}
