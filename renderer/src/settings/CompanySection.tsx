import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { languages } from '../i18n/index.ts';
import { Refusal } from '../problems.ts';
import type { Company } from '../types.ts';
import { Section, Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

/** The zone's offset now, as "UTC−03:00" (the label staff recognize). */
function offsetLabel(timeZone: string, at: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return part === 'GMT' ? 'UTC' : (part ?? '').replace('GMT', 'UTC').replace('-', '−');
}

/** Every IANA zone the browser knows, as "America/Sao Paulo (UTC−03:00)", by name. */
export function timeZoneOptions(at: Date): { value: string; label: string }[] {
  return Intl.supportedValuesOf('timeZone').map((zone) => ({
    value: zone,
    label: `${zone.replaceAll('_', ' ')} (${offsetLabel(zone, at)})`,
  }));
}

/** The company's name, the kiosk's language and its time zone (picked from the zones, or the device's own). */
export function CompanySection({ api, company, onSettings }: SettingsProps & { company: Company }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState({
    name: company.name,
    lang: company.lang ?? 'en',
    timezone: company.timezone ?? '',
  });
  const { busy, notice, run } = useAction();
  const zones = useMemo(() => timeZoneOptions(new Date()), []);
  const save = () =>
    run(async () => {
      await api.send('PATCH', '/v1/company', {
        name: draft.name,
        lang: draft.lang,
        timezone: draft.timezone || null,
      });
      onSettings();
      return t('common.saved');
    });
  return (
    <>
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
        <Select
          label={t('settings.timezone')}
          value={draft.timezone}
          options={[{ value: '', label: t('deskSettings.deviceZone') }, ...zones]}
          onChange={(timezone) => setDraft({ ...draft, timezone })}
        />
      </Section>
      <LogoSection api={api} company={company} onSettings={onSettings} />
    </>
  );
}

/** Largest picture the service takes (a logo, a welcome picture, as for visitors' pictures): 5 MB. */
const maxPictureBytes = 5 * 1024 * 1024;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** What differs between the company's pictures: where each is sent, the field that names it, and its words. */
export interface PictureKind {
  path: '/v1/company/logo' | '/v1/company/welcome';
  field: 'pictureUrl' | 'welcomeImageUrl';
  id: string;
  text: { title: string; alt: string; none: string; file: string; saved: string; removed: string; remove: string };
}

/**
 * A picture of the company's on the welcome screen (its logo, its welcome picture): a PNG or JPEG uploaded to the
 * service, which keeps and serves it (PUT /v1/company/logo or /welcome), so it shows under the page's strict CSP
 * and offline.
 */
export function PictureSection({
  api,
  company,
  onSettings,
  kind,
}: Pick<SettingsProps, 'api' | 'onSettings'> & { company: Company; kind: PictureKind }) {
  const { t } = useTranslation();
  const [picture, setPicture] = useState(company[kind.field] ?? null);
  const input = useRef<HTMLInputElement>(null);
  const { busy, notice, run } = useAction();
  const upload = (file: File | undefined) =>
    run(async () => {
      if (!file) return undefined;
      if (!['image/png', 'image/jpeg'].includes(file.type)) throw new Refusal(t('deskSettings.logoType'));
      if (file.size > maxPictureBytes) throw new Refusal(t('deskSettings.logoSize'));
      const saved = await api.send<Company>('PUT', kind.path, { picture: await readAsDataUrl(file) });
      setPicture(saved[kind.field] ?? null);
      onSettings();
      return kind.text.saved;
    }).finally(() => {
      if (input.current) input.current.value = '';
    });
  const remove = () =>
    run(async () => {
      await api.send('DELETE', kind.path);
      setPicture(null);
      onSettings();
      return kind.text.removed;
    });
  return (
    <section className="fd-section" aria-labelledby={`${kind.id}-title`}>
      <h2 id={`${kind.id}-title`}>{kind.text.title}</h2>
      {picture ? <img className="logo-preview" src={picture} alt={kind.text.alt} /> : <p>{kind.text.none}</p>}
      <div className="field">
        <label htmlFor={`${kind.id}-file`}>{kind.text.file}</label>
        <p className="hint">{t('deskSettings.logoHint')}</p>
        <input
          id={`${kind.id}-file`}
          ref={input}
          type="file"
          accept="image/png,image/jpeg"
          disabled={busy}
          onChange={(e) => void upload(e.target.files?.[0])}
        />
      </div>
      {picture && (
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={remove}>
          {kind.text.remove}
        </button>
      )}
      {notice}
    </section>
  );
}

/** The logo on the welcome screen. */
function LogoSection(props: Pick<SettingsProps, 'api' | 'onSettings'> & { company: Company }) {
  const { t } = useTranslation();
  const kind: PictureKind = {
    path: '/v1/company/logo',
    field: 'pictureUrl',
    id: 'logo',
    text: {
      title: t('deskSettings.logo'),
      alt: t('deskSettings.logoAlt', { company: props.company.name }),
      none: t('deskSettings.noLogo'),
      file: t('deskSettings.logoFile'),
      saved: t('deskSettings.logoSaved'),
      removed: t('deskSettings.logoRemoved'),
      remove: t('deskSettings.removeLogo'),
    },
  };
  return <PictureSection {...props} kind={kind} />;
}
