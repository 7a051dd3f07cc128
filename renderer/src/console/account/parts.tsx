import './account.css';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ApiProblem, unreachable } from '../../api.ts';
import { useShell } from '../context.ts';
import { useWords } from '../words.ts';
import { accountWords, problemText } from './words.ts';

/** The state of a form sent to the service: busy while it goes, and what the service said when it refused. */
export function useSubmit() {
  const words = useWords(accountWords);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const submit = (work: () => Promise<string | undefined>) => async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setProblem(undefined);
    setDone(undefined);
    try {
      setDone(await work());
    } catch (error) {
      const type = error instanceof ApiProblem ? error.type : unreachable;
      setProblem(problemText(words, type, error instanceof ApiProblem ? error.extra : {}));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, done, setProblem, submit };
}

/** What the last attempt came to: the service's refusal, or what was done. */
export function Outcome(props: { problem: string | undefined; done?: string | undefined }) {
  if (props.problem) {
    return (
      <p className="notice notice-error" role="alert">
        {props.problem}
      </p>
    );
  }
  return props.done ? (
    <p className="notice notice-success" role="status">
      {props.done}
    </p>
  ) : null;
}

/** A labelled input. */
export function Field(props: {
  label: string;
  type?: string;
  value: string;
  onChange(value: string): void;
  autoComplete?: string;
  hint?: string;
  required?: boolean;
  placeholder?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required ?? true}
        autoComplete={props.autoComplete}
        placeholder={props.placeholder}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint ? (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      ) : null}
    </div>
  );
}

/** A new password, typed twice; `matches` says whether the two agree. */
export function NewPassword(props: { value: [string, string]; onChange(value: [string, string]): void }) {
  const words = useWords(accountWords);
  const [first, second] = props.value;
  return (
    <>
      <Field
        label={words.newPassword}
        type="password"
        autoComplete="new-password"
        value={first}
        hint={words.passwordHint}
        onChange={(value) => props.onChange([value, second])}
      />
      <Field
        label={words.repeatPassword}
        type="password"
        autoComplete="new-password"
        value={second}
        onChange={(value) => props.onChange([first, value])}
      />
    </>
  );
}

/** A signed-out page: its heading and its content. */
export function PublicPage(props: { title: string; children: ReactNode }) {
  return (
    <>
      <h1>{props.title}</h1>
      {props.children}
    </>
  );
}

/** After signing in: the session is read again, and the console goes where the person was going. */
export function useSignedIn() {
  const { refreshSession, navigate } = useShell();
  return async () => {
    await refreshSession();
    const next = new URLSearchParams(location.search).get('next');
    navigate(next?.startsWith('/console') ? next : '/console');
  };
}
