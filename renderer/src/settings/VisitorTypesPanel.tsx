import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inLanguage, type Localized } from '../../../local-api/visitor-types/rules.ts';
import type { VisitorTypeKind } from '../../../local-api/visitor-types/schema.ts';
import type { Api } from '../api.ts';
import { Notice, Spinner } from '../components/ui.tsx';
import { fieldLabel } from '../custom-fields.ts';
import { languages } from '../i18n/index.ts';
import type { KioskData } from '../kiosk-data.ts';
import { itemsOf } from '../kiosk-data.ts';
import { problemText } from '../problems.ts';
import type { FieldMode, VisitorFieldName, VisitorType } from '../types.ts';
import { Check, RowAction, Section, Select, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

const presetKinds = ['guest', 'interview', 'contractor', 'delivery'] as const satisfies readonly VisitorTypeKind[];

/** A rule as the editor shows it: the kiosk's setting, or the type's own value. */
type Inherited<V extends string> = 'kiosk' | V;

/** What the form edits, as text; turned into the PATCH body on save. */
interface Draft {
  name: string;
  badgeLabel: string;
  localizedName: Localized;
  localizedBadgeLabel: Localized;
  isActive: boolean;
  sort: string;
  pictureMode: Inherited<FieldMode>;
  requireAuthorization: Inherited<'yes' | 'no'>;
  nda: Inherited<'none' | 'own'>;
  ndaText: string;
  allFields: boolean;
  customFieldIds: string[];
  visitorFields: Partial<Record<VisitorFieldName, FieldMode>>;
}

function draftOf(type: VisitorType): Draft {
  return {
    name: type.name,
    badgeLabel: type.badgeLabel,
    localizedName: type.localizedName,
    localizedBadgeLabel: type.localizedBadgeLabel,
    isActive: type.isActive,
    sort: String(type.sort),
    pictureMode: type.pictureMode ?? 'kiosk',
    requireAuthorization: type.requireAuthorization === null ? 'kiosk' : type.requireAuthorization ? 'yes' : 'no',
    nda: type.ndaText === null ? 'kiosk' : type.ndaText === '' ? 'none' : 'own',
    ndaText: type.ndaText ?? '',
    allFields: type.customFieldIds === null,
    customFieldIds: type.customFieldIds ?? [],
    visitorFields: type.visitorFields,
  };
}

function bodyOf(draft: Draft) {
  return {
    name: draft.name.trim(),
    badgeLabel: draft.badgeLabel.trim(),
    localizedName: draft.localizedName,
    localizedBadgeLabel: draft.localizedBadgeLabel,
    isActive: draft.isActive,
    sort: Number(draft.sort) || 0,
    pictureMode: draft.pictureMode === 'kiosk' ? null : draft.pictureMode,
    requireAuthorization: draft.requireAuthorization === 'kiosk' ? null : draft.requireAuthorization === 'yes',
    ndaText: draft.nda === 'kiosk' ? null : draft.nda === 'none' ? '' : draft.ndaText,
    customFieldIds: draft.allFields ? null : draft.customFieldIds,
    visitorFields: draft.visitorFields,
  };
}

/**
 * The editor of visitor types (the front desk's tab, the console's Settings): the four known kinds added with a tap
 * (the service fills in their names in every language and their rules), the company's own by name; each type's name,
 * badge label, fields, agreement, picture and approval rules, where "as the kiosk's settings" is a choice of its own.
 */
export function VisitorTypesPanel(props: SettingsProps) {
  const { t } = useTranslation();
  const { api } = props;
  const [types, setTypes] = useState<VisitorType[]>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [editing, setEditing] = useState<VisitorType>();
  const [ownName, setOwnName] = useState('');
  const { busy, notice, run } = useAction();

  const load = useCallback(
    () =>
      api.get<unknown>('/v1/visitortypes').then(
        (answer) => setTypes(itemsOf<VisitorType>(answer, 'visitorTypes')),
        (error) => setLoadProblem(problemText(error)),
      ),
    [api],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const changed = async () => {
    await load();
    props.onSettings();
  };

  const add = (body: { kind: VisitorTypeKind; name?: string }) =>
    run(async () => {
      const created = await api.send<VisitorType>('POST', '/v1/visitortypes', body);
      await changed();
      setOwnName('');
      setEditing(created);
      return t('visitorTypes.added', { name: created.name });
    });

  const remove = (type: VisitorType) =>
    run(async () => {
      await api.send('DELETE', `/v1/visitortype/${type.id}`);
      await changed();
      setEditing(undefined);
      return t('visitorTypes.removed', { name: type.name });
    });

  if (loadProblem) return <Notice kind="error">{loadProblem}</Notice>;
  if (!types) return <Spinner label={t('common.loading')} />;
  return (
    <div className="visitor-types-panel">
      <p className="lead">{t(types.length > 1 ? 'visitorTypes.introMany' : 'visitorTypes.introFew')}</p>
      {types.length > 0 && (
        <table className="table console-table">
          <thead>
            <tr>
              <th scope="col">{t('visitorTypes.name')}</th>
              <th scope="col">{t('visitorTypes.badgeLabel')}</th>
              <th scope="col">{t('visitorTypes.offered')}</th>
              <th scope="col">{t('roster.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type.id}>
                <td data-label={t('visitorTypes.name')}>{inLanguage(type.localizedName, props.lang, type.name)}</td>
                <td data-label={t('visitorTypes.badgeLabel')}>
                  {inLanguage(type.localizedBadgeLabel, props.lang, type.badgeLabel)}
                </td>
                <td data-label={t('visitorTypes.offered')}>
                  {type.isActive ? t('visitorTypes.yes') : t('visitorTypes.no')}
                </td>
                <td className="row-actions">
                  <RowAction
                    label={t('visitorTypes.edit')}
                    name={type.name}
                    disabled={busy}
                    onClick={() => setEditing(type)}
                  />
                  <RowAction label={t('common.remove')} name={type.name} disabled={busy} onClick={() => remove(type)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {notice}
      {editing && (
        <TypeEditor
          key={editing.id}
          api={api}
          data={props.data}
          lang={props.lang}
          type={editing}
          onSaved={async () => {
            await changed();
            setEditing(undefined);
          }}
          onClose={() => setEditing(undefined)}
        />
      )}
      <section className="fd-section">
        <h2>{t('visitorTypes.add')}</h2>
        <div className="preset-list">
          {presetKinds.map((kind) => (
            <button
              key={kind}
              type="button"
              className="btn btn-secondary"
              disabled={busy}
              onClick={() => add({ kind })}
            >
              {t(`visitorTypes.kind.${kind}`)}
            </button>
          ))}
        </div>
        <form
          className="form own-type"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void add({ kind: 'custom', name: ownName });
          }}
        >
          <TextInput label={t('visitorTypes.ownName')} value={ownName} onChange={setOwnName} maxLength={200} />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('visitorTypes.addOwn')}
          </button>
        </form>
      </section>
    </div>
  );
}

function TypeEditor(props: {
  api: Api;
  data: KioskData;
  lang: string;
  type: VisitorType;
  onSaved: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(() => draftOf(props.type));
  const { busy, notice, run } = useAction();
  const set = (changes: Partial<Draft>) => setDraft({ ...draft, ...changes });
  const modes = [
    { value: 'kiosk' as const, label: t('visitorTypes.asKiosk') },
    { value: 'off' as const, label: t('settings.off') },
    { value: 'optional' as const, label: t('settings.optionalMode') },
    { value: 'required' as const, label: t('settings.requiredMode') },
  ];
  const visitorFieldNames = Object.keys(props.data.settings.visitorFields) as VisitorFieldName[];
  const save = () =>
    run(async () => {
      await props.api.send('PATCH', `/v1/visitortype/${props.type.id}`, bodyOf(draft));
      await props.onSaved();
      return undefined;
    });
  return (
    <Section
      title={t('visitorTypes.editing', { name: props.type.name })}
      onSave={save}
      saveLabel={t('common.save')}
      busy={busy}
      notice={notice}
    >
      <TextInput label={t('visitorTypes.name')} value={draft.name} onChange={(name) => set({ name })} maxLength={200} />
      <TextInput
        label={t('visitorTypes.badgeLabel')}
        value={draft.badgeLabel}
        onChange={(badgeLabel) => set({ badgeLabel })}
        maxLength={40}
      />
      {/* What visitors read, in each language; an empty one falls back to the name and label above. */}
      {languages.map((language) => (
        <div key={language.code} className="language-pair">
          <TextInput
            label={t('visitorTypes.nameIn', { language: language.name })}
            optional
            value={draft.localizedName[language.code] ?? ''}
            onChange={(text) => set({ localizedName: { ...draft.localizedName, [language.code]: text } })}
            maxLength={200}
          />
          <TextInput
            label={t('visitorTypes.badgeLabelIn', { language: language.name })}
            optional
            value={draft.localizedBadgeLabel[language.code] ?? ''}
            onChange={(text) => set({ localizedBadgeLabel: { ...draft.localizedBadgeLabel, [language.code]: text } })}
            maxLength={40}
          />
        </div>
      ))}
      <Check label={t('visitorTypes.offered')} checked={draft.isActive} onChange={(isActive) => set({ isActive })} />
      <TextInput label={t('visitorTypes.sort')} type="number" value={draft.sort} onChange={(sort) => set({ sort })} />
      <Select
        label={t('settings.pictureMode')}
        value={draft.pictureMode}
        options={modes}
        onChange={(pictureMode) => set({ pictureMode })}
      />
      <Select
        label={t('visitorTypes.approval')}
        value={draft.requireAuthorization}
        options={[
          { value: 'kiosk', label: t('visitorTypes.asKiosk') },
          { value: 'yes', label: t('visitorTypes.approvalYes') },
          { value: 'no', label: t('visitorTypes.approvalNo') },
        ]}
        onChange={(requireAuthorization) => set({ requireAuthorization })}
      />
      <Select
        label={t('visitorTypes.agreement')}
        value={draft.nda}
        options={[
          { value: 'kiosk', label: t('visitorTypes.asKiosk') },
          { value: 'none', label: t('visitorTypes.noAgreement') },
          { value: 'own', label: t('visitorTypes.ownAgreement') },
        ]}
        onChange={(nda) => set({ nda })}
      />
      {draft.nda === 'own' && (
        <label className="field">
          <span>{t('visitorTypes.agreementText')}</span>
          <textarea value={draft.ndaText} maxLength={50_000} onChange={(e) => set({ ndaText: e.target.value })} />
        </label>
      )}
      <fieldset className="field">
        <legend>{t('visitorTypes.visitorFields')}</legend>
        {visitorFieldNames.map((name) => (
          <Select
            key={name}
            label={t(`visitor.${name}`)}
            value={draft.visitorFields[name] ?? 'kiosk'}
            options={modes}
            onChange={(mode) => {
              const { [name]: _was, ...others } = draft.visitorFields;
              set({ visitorFields: mode === 'kiosk' ? others : { ...others, [name]: mode } });
            }}
          />
        ))}
      </fieldset>
      {props.data.customFields.length > 0 && (
        <fieldset className="field">
          <legend>{t('visitorTypes.customFields')}</legend>
          <Check
            label={t('visitorTypes.allFields')}
            checked={draft.allFields}
            onChange={(allFields) => set({ allFields })}
          />
          {!draft.allFields &&
            props.data.customFields.map((def) => (
              <Check
                key={def.id}
                label={fieldLabel(def, props.lang)}
                checked={draft.customFieldIds.includes(def.id)}
                onChange={(on) =>
                  set({
                    customFieldIds: on
                      ? [...draft.customFieldIds, def.id]
                      : draft.customFieldIds.filter((id) => id !== def.id),
                  })
                }
              />
            ))}
        </fieldset>
      )}
      <button type="button" className="btn btn-secondary" onClick={props.onClose}>
        {t('visitorTypes.close')}
      </button>
    </Section>
  );
}
