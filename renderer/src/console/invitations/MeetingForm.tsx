import { type FormEvent, useState } from 'react';
import { useConsole } from '../context.ts';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import type { HostChoice } from './csv.ts';
import { FormField, HostField } from './FormField.tsx';
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
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const set = (key: keyof typeof draft) => (value: string) => setDraft({ ...draft, [key]: value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
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
    } catch (error) {
      setProblem(words.problem(problemCode(error)));
    } finally {
      setBusy(false);
    }
  };
  const input = (key: 'title' | 'location' | 'start' | 'end', label: string, type = 'text') => (
    <FormField label={label}>
      {(control) => (
        <input
          {...control}
          type={type}
          required
          maxLength={500}
          value={draft[key]}
          onChange={(event) => set(key)(event.target.value)}
        />
      )}
    </FormField>
  );
  return (
    <form className="console-card invite-form" onSubmit={(event) => void submit(event)}>
      <h2>{words.inviteMeeting}</h2>
      {input('title', words.title)}
      {input('start', words.start, 'datetime-local')}
      {input('end', words.end, 'datetime-local')}
      {input('location', words.location)}
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
      <HostField label={words.host} hosts={props.hosts} value={draft.hostId} onChange={set('hostId')} />
      <label className="invite-check">
        <input type="checkbox" checked={sendInvitationEmail} onChange={(event) => setSend(event.target.checked)} />
        {words.sendEmail}
      </label>
      {problem && (
        <p role="alert" className="console-problem">
          {problem}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {words.createMeeting}
      </button>
    </form>
  );
}
