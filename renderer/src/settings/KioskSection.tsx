import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Lang, languages } from '../i18n/index.ts';
import type { FieldMode, KioskSettings, VisitorFieldName } from '../types.ts';
import { Check, Section, Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

/**
 * How the kiosk receives visitors: which of the visitor's details it asks, the picture, approval, badges, its idle
 * time and the agreement (NDA) visitors sign, as one text or one per language (PATCH /v1/kiosk/settings).
 */
export function KioskSection({ api, data, onSettings }: SettingsProps) {
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
