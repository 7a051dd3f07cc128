import { useEffect, useState } from 'react';
import { useShell } from '../context.ts';
import { useWords } from '../words.ts';
import { Field, NewPassword, Outcome, PublicPage, useSignedIn, useSubmit } from './parts.tsx';
import type { SignInOptions } from './SignIn.tsx';
import { accountWords } from './words.ts';

/**
 * The first administrator of a fresh device's company, made on the device itself (docs/console.md, "The first
 * administrator"): offered only while the company has no account, and only to this machine.
 */
export default function FirstAdmin() {
  const { api } = useShell();
  const words = useWords(accountWords);
  const signedIn = useSignedIn();
  const [options, setOptions] = useState<SignInOptions>();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [passwords, setPasswords] = useState<[string, string]>(['', '']);
  const { busy, problem, setProblem, submit } = useSubmit();

  useEffect(() => {
    api
      .get<SignInOptions>('/v1/account/sign-in-options')
      .then(setOptions)
      .catch(() => setOptions({ company: null, signIn: 'password', oidc: null, firstAdmin: false }));
  }, [api]);

  const create = submit(async () => {
    await api.send('POST', '/v1/account/first-admin', { name, email, password: passwords[0] });
    await signedIn();
    return undefined;
  });
  if (!options) return null;
  if (!options.firstAdmin) {
    return (
      <PublicPage title={words.firstAdminTitle}>
        <p role="alert">{words.firstAdminUnavailable}</p>
      </PublicPage>
    );
  }
  return (
    <PublicPage title={words.firstAdminTitle}>
      <p>{options.company ? words.firstAdminIntro(options.company.name) : words.firstAdminIntroPlain}</p>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (passwords[0] !== passwords[1]) setProblem(words.mismatch);
          else void create();
        }}
      >
        <Field label={words.name} autoComplete="name" value={name} onChange={setName} />
        <Field label={words.email} type="email" autoComplete="username" value={email} onChange={setEmail} />
        <NewPassword value={passwords} onChange={setPasswords} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {words.create}
        </button>
      </form>
      <Outcome problem={problem} />
    </PublicPage>
  );
}
