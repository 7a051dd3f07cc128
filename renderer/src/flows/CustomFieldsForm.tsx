import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '../components/ui.tsx';
import { type AnswerProblem, fieldLabel, optionLabel } from '../custom-fields.ts';
import type { CustomFieldDefinition } from '../types.ts';

const inputTypes: Record<string, string> = { Date: 'date', Email: 'email', Phone: 'tel' };

interface Props {
  defs: readonly CustomFieldDefinition[];
  answers: Readonly<Record<string, string>>;
  problems: Readonly<Record<string, AnswerProblem>>;
  lang: string;
  onChange: (id: string, value: string) => void;
}

/** The company's custom fields or questionnaire: text, number, date, e-mail, phone, one choice, or a tick. */
export function CustomFieldsForm(props: Props) {
  return (
    <div className="form">
      {props.defs.map((def) => (
        <CustomField key={def.id} def={def} {...props} />
      ))}
    </div>
  );
}

function CustomField({ def, answers, problems, lang, onChange }: Props & { def: CustomFieldDefinition }) {
  const { t } = useTranslation();
  const groupId = useId();
  const label = fieldLabel(def, lang);
  const value = answers[def.id] ?? '';
  const problem = problems[def.id];
  const error = problem ? t(`validation.${problem}`) : undefined;

  if (def.type === 'Dropdown') {
    return (
      <fieldset
        className={`field choices${error ? ' field-invalid' : ''}`}
        aria-describedby={error ? `${groupId}-error` : undefined}
      >
        <legend>
          {label}
          {!def.required && <span className="optional"> ({t('common.optional')})</span>}
        </legend>
        <div className="choice-list">
          {(def.options ?? []).map((option, index) => (
            <label key={option} className="choice">
              <input type="radio" name={groupId} checked={value === option} onChange={() => onChange(def.id, option)} />
              <span>{optionLabel(def, index, lang)}</span>
            </label>
          ))}
        </div>
        {error && (
          <p className="error" id={`${groupId}-error`}>
            {error}
          </p>
        )}
      </fieldset>
    );
  }

  if (def.type === 'Checkbox') {
    return (
      <div className={`field${error ? ' field-invalid' : ''}`}>
        <label className="choice">
          <input
            type="checkbox"
            checked={value === 'true'}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? `${groupId}-error` : undefined}
            onChange={(e) => onChange(def.id, e.target.checked ? 'true' : '')}
          />
          <span>{label}</span>
        </label>
        {error && (
          <p className="error" id={`${groupId}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  }

  return (
    <Field label={label} optional={!def.required} error={error}>
      {(control) => (
        <input
          {...control}
          type={inputTypes[def.type] ?? 'text'}
          inputMode={def.type === 'Number' ? 'decimal' : undefined}
          autoComplete="off"
          maxLength={5000}
          value={value}
          onChange={(e) => onChange(def.id, e.target.value)}
        />
      )}
    </Field>
  );
}
