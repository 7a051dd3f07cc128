import { useEffect, useState } from 'react';
import { useShell } from '../context.ts';
import { Link } from '../Link.tsx';
import { useWords } from '../words.ts';
import { Field, Outcome, PublicPage, useSignedIn, useSubmit } from './parts.tsx';
import { accountWords } from './words.ts';

/** What `GET /v1/account/sign-in-options` answers: how the company signs in, and whether to offer the first admin. */
export interface SignInOptions {
  company: { id: string; name: string } | null;
  signIn: 'password' | 'link';
  oidc: { name: string } | null;
  firstAdmin: boolean;
}

/** The company the address names (`?company=`), for a service of several companies (a hub). */
export const companyAsked = () => new URLSearchParams(location.search).get('company') ?? undefined;

/** `?company=<id>` to carry the company along to another signed-out page. */
export const companyQuery = (company: string | undefined) => (company ? `?company=${encodeURIComponent(company)}` : '');

/**
 * Signing in (docs/console.md, "Signing in and accounts"): with an e-mail and password, or a link e-mailed each time
 * where the company prefers it, or the company's single sign-on; and, on a fresh device, the way to its first
 * administrator account.
 */
export default function SignIn() {
  const { api } = useShell();
  const words = useWords(accountWords);
  const signedIn = useSignedIn();
  const company = companyAsked();
  // Back from single sign-on that signed no one in (accounts/oidc.ts says why in the log).
  const ssoFailed = new URLSearchParams(location.search).get('sso') === 'failed';
  const [options, setOptions] = useState<SignInOptions>();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, problem, done, submit } = useSubmit();

  useEffect(() => {
    api
      .get<SignInOptions>(`/v1/account/sign-in-options${companyQuery(company)}`)
      .then(setOptions)
      .catch(() => setOptions({ company: null, signIn: 'password', oidc: null, firstAdmin: false }));
  }, [api, company]);

  const companyId = options?.company?.id;
  const byPassword = submit(async () => {
    await api.send('POST', '/v1/account/sign-in', { email, password, ...(companyId ? { companyId } : {}) });
    await signedIn();
    return undefined;
  });
  const byLink = submit(async () => {
    await api.send('POST', '/v1/account/sign-in-link', { email, ...(companyId ? { companyId } : {}) });
    return words.linkSent;
  });

  const title = options?.company ? words.signInTo(options.company.name) : words.signInTitle;
  return (
    <PublicPage title={title}>
      {options === undefined ? null : (
        <>
          {options.firstAdmin ? (
            <p className="notice notice-info">
              {words.firstAdminOffer} <Link to="/console/first-admin">{words.firstAdminLink}</Link>
            </p>
          ) : null}
          {options.signIn === 'password' ? (
            <form className="form" onSubmit={byPassword}>
              <Field label={words.email} type="email" autoComplete="username" value={email} onChange={setEmail} />
              <Field
                label={words.password}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={setPassword}
              />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {busy ? words.signingIn : words.signIn}
              </button>
              <Link to={`/console/reset${companyQuery(companyId)}`}>{words.forgot}</Link>
            </form>
          ) : (
            <form className="form" onSubmit={byLink}>
              <Field label={words.email} type="email" autoComplete="username" value={email} onChange={setEmail} />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {words.emailLink}
              </button>
            </form>
          )}
          <Outcome problem={problem ?? (ssoFailed ? words.ssoFailed : undefined)} done={done} />
          {options.oidc && companyId ? (
            <p className="console-sso">
              <span>{words.or}</span>
              <a className="btn btn-secondary" href={`/v1/account/oidc/start?company=${encodeURIComponent(companyId)}`}>
                {words.signInWith(options.oidc.name)}
              </a>
            </p>
          ) : null}
        </>
      )}
    </PublicPage>
  );
}
