import { useState } from 'react';
import { useShell } from '../context.ts';
import { Link } from '../Link.tsx';
import { useWords } from '../words.ts';
import { Field, Outcome, PublicPage, useSubmit } from './parts.tsx';
import { companyAsked, companyQuery } from './SignIn.tsx';
import { accountWords } from './words.ts';

/** Asking for a password-reset link: the service answers the same whatever the address, and so does the page. */
export default function ResetRequest() {
  const { api } = useShell();
  const words = useWords(accountWords);
  const company = companyAsked();
  const [email, setEmail] = useState('');
  const { busy, problem, done, submit } = useSubmit();
  const send = submit(async () => {
    await api.send('POST', '/v1/account/password-reset', { email, ...(company ? { companyId: company } : {}) });
    return words.resetSent;
  });
  return (
    <PublicPage title={words.resetTitle}>
      <p>{words.resetIntro}</p>
      <form className="form" onSubmit={send}>
        <Field label={words.email} type="email" autoComplete="username" value={email} onChange={setEmail} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {words.sendReset}
        </button>
      </form>
      <Outcome problem={problem} done={done} />
      <p>
        <Link to={`/console/sign-in${companyQuery(company)}`}>{words.backToSignIn}</Link>
      </p>
    </PublicPage>
  );
}
