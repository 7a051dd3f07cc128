import { useState } from 'react';
import { useShell } from '../context.ts';
import { Link } from '../Link.tsx';
import { useLocation } from '../router.ts';
import { useWords } from '../words.ts';
import { NewPassword, Outcome, PublicPage, useSignedIn, useSubmit } from './parts.tsx';
import { accountWords } from './words.ts';

/**
 * A password set from an e-mailed link: the first one (`/console/welcome/:token`) or a new one after a reset
 * (`/console/reset/:token`). The service spends the link and signs the person in.
 */
export default function SetPassword() {
  const { api, params } = useShell();
  const { path } = useLocation();
  const words = useWords(accountWords);
  const signedIn = useSignedIn();
  const welcome = path.startsWith('/console/welcome/');
  const [passwords, setPasswords] = useState<[string, string]>(['', '']);
  const { busy, problem, setProblem, submit } = useSubmit();
  const save = submit(async () => {
    await api.send('POST', '/v1/account/set-password', { token: params.token, password: passwords[0] });
    await signedIn();
    return undefined;
  });
  return (
    <PublicPage title={welcome ? words.welcomeTitle : words.newPasswordTitle}>
      <p>{welcome ? words.welcomeIntro : words.newPasswordIntro}</p>
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (passwords[0] !== passwords[1]) setProblem(words.mismatch);
          else void save();
        }}
      >
        <NewPassword value={passwords} onChange={setPasswords} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {words.savePassword}
        </button>
      </form>
      <Outcome problem={problem} />
      <p>
        <Link to="/console/sign-in">{words.backToSignIn}</Link>
      </p>
    </PublicPage>
  );
}
