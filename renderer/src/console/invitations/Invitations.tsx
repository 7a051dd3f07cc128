import { useEffect, useState } from 'react';
import { listQuery } from '../../api.ts';
import { useConsole } from '../context.ts';
import type { PersonRole } from '../session.ts';
import { useWords } from '../words.ts';
import { CsvUpload } from './CsvUpload.tsx';
import type { HostChoice } from './csv.ts';
import { InvitationList } from './InvitationList.tsx';
import { InviteGuest } from './InviteGuest.tsx';
import { MeetingForm } from './MeetingForm.tsx';
import './invitations.css';
import { invitationsWords } from './words.ts';

/** Who invites for anyone; everyone else invites their own guests (docs/console.md, "Invitations"). */
const invitesForAnyone: readonly PersonRole[] = ['ADMIN', 'FRONTDESK'];

const forms = ['inviteOne', 'inviteMeeting', 'upload'] as const;
type FormName = (typeof forms)[number];

/**
 * Invitations (docs/console.md, "Invitations"): invite one guest, a meeting's guests, or a list from a CSV file
 * (previewed, then all or none); below, the invitations from a day on, with who arrived.
 */
export default function Invitations() {
  const { api, session } = useConsole();
  const words = useWords(invitationsWords);
  const [open, setOpen] = useState<FormName>('inviteOne');
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean }>();
  // The host directory, for those who invite for anyone; the others are the host of what they invite.
  const [hosts, setHosts] = useState<HostChoice[]>();
  const anyone = invitesForAnyone.includes(session.account.role);
  useEffect(() => {
    if (!anyone) return;
    api.get<{ hosts: HostChoice[] }>(`/v1/hosts${listQuery('isActive', '==', 'true')}`).then(
      (answer) => setHosts(answer.hosts.sort((a, b) => a.name.localeCompare(b.name))),
      () => setHosts(undefined),
    );
  }, [api, anyone]);
  const done = (text: string) => setOutcome({ text, failed: false });
  return (
    <div className="invitations">
      <fieldset className="invite-choices">
        <legend className="sr-only">{words.choose}</legend>
        {forms.map((form) => (
          <button
            key={form}
            type="button"
            className={`btn ${open === form ? 'btn-primary' : 'btn-secondary'}`}
            aria-pressed={open === form}
            onClick={() => setOpen(form)}
          >
            {words[form]}
          </button>
        ))}
      </fieldset>
      <p role="status" className={outcome?.failed ? 'console-problem' : 'console-outcome'}>
        {outcome?.text}
      </p>
      {/* The host list arrives after the first paint for those who choose a host: the form waits for it. */}
      {(!anyone || hosts) && (
        <>
          {open === 'inviteOne' && <InviteGuest hosts={hosts} onDone={done} />}
          {open === 'inviteMeeting' && <MeetingForm hosts={hosts} onDone={done} />}
          {open === 'upload' && <CsvUpload hosts={hosts} onDone={done} />}
        </>
      )}
      <InvitationList onOutcome={(text, failed) => setOutcome({ text, failed })} />
    </div>
  );
}
