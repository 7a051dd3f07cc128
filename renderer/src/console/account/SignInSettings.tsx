import { useEffect, useId, useState } from 'react';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { Field, Outcome, useSubmit } from './parts.tsx';
import { accountWords } from './words.ts';

/** `GET /v1/account/sign-in-settings` (docs/api.md, "Accounts"): the client secret only as whether one is saved. */
interface Settings {
  signIn: 'password' | 'link';
  oidc: { enabled: boolean; issuer: string; clientId: string; clientSecretSet: boolean; name: string };
}

/**
 * The editor of how the company's people sign in (for the Settings page): by password or by a link each time, and
 * single sign-on with the company's OpenID Connect provider. The client secret is write-only: left empty, the saved
 * one stays.
 */
export default function SignInSettings() {
  const { api } = useConsole();
  const words = useWords(accountWords);
  const [settings, setSettings] = useState<Settings>();
  const [secret, setSecret] = useState('');
  const { busy, problem, done, submit } = useSubmit();
  const legend = useId();
  const enabledId = useId();

  useEffect(() => {
    void api.get<Settings>('/v1/account/sign-in-settings').then(setSettings);
  }, [api]);

  const save = submit(async () => {
    if (!settings) return undefined;
    const { clientSecretSet: _set, ...oidc } = settings.oidc;
    const saved = await api.send<Settings>('PUT', '/v1/account/sign-in-settings', {
      signIn: settings.signIn,
      oidc: { ...oidc, ...(secret ? { clientSecret: secret } : {}) },
    });
    setSettings(saved);
    setSecret('');
    return words.saved;
  });

  if (!settings) return null;
  const oidc = settings.oidc;
  const setOidc = (change: Partial<Settings['oidc']>) => setSettings({ ...settings, oidc: { ...oidc, ...change } });
  return (
    <form className="form console-card account-form" onSubmit={save} aria-label={words.settingsTitle}>
      <h2>{words.settingsTitle}</h2>
      <fieldset className="field" aria-describedby={legend}>
        <legend>{words.methodLegend}</legend>
        {(['password', 'link'] as const).map((method) => (
          <label key={method} className="choice">
            <input
              type="radio"
              name="signIn"
              value={method}
              checked={settings.signIn === method}
              onChange={() => setSettings({ ...settings, signIn: method })}
            />
            {method === 'password' ? words.methodPassword : words.methodLink}
          </label>
        ))}
        <p className="hint" id={legend}>
          {words.methodHint}
        </p>
      </fieldset>
      <fieldset className="field">
        <legend>{words.ssoLegend}</legend>
        <label className="choice" htmlFor={enabledId}>
          <input
            id={enabledId}
            type="checkbox"
            checked={oidc.enabled}
            onChange={(event) => setOidc({ enabled: event.target.checked })}
          />
          {words.ssoEnabled}
        </label>
        <Field label={words.ssoName} value={oidc.name} required={false} onChange={(name) => setOidc({ name })} />
        <Field
          label={words.ssoIssuer}
          type="url"
          value={oidc.issuer}
          required={oidc.enabled}
          placeholder="https://login.example.com"
          onChange={(issuer) => setOidc({ issuer })}
        />
        <Field
          label={words.ssoClientId}
          value={oidc.clientId}
          required={oidc.enabled}
          onChange={(clientId) => setOidc({ clientId })}
        />
        <Field
          label={words.ssoClientSecret}
          type="password"
          autoComplete="off"
          value={secret}
          required={false}
          hint={oidc.clientSecretSet ? words.ssoSecretSet : words.ssoSecretUnset}
          onChange={setSecret}
        />
        <p className="hint">{words.ssoRedirect(`${location.origin}/v1/account/oidc/callback`)}</p>
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {words.save}
      </button>
      <Outcome problem={problem} done={done} />
    </form>
  );
}
