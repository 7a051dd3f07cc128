import { type FormEvent, useState } from 'react';
import { useConsole } from '../context.ts';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import type { HostChoice } from './csv.ts';
import { FormField, HostField } from './FormField.tsx';
import { localInput, nextHour } from './when.ts';
import { invitationsWords } from './words.ts';

/** One guest invited (POST /v1/invitees): name, a way to reach them, when, and for whom. */
export function InviteGuest(props: { hosts: readonly HostChoice[] | undefined; onDone: (sentence: string) => void }) {
  const { api, session } = useConsole();
  const words = useWords(invitationsWords);
  const timeZone = session.company.timeZone;
  const [draft, setDraft] = useState({
    name: '',
    email: '',
    phone: '',
    company: '',
    expected: localInput(timeZone, nextHour(new Date())),
    hostId: props.hosts?.[0]?.id ?? session.account.hostId,
    sendInvitationEmail: true,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const set = (key: 'name' | 'email' | 'phone' | 'company' | 'expected' | 'hostId') => (value: string) =>
    setDraft({ ...draft, [key]: value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await api.send('POST', '/v1/invitees', {
        name: draft.name,
        ...(draft.email ? { email: draft.email } : {}),
        ...(draft.phone ? { phone: draft.phone } : {}),
        ...(draft.company ? { company: draft.company } : {}),
        expectedAt: draft.expected,
        hostId: props.hosts ? draft.hostId : session.account.hostId,
        sendInvitationEmail: draft.sendInvitationEmail,
      });
      props.onDone(words.invited(draft.name));
      setDraft({ ...draft, name: '', email: '', phone: '', company: '' });
    } catch (error) {
      setProblem(words.problem(problemCode(error)));
    } finally {
      setBusy(false);
    }
  };
  const text = (key: 'name' | 'email' | 'phone' | 'company', label: string, type = 'text', hint?: string) => (
    <FormField label={label} hint={hint}>
      {(control) => (
        <input
          {...control}
          type={type}
          required={key === 'name'}
          autoComplete="off"
          maxLength={200}
          value={draft[key]}
          onChange={(event) => set(key)(event.target.value)}
        />
      )}
    </FormField>
  );
  return (
    <form className="console-card invite-form" onSubmit={(event) => void submit(event)}>
      <h2>{words.inviteOne}</h2>
      {text('name', words.name)}
      {text('email', words.email, 'email', words.reachHint)}
      {text('phone', `${words.phone} (${words.optional})`, 'tel')}
      {text('company', `${words.company} (${words.optional})`)}
      <FormField label={words.expected}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            required
            value={draft.expected}
            onChange={(event) => set('expected')(event.target.value)}
          />
        )}
      </FormField>
      <HostField label={words.host} hosts={props.hosts} value={draft.hostId} onChange={set('hostId')} />
      <label className="invite-check">
        <input
          type="checkbox"
          checked={draft.sendInvitationEmail}
          onChange={(event) => setDraft({ ...draft, sendInvitationEmail: event.target.checked })}
        />
        {words.sendEmail}
      </label>
      {problem && (
        <p role="alert" className="console-problem">
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {words.invite}
      </button>
    </form>
  );
}
