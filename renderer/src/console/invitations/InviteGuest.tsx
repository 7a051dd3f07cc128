import { type FormEvent, useState } from 'react';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import type { HostChoice } from './csv.ts';
import { HostField, InputField, SendEmailCheck, useFormAction } from './FormField.tsx';
import { localInput, nextHour } from './when.ts';
import { invitationsWords } from './words.ts';

/** One guest invited (POST /v1/invitees): name, a way to reach them, when, and for whom. */
export function InviteGuest(props: { hosts: readonly HostChoice[] | undefined; onDone: (sentence: string) => void }) {
  const { api, session } = useConsole();
  const words = useWords(invitationsWords);
  const [draft, setDraft] = useState({
    name: '',
    email: '',
    phone: '',
    company: '',
    expected: localInput(session.company.timeZone, nextHour(new Date())),
    hostId: props.hosts?.[0]?.id ?? session.account.hostId,
  });
  const [sendInvitationEmail, setSend] = useState(true);
  const { busy, run, problemLine } = useFormAction();
  const set = (key: keyof typeof draft) => (value: string) => setDraft({ ...draft, [key]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api.send('POST', '/v1/invitees', {
        name: draft.name,
        ...(draft.email ? { email: draft.email } : {}),
        ...(draft.phone ? { phone: draft.phone } : {}),
        ...(draft.company ? { company: draft.company } : {}),
        expectedAt: draft.expected,
        hostId: props.hosts ? draft.hostId : session.account.hostId,
        sendInvitationEmail,
      });
      props.onDone(words.invited(draft.name));
      setDraft({ ...draft, name: '', email: '', phone: '', company: '' });
    });
  };
  return (
    <form className="console-card invite-form" onSubmit={submit}>
      <h2>{words.inviteOne}</h2>
      <InputField label={words.name} required value={draft.name} onChange={set('name')} />
      <InputField label={words.email} type="email" hint={words.reachHint} value={draft.email} onChange={set('email')} />
      <InputField label={`${words.phone} (${words.optional})`} type="tel" value={draft.phone} onChange={set('phone')} />
      <InputField label={`${words.company} (${words.optional})`} value={draft.company} onChange={set('company')} />
      <InputField
        label={words.expected}
        type="datetime-local"
        required
        value={draft.expected}
        onChange={set('expected')}
      />
      <HostField hosts={props.hosts} value={draft.hostId} onChange={set('hostId')} />
      <SendEmailCheck checked={sendInvitationEmail} onChange={setSend} />
      {problemLine}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {words.invite}
      </button>
    </form>
  );
}
