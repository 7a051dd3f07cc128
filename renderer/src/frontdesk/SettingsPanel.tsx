import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Lang, languages } from '../i18n/index.ts';
import { Refusal } from '../problems.ts';
import type { AccessConfig, FieldMode, KioskSettings, VisitorFieldName } from '../types.ts';
import { BrandSection } from './BrandEditor.tsx';
import { CompanySection } from './CompanySection.tsx';
import { CustomFieldsSection } from './CustomFieldsEditor.tsx';
import { Check, draftTextFields, Section, Select, TextInput, useAction, useSecrets } from './kit.tsx';
import { LeaveKiosk } from './LeaveKiosk.tsx';
import { NotificationsSection } from './NotificationsSection.tsx';
import type { FrontDeskProps } from './props.ts';

/** The device's settings, one section per concern; a section whose endpoint the service lacks says so. */
export function SettingsPanel(props: FrontDeskProps) {
  return (
    <div className="settings">
      {props.data.company && <CompanySection {...props} company={props.data.company} />}
      {props.data.company && <BrandSection {...props} company={props.data.company} />}
      <KioskSection {...props} />
      <CustomFieldsSection {...props} />
      <NotificationsSection {...props} />
      <HubSection />
      <AccessSection {...props} />
      <PinSection {...props} />
      <LeaveKiosk />
    </div>
  );
}

function KioskSection({ api, data, onSettings }: FrontDeskProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<KioskSettings>(data.settings);
  const [ndaLang, setNdaLang] = useState<'' | Lang>('');
  const { busy, notice, run } = useAction();
  const modes: { value: FieldMode; label: string }[] = [
    { value: 'off', label: t('settings.off') },
    { value: 'optional', label: t('settings.optionalMode') },
    { value: 'required', label: t('settings.requiredMode') },
  ];
  const save = () =>
    run(async () => {
      const { visitorFields, pictureMode, ndaText, requireAuthorization, idleSeconds, badgePrinting } = draft;
      // Every language is sent: one emptied here ('') goes back to the text for every language.
      const localizedNdaText = Object.fromEntries(languages.map((l) => [l.code, draft.localizedNdaText[l.code] ?? '']));
      const saved = await api.send<KioskSettings>('PATCH', '/v1/kiosk/settings', {
        visitorFields,
        pictureMode,
        ndaText,
        localizedNdaText,
        requireAuthorization,
        idleSeconds,
        badgePrinting,
      });
      setDraft(saved);
      onSettings();
      return t('common.saved');
    });
  return (
    <Section title={t('settings.kiosk')} onSave={save} saveLabel={t('common.save')} busy={busy} notice={notice}>
      <fieldset className="field">
        <legend>{t('settings.visitorFields')}</legend>
        {(Object.keys(draft.visitorFields) as VisitorFieldName[]).map((key) => (
          <Select
            key={key}
            label={t(`visitor.${key}`)}
            value={draft.visitorFields[key]}
            options={modes}
            onChange={(mode) => setDraft({ ...draft, visitorFields: { ...draft.visitorFields, [key]: mode } })}
          />
        ))}
      </fieldset>
      <Select
        label={t('settings.pictureMode')}
        value={draft.pictureMode}
        options={modes}
        onChange={(pictureMode) => setDraft({ ...draft, pictureMode })}
      />
      <Check
        label={t('settings.requireAuthorization')}
        checked={draft.requireAuthorization}
        onChange={(requireAuthorization) => setDraft({ ...draft, requireAuthorization })}
      />
      <Check
        label={t('settings.badgePrinting')}
        checked={draft.badgePrinting}
        onChange={(badgePrinting) => setDraft({ ...draft, badgePrinting })}
      />
      <TextInput
        label={t('settings.idleSeconds')}
        type="number"
        value={String(draft.idleSeconds)}
        onChange={(value) => setDraft({ ...draft, idleSeconds: Number(value) })}
      />
      <fieldset className="field field-group">
        <legend>{t('settings.ndaText')}</legend>
        <Select<'' | Lang>
          label={t('content.ndaLanguage')}
          value={ndaLang}
          options={[
            { value: '', label: t('content.everyLanguage') },
            ...languages.map((l) => ({ value: l.code, label: l.name })),
          ]}
          onChange={setNdaLang}
        />
        <label className="field">
          <span>
            {ndaLang === ''
              ? t('content.ndaDefault')
              : t('content.ndaFor', { language: languages.find((l) => l.code === ndaLang)?.name ?? ndaLang })}
          </span>
          <textarea
            rows={8}
            maxLength={50_000}
            value={ndaLang === '' ? draft.ndaText : (draft.localizedNdaText[ndaLang] ?? '')}
            onChange={(e) =>
              setDraft(
                ndaLang === ''
                  ? { ...draft, ndaText: e.target.value }
                  : { ...draft, localizedNdaText: { ...draft.localizedNdaText, [ndaLang]: e.target.value } },
              )
            }
          />
        </label>
        {ndaLang !== '' && <p className="hint">{t('content.ndaFallback')}</p>}
      </fieldset>
    </Section>
  );
}

/**
 * Following a hub concerns the whole device, so it is the device owner's (docs/sync.md): no credential the page
 * holds may change it. The desk says where it is set; the Status tab shows the hub and the sync.
 */
function HubSection() {
  const { t } = useTranslation();
  return (
    <Section title={t('settings.hub')}>
      <p>{t('settings.hubOwner')}</p>
    </Section>
  );
}

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
function AccessSection({ api, onSettings }: FrontDeskProps) {
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

function PinSection({ api }: FrontDeskProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({ currentPin: '', pin: '', repeat: '' });
  const { busy, notice, run } = useAction();
  const save = () =>
    run(async () => {
      if (draft.pin !== draft.repeat) throw new Refusal(t('frontDesk.pinMismatch'));
      await api.send('POST', '/v1/kiosk/pin', { pin: draft.pin, currentPin: draft.currentPin });
      setDraft({ currentPin: '', pin: '', repeat: '' });
      return t('frontDesk.pinChanged');
    });
  const pin = (key: 'currentPin' | 'pin' | 'repeat', label: string) => (
    <TextInput
      label={label}
      type="password"
      maxLength={12}
      value={draft[key]}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
    />
  );
  return (
    <Section
      title={t('settings.changePin')}
      onSave={save}
      saveLabel={t('frontDesk.setPin')}
      busy={busy}
      notice={notice}
    >
      {pin('currentPin', t('frontDesk.currentPin'))}
      {pin('pin', t('frontDesk.newPin'))}
      {pin('repeat', t('frontDesk.repeatPin'))}
    </Section>
  );
}
