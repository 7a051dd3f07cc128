import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { credentialObjectSchema, issuableRoles } from '../../../local-api/credentials/schema.ts';
import { Notice } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { dateAndTime } from '../time.ts';
import { RowAction, Section, Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

export type Credential = z.infer<typeof credentialObjectSchema>;
type IssuableRole = (typeof issuableRoles)[number];

/**
 * The roles a key may be made with (docs/api.md, "Roles"): a record of the service's issuable roles, so that a role
 * added there fails to compile here until it is offered (and worded).
 */
const offered: Record<IssuableRole, true> = { admin: true, readonly: true, kiosk: true, sync: true };
const keyRoles = Object.keys(offered) as IssuableRole[];
const isKey = (credential: Credential) => (keyRoles as string[]).includes(credential.role);

/**
 * The company's API keys (docs/api.md, "Credentials (keys)"): the list (never a key: its label, role, first
 * characters, when made and last used), a new key with its role and label, shown once in full, and revoking one,
 * after a second click, which its very next request feels. Front-desk and console sessions are not keys: they end
 * by themselves and are not listed here.
 */
export function ApiKeysSection({ api, data, lang }: SettingsProps) {
  const { t } = useTranslation(['admin', 'translation']);
  const [keys, setKeys] = useState<Credential[]>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [draft, setDraft] = useState<{ label: string; role: IssuableRole }>({ label: '', role: 'readonly' });
  const [made, setMade] = useState<{ label: string; key: string }>();
  const [revoking, setRevoking] = useState<string>();
  const create = useAction();
  const revoke = useAction();
  const load = useCallback(
    () =>
      api.get<{ credentials: Credential[] }>('/v1/credentials').then(
        (answer) => setKeys(answer.credentials.filter(isKey)),
        (error) => setLoadProblem(problemText(error)),
      ),
    [api],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const add = () =>
    create.run(async () => {
      const created = await api.send<Credential & { key: string }>('POST', '/v1/credentials', draft);
      setMade({ label: created.label, key: created.key });
      setDraft({ ...draft, label: '' });
      await load();
      return undefined;
    });
  const confirmRevoke = (credential: Credential) =>
    revoke.run(async () => {
      await api.send('DELETE', `/v1/credential/${credential.id}`);
      setRevoking(undefined);
      await load();
      return t('keys.revoked', { label: credential.label });
    });
  const when = (at: string | null) => (at ? dateAndTime(lang, data.timeZone, at) : t('keys.never'));
  return (
    <>
      <section className="fd-section" aria-labelledby="api-keys-title">
        <h2 id="api-keys-title">{t('keys.title')}</h2>
        <p className="hint">{t('keys.intro')}</p>
        {loadProblem && <Notice kind="error">{loadProblem}</Notice>}
        {keys?.length === 0 && <p>{t('keys.none')}</p>}
        {keys && keys.length > 0 && (
          <table className="table console-table">
            <thead>
              <tr>
                <th scope="col">{t('keys.label')}</th>
                <th scope="col">{t('keys.roleTitle')}</th>
                <th scope="col">{t('keys.prefix')}</th>
                <th scope="col">{t('keys.created')}</th>
                <th scope="col">{t('keys.lastUsed')}</th>
                <th scope="col">{t('translation:roster.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td data-label={t('keys.label')}>
                    <span className="wrap">{key.label}</span>
                  </td>
                  <td data-label={t('keys.roleTitle')}>{t(`keys.role.${key.role}`)}</td>
                  <td data-label={t('keys.prefix')}>
                    <code>{key.prefix ?? '—'}</code>
                  </td>
                  <td data-label={t('keys.created')}>{when(key.createdAt)}</td>
                  <td data-label={t('keys.lastUsed')}>{when(key.lastUsedAt)}</td>
                  <td className="row-actions">
                    {key.revokedAt ? (
                      t('keys.revokedAt', { at: when(key.revokedAt) })
                    ) : revoking === key.id ? (
                      <>
                        <RowAction
                          className="btn-small btn-danger"
                          label={t('keys.confirmRevoke')}
                          name={key.label}
                          disabled={revoke.busy}
                          onClick={() => confirmRevoke(key)}
                        />{' '}
                        <RowAction
                          className="btn-small btn-secondary"
                          label={t('translation:content.cancel')}
                          name={key.label}
                          disabled={revoke.busy}
                          onClick={() => setRevoking(undefined)}
                        />
                      </>
                    ) : (
                      <RowAction
                        className="btn-small btn-secondary"
                        label={t('keys.revoke')}
                        name={key.label}
                        disabled={revoke.busy}
                        onClick={() => setRevoking(key.id)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {revoke.notice}
      </section>
      <Section
        title={t('keys.create')}
        onSave={add}
        saveLabel={t('keys.createButton')}
        busy={create.busy}
        notice={create.notice}
      >
        <TextInput
          label={t('keys.label')}
          value={draft.label}
          maxLength={200}
          onChange={(label) => setDraft({ ...draft, label })}
        />
        <Select
          label={t('keys.roleTitle')}
          value={draft.role}
          options={keyRoles.map((role) => ({ value: role, label: t(`keys.role.${role}`) }))}
          onChange={(role) => setDraft({ ...draft, role })}
        />
        <p className="hint">{t(`keys.roleHint.${draft.role}`)}</p>
        {made && (
          <div className="new-key" role="status">
            <p>{t('keys.madeOnce', { label: made.label })}</p>
            <label className="field">
              <span>{t('keys.theKey')}</span>
              <input readOnly value={made.key} onFocus={(e) => e.target.select()} />
            </label>
          </div>
        )}
      </Section>
    </>
  );
}
