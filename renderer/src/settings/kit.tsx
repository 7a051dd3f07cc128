import './settings.css';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, Notice } from '../components/ui.tsx';
import { problemText } from '../problems.ts';

/**
 * An action of the front desk or a settings editor with its outcome in words: `run` takes work that answers the
 * sentence to show on success (or nothing); a failure shows the API's error in the current language.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'error' | 'success'; text: string }>();
  const run = async (work: () => Promise<string | undefined>) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const text = await work();
      if (text) setOutcome({ kind: 'success', text });
    } catch (error) {
      setOutcome({ kind: 'error', text: problemText(error) });
    } finally {
      setBusy(false);
    }
  };
  const notice = outcome ? <Notice kind={outcome.kind}>{outcome.text}</Notice> : null;
  return { busy, notice, run };
}

/** A button acting on one row of a list: it shows its action, and says whom it acts on to a screen reader. */
export function RowAction(props: {
  label: string;
  name: string | null | undefined;
  onClick: () => void;
  disabled: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={`btn ${props.className ?? 'btn-small'}`}
      disabled={props.disabled}
      aria-label={`${props.label}: ${props.name ?? ''}`}
      onClick={props.onClick}
    >
      {props.label}
    </button>
  );
}

export function TextInput(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  optional?: boolean;
  maxLength?: number;
}) {
  return (
    <Field label={props.label} optional={props.optional}>
      {(control) => (
        <input
          {...control}
          type={props.type ?? 'text'}
          autoComplete="off"
          spellCheck={false}
          maxLength={props.maxLength ?? 500}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** The keys of a form's draft whose values are text. */
type TextKeys<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D];

/**
 * The text fields of a form kept as one draft object: `field(key, label)` is a TextInput showing `draft[key]` and
 * writing it back; optional unless `required`.
 */
export function draftTextFields<D extends object>(draft: D, setDraft: (next: D) => void) {
  return (key: TextKeys<D>, label: string, field: { type?: string; required?: boolean; maxLength?: number } = {}) => (
    <TextInput
      label={label}
      type={field.type}
      optional={!field.required}
      maxLength={field.maxLength}
      value={draft[key] as string}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
    />
  );
}

export function Select<V extends string>(props: {
  label: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <Field label={props.label}>
      {(control) => (
        <select {...control} value={props.value} onChange={(e) => props.onChange(e.target.value as V)}>
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Check(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="choice">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <span>{props.label}</span>
    </label>
  );
}

/** A settings section: a form with its fields, its Save button and what saving said. */
export function Section(props: {
  title: string;
  children: ReactNode;
  onSave?: () => void;
  saveLabel?: string;
  busy?: boolean;
  notice?: ReactNode;
}) {
  return (
    <section className="fd-section">
      <h2>{props.title}</h2>
      <form
        className="form"
        // The service checks what is typed and says what is wrong in the kiosk's language; the browser's own
        // bubbles would speak the system's language instead.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          props.onSave?.();
        }}
      >
        {props.children}
        {props.onSave && (
          <button type="submit" className="btn btn-primary" disabled={props.busy}>
            {props.saveLabel}
          </button>
        )}
        {props.notice}
      </form>
    </section>
  );
}

/**
 * A secret the page never reads back (a password, a key): it shows only whether one is stored; what is typed
 * replaces it on save, an empty field keeps it, and "Remove" (where offered) clears it.
 */
export function SecretField(props: {
  label: string;
  stored: boolean;
  value: string;
  onChange: (value: string) => void;
  onRemove?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="secret-field">
      <TextInput
        label={`${props.label} (${props.stored ? t('secrets.stored') : t('secrets.none')})`}
        type="password"
        optional
        value={props.value}
        onChange={props.onChange}
      />
      {props.stored && props.onRemove && (
        <button type="button" className="btn btn-small btn-secondary" onClick={props.onRemove}>
          {t('secrets.remove', { name: props.label })}
        </button>
      )}
    </div>
  );
}

/**
 * The write-only secrets of a settings form: what staff typed (sent only when not empty), and whether each is
 * stored (all the page ever learns of a stored one). `field` draws one; `saved` records a save's outcome.
 */
export function useSecrets<K extends string>(keys: readonly K[], onRemove: (key: K) => void) {
  const none = () => Object.fromEntries(keys.map((key) => [key, ''])) as Record<K, string>;
  const [typed, setTyped] = useState<Record<K, string>>(none);
  const [stored, setStored] = useState<Record<K, boolean>>(
    () => Object.fromEntries(keys.map((key) => [key, false])) as Record<K, boolean>,
  );
  /** The secrets to send: those typed, and '' for the one being removed. */
  const toSend = (removing?: K) => ({
    ...Object.fromEntries(Object.entries(typed).filter(([, value]) => value !== '')),
    ...(removing ? { [removing]: '' } : {}),
  });
  const saved = (removing?: K) => {
    setStored(
      Object.fromEntries(keys.map((key) => [key, key !== removing && (stored[key] || typed[key] !== '')])) as Record<
        K,
        boolean
      >,
    );
    setTyped(none());
  };
  const field = (key: K, label: string) => (
    <SecretField
      label={label}
      stored={stored[key]}
      value={typed[key]}
      onChange={(value) => setTyped({ ...typed, [key]: value })}
      onRemove={() => onRemove(key)}
    />
  );
  return { toSend, saved, setStored, field };
}
