import { isValidEmail } from '../../local-api/rules/email.ts';
import { phonePattern } from '../../local-api/rules/visitor.ts';
import type { AnswerItem, CustomFieldDefinition } from './types.ts';

/** Why a custom field's answer is refused (`validation.<problem>`). */
export type AnswerProblem = 'required' | 'number' | 'date' | 'email' | 'phone';

export interface Choice {
  value: string;
  label: string;
  isCorrect?: boolean | undefined;
}

/** A definition's choices, whether the service lists them as text or as objects. */
export function choicesOf(def: CustomFieldDefinition): Choice[] {
  return (def.options ?? []).flatMap((option) => {
    if (typeof option === 'string') return [{ value: option, label: option }];
    const value = option.value ?? option.label;
    return value === undefined ? [] : [{ value, label: option.label ?? value, isCorrect: option.isCorrect }];
  });
}

/** The field's name in the visitor's language, else its own name. */
export const fieldLabel = (def: CustomFieldDefinition, lang: string) => def.localizedName?.[lang] || def.name;

/** Several ticked choices of one Checkbox field are kept in one answer, one per line. */
export const choiceSeparator = '\n';

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

export function answerProblems(
  defs: readonly CustomFieldDefinition[],
  answers: Readonly<Record<string, string>>,
): Record<string, AnswerProblem> {
  const problems: Record<string, AnswerProblem> = {};
  for (const def of defs) {
    const value = (answers[def.id] ?? '').trim();
    const empty = value === '' || (def.type === 'Checkbox' && choicesOf(def).length === 0 && value !== 'true');
    if (empty) {
      if (def.required) problems[def.id] = 'required';
      continue;
    }
    if (def.type === 'Number' && !Number.isFinite(Number(value.replace(',', '.')))) problems[def.id] = 'number';
    if (def.type === 'Date' && !isoDate.test(value)) problems[def.id] = 'date';
    if (def.type === 'Email' && !isValidEmail(value)) problems[def.id] = 'email';
    if (def.type === 'Phone' && !phonePattern.test(value)) problems[def.id] = 'phone';
  }
  return problems;
}

/** The answers as POST /v1/visits takes them (section 2.6), in the definitions' order; unanswered ones left out. */
export function answerItems(
  defs: readonly CustomFieldDefinition[],
  answers: Readonly<Record<string, string>>,
  location: string,
): AnswerItem[] {
  return defs.flatMap((def, sort) => {
    const value = (answers[def.id] ?? '').trim();
    if (value === '') return [];
    const choices = choicesOf(def);
    const judged = choices.some((c) => c.isCorrect !== undefined);
    const chosen = value.split(choiceSeparator);
    const isCorrect = judged ? choices.every((c) => (c.isCorrect === true) === chosen.includes(c.value)) : undefined;
    return [
      {
        customFieldId: def.id,
        value,
        name: def.name,
        ...(def.localizedName ? { localizedName: def.localizedName } : {}),
        sort,
        location,
        ...(location === 'QUESTIONNAIRE' && isCorrect !== undefined ? { isCorrect } : {}),
      },
    ];
  });
}
