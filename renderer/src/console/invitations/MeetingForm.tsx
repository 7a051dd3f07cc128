import { type FormEvent, useState } from 'react';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import type { HostChoice } from './csv.ts';
import { FormField, HostField, InputField, SendEmailCheck, useFormAction } from './FormField.tsx';
import { localInput, nextHour } from './when.ts';
import { invitationsWords } from './words.ts';

/** A meeting with several guests (POST /v1/meetings): each guest's e-mail becomes an invitee of the meeting. */
export function MeetingForm(props: { hosts: readonly HostChoice[] | undefined; onDone: (sentence: string) => void }) {
  const { api, session } = useConsole();
  const words = useWords(invitationsWords);
  const timeZone = session.company.timeZone;
  const start = nextHour(new Date());
  const [draft, setDraft] = useState({
    title: '',
    location: '',
    guests: '',
    start: localInput(timeZone, start),
    end: localInput(timeZone, new Date(start.getTime() + 3_600_000)),
    hostId: props.hosts?.[0]?.id ?? session.account.hostId,
  });
  const [sendInvitationEmail, setSend] = useState(true);
  const { busy, run, problemLine } = useFormAction();
  const set = (key: keyof typeof draft) => (value: string) => setDraft({ ...draft, [key]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const meeting = await api.send<{ title: string; guests: string[] }>('POST', '/v1/meetings', {
        title: draft.title,
        location: draft.location,
        guests: draft.guests,
        start: draft.start,
        end: draft.end,
        type: 'MEETING',
        hostId: props.hosts ? draft.hostId : session.account.hostId,
        createdOn: 'DASHBOARD',
        sendInvitationEmail,
      });
      props.onDone(words.meetingCreated(meeting.title, meeting.guests.length));
      setDraft({ ...draft, title: '', location: '', guests: '' });
    });
  };
  return (
    <form className="console-card invite-form" onSubmit={submit}>
      <h2>{words.inviteMeeting}</h2>
      <InputField label={words.title} required value={draft.title} onChange={set('title')} />
      <InputField label={words.start} type="datetime-local" required value={draft.start} onChange={set('start')} />
      <InputField label={words.end} type="datetime-local" required value={draft.end} onChange={set('end')} />
      <InputField label={words.location} required value={draft.location} onChange={set('location')} />
      <FormField label={words.guests} hint={words.guestsHint}>
        {(control) => (
          <textarea
            {...control}
            rows={4}
            required
            value={draft.guests}
            onChange={(event) => set('guests')(event.target.value)}
          />
        )}
      </FormField>
      <HostField hosts={props.hosts} value={draft.hostId} onChange={set('hostId')} />
      <SendEmailCheck checked={sendInvitationEmail} onChange={setSend} />
      {problemLine}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {words.createMeeting}
      </button>
    </form>
  );
}
