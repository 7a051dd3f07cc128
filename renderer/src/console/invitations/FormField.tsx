import { type ReactNode, useId } from 'react';

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

/** The host a form invites for: a choice for those who invite for anyone, else the person themselves. */
export function HostField(props: {
  label: string;
  hosts: readonly { id: string; name: string }[] | undefined;
  value: string;
  onChange: (hostId: string) => void;
}) {
  if (!props.hosts) return null;
  return (
    <FormField label={props.label}>
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
