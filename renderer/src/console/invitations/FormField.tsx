import { type ReactNode, useCallback, useId, useState } from 'react';
import { problemCode } from '../problem-code.ts';
import { useWords } from '../words.ts';
import { invitationsWords } from './words.ts';

/** A labelled control of the page's forms, with its hint read with it. */
export function FormField(props: {
  label: string;
  hint?: string;
  children: (control: { id: string; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="invite-field">
      <label htmlFor={id}>{props.label}</label>
      {props.hint && (
        <p className="invite-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children({ id, 'aria-describedby': props.hint ? `${id}-hint` : undefined })}
    </div>
  );
}

/** A labelled input: text, e-mail, a phone, a date or a time (`datetime-local`, in the company's zone). */
export function InputField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel' | 'date' | 'datetime-local';
  hint?: string;
  required?: boolean;
}) {
  return (
    <FormField label={props.label} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          type={props.type ?? 'text'}
          required={props.required}
          autoComplete="off"
          maxLength={500}
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** The host a form invites for: a choice for those who invite for anyone, else the person themselves. */
export function HostField(props: {
  hosts: readonly { id: string; name: string }[] | undefined;
  value: string;
  onChange: (hostId: string) => void;
}) {
  const words = useWords(invitationsWords);
  if (!props.hosts) return null;
  return (
    <FormField label={words.host}>
      {(control) => (
        <select {...control} value={props.value} onChange={(event) => props.onChange(event.target.value)}>
          {props.hosts?.map((host) => (
            <option key={host.id} value={host.id}>
              {host.name}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** Whether the write sends the invitation e-mails (`sendInvitationEmail`, docs/api.md, "Invitation e-mails"). */
export function SendEmailCheck(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  const words = useWords(invitationsWords);
  return (
    <label className="invite-check">
      <input type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.target.checked)} />
      {words.sendEmail}
    </label>
  );
}

/** A form's call to the service: busy while it runs, and the service's refusal in words, announced. */
export function useFormAction() {
  const words = useWords(invitationsWords);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  // The same function while the language stays: a page's effect may run it.
  const run = useCallback(
    async (work: () => Promise<void>) => {
      setBusy(true);
      setProblem(undefined);
      try {
        await work();
      } catch (error) {
        setProblem(words.problem(problemCode(error)));
      } finally {
        setBusy(false);
      }
    },
    [words],
  );
  const problemLine = problem ? (
    <p role="alert" className="console-problem">
      {problem}
    </p>
  ) : null;
  return { busy, run, problemLine, setProblem };
}
