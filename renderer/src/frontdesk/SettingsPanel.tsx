import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../custom-fields.ts';
import { languages } from '../i18n/index.ts';
import { itemsOf } from '../kiosk-data.ts';
import { Refusal } from '../problems.ts';
import type {
  AccessConfig,
  Company,
  CustomFieldDefinition,
  FieldMode,
  KioskSettings,
  VisitorFieldName,
} from '../types.ts';
import { Check, RowAction, Section, Select, TextInput, useAction } from './kit.tsx';
import type { FrontDeskProps } from './props.ts';

/** The device's settings, one section per concern; a section whose endpoint the service lacks says so. */
export function SettingsPanel(props: FrontDeskProps) {
  return (
    <div className="settings">
      {props.data.company && <CompanySection {...props} company={props.data.company} />}
      <KioskSection {...props} />
      <CustomFieldsSection {...props} />
      <HubSection {...props} />
      <AccessSection {...props} />
      <PinSection {...props} />
    </div>
  );
}

function CompanySection({ api, company, onSettings }: FrontDeskProps & { company: Company }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({
    name: company.name,
    lang: company.lang ?? 'en',
    pictureUrl: company.pictureUrl ?? '',
    timezone: company.timezone ?? '',
  });
  const { busy, notice, run } = useAction();
  const save = () =>
    run(async () => {
      await api.send('PATCH', '/v1/company', {
        name: draft.name,
        lang: draft.lang,
        pictureUrl: draft.pictureUrl.trim() || null,
        ...(draft.timezone.trim() ? { timezone: draft.timezone.trim() } : {}),
      });
      onSettings();
      return t('common.saved');
    });
  return (
    <Section title={t('settings.company')} onSave={save} saveLabel={t('common.save')} busy={busy} notice={notice}>
      <TextInput
        label={t('settings.companyName')}
        value={draft.name}
        onChange={(name) => setDraft({ ...draft, name })}
      />
      <Select
        label={t('settings.companyLang')}
        value={draft.lang}
        options={languages.map((l) => ({ value: l.code as string, label: l.name }))}
        onChange={(lang) => setDraft({ ...draft, lang })}
      />
      <TextInput
        label={t('settings.logo')}
        optional
        value={draft.pictureUrl}
        onChange={(pictureUrl) => setDraft({ ...draft, pictureUrl })}
      />
      <TextInput
        label={t('settings.timezone')}
        optional
        value={draft.timezone}
        onChange={(timezone) => setDraft({ ...draft, timezone })}
      />
    </Section>
  );
}

function KioskSection({ api, data, onSettings }: FrontDeskProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<KioskSettings>(data.settings);
  const { busy, notice, run } = useAction();
  const modes: { value: FieldMode; label: string }[] = [
    { value: 'off', label: t('settings.off') },
    { value: 'optional', label: t('settings.optionalMode') },
    { value: 'required', label: t('settings.requiredMode') },
  ];
  const save = () =>
    run(async () => {
      const { visitorFields, pictureMode, ndaText, requireAuthorization, idleSeconds, badgePrinting } = draft;
      const saved = await api.send<KioskSettings>('PATCH', '/v1/kiosk/settings', {
        visitorFields,
        pictureMode,
        ndaText,
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
      <label className="field">
        <span>{t('settings.ndaText')}</span>
        <textarea
          rows={8}
          maxLength={50_000}
          value={draft.ndaText}
          onChange={(e) => setDraft({ ...draft, ndaText: e.target.value })}
        />
      </label>
    </Section>
  );
}

const fieldTypes = ['Text', 'Dropdown', 'Checkbox', 'Date', 'Number', 'Email', 'Phone'] as const;

function CustomFieldsSection({ api, lang, onSettings }: FrontDeskProps) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<CustomFieldDefinition[] | null>();
  const [draft, setDraft] = useState({ name: '', type: 'Text', options: '', required: false, location: 'FIELD' });
  const { busy, notice, run } = useAction();
  const reload = () =>
    api
      .optional<unknown>('/v1/customfields')
      .then((answer) => setFields(answer === undefined ? null : itemsOf(answer, 'customFields')));
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once when the section opens
  useEffect(() => {
    reload().catch(() => setFields(null));
  }, []);
  if (fields === null) {
    return (
      <Section title={t('settings.customFields')}>
        <p>{t('settings.customFieldsUnavailable')}</p>
      </Section>
    );
  }
  const add = () =>
    run(async () => {
      const options = draft.options
        .split('\n')
        .map((o) => o.trim())
        .filter(Boolean);
      await api.send('POST', '/v1/customfields', { ...draft, options, sort: fields?.length ?? 0 });
      setDraft({ ...draft, name: '', options: '' });
      await reload();
      onSettings();
      return t('common.saved');
    });
  const remove = (field: CustomFieldDefinition) =>
    run(async () => {
      await api.send('DELETE', `/v1/customfield/${field.id}`);
      await reload();
      onSettings();
      return t('common.saved');
    });
  return (
    <Section
      title={t('settings.customFields')}
      onSave={add}
      saveLabel={t('settings.addField')}
      busy={busy}
      notice={notice}
    >
      <ul className="card-list">
        {fields?.map((field) => (
          <li key={field.id} className="card">
            <p className="card-title">{fieldLabel(field, lang)}</p>
            <p>
              {[field.type, field.location, field.required ? t('settings.fieldRequired') : '', ...(field.options ?? [])]
                .filter(Boolean)
                .join(' · ')}
            </p>
            <div className="card-actions">
              <RowAction
                className="btn-secondary"
                label={t('common.remove')}
                name={field.name}
                disabled={busy}
                onClick={() => remove(field)}
              />
            </div>
          </li>
        ))}
      </ul>
      <TextInput label={t('settings.fieldName')} value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
      <Select
        label={t('settings.fieldType')}
        value={draft.type}
        options={fieldTypes.map((type) => ({ value: type as string, label: type }))}
        onChange={(type) => setDraft({ ...draft, type })}
      />
      <Select
        label={t('settings.fieldLocation')}
        value={draft.location}
        options={[
          { value: 'FIELD', label: t('settings.locationField') },
          { value: 'QUESTIONNAIRE', label: t('settings.locationQuestionnaire') },
        ]}
        onChange={(location) => setDraft({ ...draft, location })}
      />
      {draft.type === 'Dropdown' && (
        <label className="field">
          <span>{t('settings.fieldOptions')}</span>
          <textarea rows={4} value={draft.options} onChange={(e) => setDraft({ ...draft, options: e.target.value })} />
        </label>
      )}
      <Check
        label={t('settings.fieldRequired')}
        checked={draft.required}
        onChange={(required) => setDraft({ ...draft, required })}
      />
    </Section>
  );
}

/** Long enough to read that the hub was saved before the page starts again. */
const restartDelayMs = 2000;

interface Upstream {
  url: string | null;
  hasKey: boolean;
}

function HubSection({ api }: FrontDeskProps) {
  const { t } = useTranslation();
  const [upstream, setUpstream] = useState<Upstream | null>();
  const [draft, setDraft] = useState({ url: '', apiKey: '' });
  const { busy, notice, run } = useAction();
  useEffect(() => {
    api.optional<Upstream>('/v1/sync/upstream').then(
      (answer) => {
        setUpstream(answer ?? null);
        setDraft((d) => ({ ...d, url: answer?.url ?? '' }));
      },
      () => setUpstream(null),
    );
  }, [api]);
  if (upstream === null) {
    return (
      <Section title={t('settings.hub')}>
        <p>{t('settings.hubUnavailable')}</p>
      </Section>
    );
  }
  const save = () =>
    run(async () => {
      await api.send('PUT', '/v1/sync/upstream', draft);
      setDraft({ ...draft, apiKey: '' });
      // The kiosk now serves the hub's company, with the hub's key: the page starts again to take it up.
      setTimeout(() => window.location.reload(), restartDelayMs);
      return t('settings.hubSaved');
    });
  return (
    <Section title={t('settings.hub')} onSave={save} saveLabel={t('common.save')} busy={busy} notice={notice}>
      <TextInput
        label={t('settings.hubUrl')}
        type="url"
        value={draft.url}
        onChange={(url) => setDraft({ ...draft, url })}
      />
      <TextInput
        label={t('settings.hubKey')}
        type="password"
        value={draft.apiKey}
        onChange={(apiKey) => setDraft({ ...draft, apiKey })}
      />
    </Section>
  );
}

const accessDefaults: AccessConfig = {
  enabled: false,
  url: '',
  username: '',
  password: '',
  aesKey: '',
  qrcodeDuration: 30,
  totpEnabled: false,
  staticVisitorQRCode: false,
};

function AccessSection({ api, onSettings }: FrontDeskProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AccessConfig>(accessDefaults);
  const { busy, notice, run } = useAction();
  useEffect(() => {
    api.optional<AccessConfig>('/v1/integration/access').then(
      (config) => setDraft({ ...accessDefaults, ...config }),
      () => undefined,
    );
  }, [api]);
  const save = () =>
    run(async () => {
      const { enabled, url, username, password, aesKey, qrcodeDuration, totpEnabled, staticVisitorQRCode } = draft;
      await api.send('POST', '/v1/integration/access', {
        enabled,
        url,
        username,
        password,
        aesKey,
        qrcodeDuration,
        totpEnabled,
        staticVisitorQRCode,
      });
      onSettings();
      return t('common.saved');
    });
  const text = (key: 'url' | 'username' | 'password' | 'aesKey', label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      optional
      value={draft[key]}
      onChange={(value) => setDraft({ ...draft, [key]: value })}
    />
  );
  const check = (key: 'enabled' | 'totpEnabled' | 'staticVisitorQRCode', label: string) => (
    <Check label={label} checked={draft[key]} onChange={(value) => setDraft({ ...draft, [key]: value })} />
  );
  return (
    <Section title={t('settings.access')} onSave={save} saveLabel={t('common.save')} busy={busy} notice={notice}>
      {check('enabled', t('settings.accessEnabled'))}
      {text('url', t('settings.accessUrl'), 'url')}
      {text('username', t('settings.accessUsername'))}
      {text('password', t('settings.accessPassword'), 'password')}
      {text('aesKey', t('settings.accessKey'), 'password')}
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
