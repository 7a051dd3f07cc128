import { useShell } from '../context.ts';
import { Link } from '../Link.tsx';
import { useWords } from '../words.ts';
import { Outcome, PublicPage, useSignedIn, useSubmit } from './parts.tsx';
import { accountWords } from './words.ts';

/**
 * Signing in with an e-mailed link (`/console/link/:token`). The person presses Continue: a mail system that opens
 * links to scan them does not spend the link for them.
 */
export default function LinkSignIn() {
  const { api, params } = useShell();
  const words = useWords(accountWords);
  const signedIn = useSignedIn();
  const { busy, problem, submit } = useSubmit();
  const go = submit(async () => {
    await api.send('POST', '/v1/account/link-sign-in', { token: params.token });
    await signedIn();
    return undefined;
  });
  return (
    <PublicPage title={words.linkTitle}>
      <p>{words.linkIntro}</p>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void go()}>
        {words.continue}
      </button>
      <Outcome problem={problem} />
      <p>
        <Link to="/console/sign-in">{words.backToSignIn}</Link>
      </p>
    </PublicPage>
  );
}
