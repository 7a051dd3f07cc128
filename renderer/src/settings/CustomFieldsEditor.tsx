import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../custom-fields.ts';
import { type Lang, languages } from '../i18n/index.ts';
import { itemsOf } from '../kiosk-data.ts';
import type { CustomFieldDefinition } from '../types.ts';
import { Check, RowAction, Section, Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

const fieldTypes = ['Text', 'Dropdown', 'Checkbox', 'Date', 'Number', 'Email', 'Phone'] as const;

/** A definition as the editor holds it: options and each language's labels one per line. */
interface Draft {
  name: string;
  type: string;
  location: string;
  required: boolean;
  options: string;
  localizedName: Partial<Record<Lang, string>>;
  localizedOptions: Partial<Record<Lang, string>>;
}

const emptyDraft: Draft = {
  name: '',
  type: 'Text',
  location: 'FIELD',
  required: false,
  options: '',
  localizedName: {},
  localizedOptions: {},
};

const lines = (text: string) => text.split('\n').map((line) => line.trim());

function draftOf(field: CustomFieldDefinition): Draft {
  return {
    name: field.name,
    type: String(field.type),
    location: String(field.location ?? 'FIELD'),
    required: Boolean(field.required),
    options: (field.options ?? []).join('\n'),
    localizedName: { ...field.localizedName },
    localizedOptions: Object.fromEntries(
      Object.entries(field.localizedOptions ?? {}).map(([lang, labels]) => [lang, (labels ?? []).join('\n')]),
    ),
  };
}

/**
 * What POST and PATCH /v1/customfields take. Labels are aligned with the options line by line (an empty line: that
 * option keeps its own name in the language); a language without any label is left out.
 */
function bodyOf(draft: Draft) {
  const options = lines(draft.options).filter(Boolean);
  const dropdown = draft.type === 'Dropdown';
  const localizedOptions = Object.fromEntries(
    Object.entries(draft.localizedOptions).flatMap(([lang, text]) => {
      const labels = lines(text ?? '').slice(0, options.length);
      if (!dropdown || labels.every((label) => label === '')) return [];
      return [[lang, options.map((_, i) => labels[i] ?? '')]];
    }),
  );
  return {
    name: draft.name.trim(),
    type: draft.type,
    location: draft.location,
    required: draft.required,
    options: dropdown ? options : [],
    localizedName: Object.fromEntries(
      Object.entries(draft.localizedName)
        .map(([lang, name]) => [lang, (name ?? '').trim()])
        .filter(([, name]) => name !== ''),
    ),
    localizedOptions,
  };
}

/** The fields of one definition: its question (and in each language), type, place, choices (and in each language). */
function DefinitionFields({ draft, onChange }: { draft: Draft; onChange: (draft: Draft) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={t('settings.fieldName')} value={draft.name} onChange={(name) => onChange({ ...draft, name })} />
      <fieldset className="field field-group">
        <legend>{t('content.questionIn')}</legend>
        {languages.map((language) => (
          <TextInput
            key={language.code}
            label={language.name}
            optional
            value={draft.localizedName[language.code] ?? ''}
            onChange={(name) =>
              onChange({ ...draft, localizedName: { ...draft.localizedName, [language.code]: name } })
            }
          />
        ))}
      </fieldset>
      <Select
        label={t('settings.fieldType')}
        value={draft.type}
        options={fieldTypes.map((type) => ({ value: type as string, label: t(`content.types.${type}`) }))}
        onChange={(type) => onChange({ ...draft, type })}
      />
      <Select
        label={t('settings.fieldLocation')}
        value={draft.location}
        options={[
          { value: 'FIELD', label: t('settings.locationField') },
          { value: 'QUESTIONNAIRE', label: t('settings.locationQuestionnaire') },
        ]}
        onChange={(location) => onChange({ ...draft, location })}
      />
      {draft.type === 'Dropdown' && (
        <>
          <label className="field">
            <span>{t('settings.fieldOptions')}</span>
            <textarea
              rows={4}
              value={draft.options}
              onChange={(e) => onChange({ ...draft, options: e.target.value })}
            />
          </label>
          <fieldset className="field field-group">
            <legend>{t('content.optionsIn')}</legend>
            <p className="hint">{t('content.optionsHint')}</p>
            {languages.map((language) => (
              <label className="field" key={language.code}>
                <span>{language.name}</span>
                <textarea
                  rows={3}
                  value={draft.localizedOptions[language.code] ?? ''}
                  onChange={(e) =>
                    onChange({
                      ...draft,
                      localizedOptions: { ...draft.localizedOptions, [language.code]: e.target.value },
                    })
                  }
                />
              </label>
            ))}
          </fieldset>
        </>
      )}
      <Check
        label={t('settings.fieldRequired')}
        checked={draft.required}
        onChange={(required) => onChange({ ...draft, required })}
      />
    </>
  );
}

/**
 * The company's custom fields: each edited in place (PATCH keeps its id, so answers already given stay linked),
 * removed, or added; names and dropdown choices in every language of the kiosk.
 */
export function CustomFieldsSection({ api, lang, onSettings }: SettingsProps) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<CustomFieldDefinition[] | null>();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [editing, setEditing] = useState<{ id: string; draft: Draft }>();
  const { busy, notice, run } = useAction();
  const edit = useAction();
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
      await api.send('POST', '/v1/customfields', { ...bodyOf(draft), sort: fields?.length ?? 0 });
      setDraft(emptyDraft);
      await reload();
      onSettings();
      return t('common.saved');
    });
  const saveEdit = () =>
    edit.run(async () => {
      if (!editing) return undefined;
      await api.send('PATCH', `/v1/customfield/${editing.id}`, bodyOf(editing.draft));
      setEditing(undefined);
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
    <>
      <section className="fd-section">
        <h2>{t('settings.customFields')}</h2>
        {edit.notice}
        {fields?.length === 0 && <p>{t('content.noFields')}</p>}
        <ul className="card-list">
          {fields?.map((field) =>
            editing?.id === field.id ? (
              <li key={field.id} className="card card-editing">
                <form
                  className="form"
                  noValidate
                  aria-label={t('content.editing', { name: field.name })}
                  onSubmit={(e) => {
                    e.preventDefault();
                    void saveEdit();
                  }}
                >
                  <DefinitionFields
                    draft={editing.draft}
                    onChange={(next) => setEditing({ ...editing, draft: next })}
                  />
                  <div className="card-actions">
                    <button type="button" className="btn btn-secondary" onClick={() => setEditing(undefined)}>
                      {t('content.cancel')}
                    </button>
                    <button type="submit" className="btn btn-primary" disabled={edit.busy}>
                      {t('common.save')}
                    </button>
                  </div>
                </form>
              </li>
            ) : (
              <li key={field.id} className="card">
                <p className="card-title wrap">{fieldLabel(field, lang)}</p>
                <p className="wrap">
                  {[
                    t(`content.types.${field.type as (typeof fieldTypes)[number]}`, { defaultValue: field.type }),
                    field.location === 'QUESTIONNAIRE' ? t('settings.locationQuestionnaire') : '',
                    field.required ? t('settings.fieldRequired') : '',
                    ...(field.options ?? []),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                <div className="card-actions">
                  <RowAction
                    className="btn-secondary"
                    label={t('content.edit')}
                    name={field.name}
                    disabled={busy}
                    onClick={() => setEditing({ id: field.id, draft: draftOf(field) })}
                  />
                  <RowAction
                    className="btn-secondary"
                    label={t('common.remove')}
                    name={field.name}
                    disabled={busy}
                    onClick={() => remove(field)}
                  />
                </div>
              </li>
            ),
          )}
        </ul>
      </section>
      <Section
        title={t('content.addTitle')}
        onSave={add}
        saveLabel={t('settings.addField')}
        busy={busy}
        notice={notice}
      >
        <DefinitionFields draft={draft} onChange={setDraft} />
      </Section>
    </>
  );
}
