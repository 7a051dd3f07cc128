import { type FormEvent, useId, useState } from 'react';
import { ApiProblem } from '../../api.ts';
import { useConsole } from '../context.ts';
import { personRoles } from '../session.ts';
import { useWords } from '../words.ts';
import { hostsWords } from './words.ts';

/** A host as the directory shows it (docs/api.md, "Hosts"). */
export interface HostEntry {
  id: string;
  name: string;
  email: string;
  role: (typeof personRoles)[number];
  isActive: boolean;
  phone: string | null;
  countryCode: string | null;
  position: string | null;
  sector: string | null;
  sendInvitationEmail: boolean;
}

/** A problem of a host's write, in words: its code's, or the field it names. */
export function problemWords(words: (typeof hostsWords)['en'], error: unknown): string {
  if (!(error instanceof ApiProblem)) return words.problem('other');
  const field = typeof error.extra.field === 'string' ? error.extra.field : undefined;
  return error.type === 'INVALID_PARAMETER' && field ? words.invalidField(field) : words.problem(error.type);
}

const blank = { name: '', email: '', role: 'HOST', phone: '', countryCode: '', position: '', sector: '' };

/** Adding a host (with its account invitation if asked), or editing one: its e-mail stays. */
export function HostForm(props: { host?: HostEntry; onDone: (saved: HostEntry | undefined) => void }) {
  const { api } = useConsole();
  const words = useWords(hostsWords);
  const id = useId();
  const editing = props.host;
  const [draft, setDraft] = useState(() =>
    editing
      ? {
          name: editing.name,
          email: editing.email,
          role: editing.role,
          phone: editing.phone ?? '',
          countryCode: editing.countryCode ?? '',
          position: editing.position ?? '',
          sector: editing.sector ?? '',
        }
      : blank,
  );
  const [active, setActive] = useState(editing?.isActive ?? true);
  const [invite, setInvite] = useState(true);
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setProblem(undefined);
    const text = (value: string) => value.trim() || null;
    const body = {
      name: draft.name.trim(),
      role: draft.role,
      phone: text(draft.phone),
      countryCode: text(draft.countryCode),
      position: text(draft.position),
      sector: text(draft.sector),
      isActive: active,
    };
    try {
      const saved = editing
        ? await api.send<HostEntry>('PATCH', `/v1/host/${editing.id}`, body)
        : await api.send<HostEntry>('POST', '/v1/hosts', {
            ...body,
            email: draft.email.trim(),
            sendInvitationEmail: invite,
          });
      props.onDone(saved);
    } catch (error) {
      setProblem(problemWords(words, error));
    } finally {
      setSaving(false);
    }
  };

  const input = (key: keyof typeof blank, label: string, type = 'text', required = false) => (
    <label>
      {label}
      <input
        type={type}
        value={draft[key]}
        required={required}
        disabled={key === 'email' && editing !== undefined}
        onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
      />
    </label>
  );

  return (
    <form
      className="console-card directory-form"
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void submit(event)}
    >
      <h2 id={`${id}-title`}>{editing ? words.editOf(editing.name) : words.add}</h2>
      {input('name', words.name, 'text', true)}
      {input('email', words.email, 'email', true)}
      <label>
        {words.role}
        <select value={draft.role} onChange={(event) => setDraft({ ...draft, role: event.target.value })}>
          {personRoles.map((role) => (
            <option key={role} value={role}>
              {words[role]}
            </option>
          ))}
        </select>
      </label>
      {input('phone', words.phone, 'tel')}
      {input('countryCode', words.countryCode)}
      {input('position', words.position)}
      {input('sector', words.sector)}
      <label className="directory-check">
        <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
        {words.active}
      </label>
      {editing ? null : (
        <label className="directory-check">
          <input type="checkbox" checked={invite} onChange={(event) => setInvite(event.target.checked)} />
          {words.sendInvitation}
        </label>
      )}
      {problem ? <p role="alert">{problem}</p> : null}
      <div className="directory-actions">
        <button type="submit" className="btn btn-small" disabled={saving}>
          {words.save}
        </button>
        <button type="button" className="btn btn-small btn-secondary" onClick={() => props.onDone(undefined)}>
          {words.cancel}
        </button>
      </div>
    </form>
  );
}
