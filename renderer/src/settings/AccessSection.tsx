import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessConfig } from '../types.ts';
import { Check, draftTextFields, Section, TextInput, useAction, useSecrets } from './kit.tsx';
import type { SettingsProps } from './props.ts';

type AccessSettings = Omit<AccessConfig, 'password' | 'aesKey'>;
type AccessSecret = 'password' | 'aesKey';

const accessDefaults: AccessSettings = {
  enabled: false,
  url: '',
  username: '',
  qrcodeDuration: 30,
  totpEnabled: false,
  staticVisitorQRCode: false,
};

/**
 * The gate integration. Its password and AES key are write-only here: the page keeps only whether each is set,
 * sends one only when staff type a new one, and never shows a stored one.
 */
export function AccessSection({ api, onSettings }: SettingsProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AccessSettings>(accessDefaults);
  const { busy, notice, run } = useAction();
  const secrets = useSecrets<AccessSecret>(['password', 'aesKey'], (key) => save(key));
  const storedSecrets = secrets.setStored;
  useEffect(() => {
    api.optional<Partial<AccessConfig>>('/v1/integration/access').then(
      (config) => {
        if (!config) return;
        const { password, aesKey, ...settings } = config;
        setDraft({ ...accessDefaults, ...settings });
        storedSecrets({ password: Boolean(password), aesKey: Boolean(aesKey) });
      },
      () => undefined,
    );
  }, [api, storedSecrets]);
  const save = (clear?: AccessSecret) =>
    run(async () => {
      const { enabled, url, username, qrcodeDuration, totpEnabled, staticVisitorQRCode } = draft;
      await api.send('POST', '/v1/integration/access', {
        enabled,
        url,
        username,
        qrcodeDuration,
        totpEnabled,
        staticVisitorQRCode,
        ...secrets.toSend(clear),
      });
      secrets.saved(clear);
      onSettings();
      return t('common.saved');
    });
  const text = draftTextFields(draft, setDraft);
  const check = (key: 'enabled' | 'totpEnabled' | 'staticVisitorQRCode', label: string) => (
    <Check label={label} checked={draft[key]} onChange={(value) => setDraft({ ...draft, [key]: value })} />
  );
  return (
    <Section
      title={t('settings.access')}
      onSave={() => save()}
      saveLabel={t('common.save')}
      busy={busy}
      notice={notice}
    >
      {check('enabled', t('settings.accessEnabled'))}
      {text('url', t('settings.accessUrl'), { type: 'url' })}
      {text('username', t('settings.accessUsername'))}
      {secrets.field('password', t('settings.accessPassword'))}
      {secrets.field('aesKey', t('settings.accessKey'))}
      <TextInput
        label={t('settings.accessDuration')}
        type="number"
        value={String(draft.qrcodeDuration)}
        onChange={(value) => setDraft({ ...draft, qrcodeDuration: Number(value) })}
      />
      {check('totpEnabled', t('settings.accessTotp'))}
      {check('staticVisitorQRCode', t('settings.accessStatic'))}
    </Section>
  );
}
