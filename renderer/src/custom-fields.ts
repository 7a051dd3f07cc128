import { isAnswered, type ValueProblem, valueProblem } from '../../local-api/custom-fields/values.ts';
import type { AnswerItem, CustomFieldDefinition } from './types.ts';

/** Why an answer is refused, as the page says it (`validation.<problem>`): the service's reasons, in words. */
export type AnswerProblem = 'required' | 'date' | 'number' | 'email' | 'phone';

const shownAs: Record<ValueProblem, AnswerProblem> = {
  required: 'required',
  // A choice not offered, or a box neither ticked nor not: the screen cannot produce either; ask again.
  option: 'required',
  checkbox: 'required',
  date: 'date',
  number: 'number',
  email: 'email',
  phone: 'phone',
};

/** The field's name in the visitor's language, else its own name. */
export const fieldLabel = (def: CustomFieldDefinition, lang: string) => def.localizedName?.[lang] || def.name;

/** A dropdown's option as the visitor's language shows it, else the option itself (which is what is stored). */
export const optionLabel = (def: CustomFieldDefinition, index: number, lang: string) =>
  def.localizedOptions?.[lang]?.[index]?.trim() || (def.options?.[index] ?? '');

const rule = (def: CustomFieldDefinition) => ({
  type: def.type,
  options: def.options ?? [],
  required: Boolean(def.required),
});

/** A number as typed with a decimal comma ("1,5", as pt-BR and de write it) in the form the service takes. */
function sendable(def: CustomFieldDefinition, value: string): string {
  const text = value.trim();
  return def.type === 'Number' ? text.replace(',', '.') : text;
}

/** The answers' problems by field id, with the service's own rules (custom-fields/values.ts). */
export function answerProblems(
  defs: readonly CustomFieldDefinition[],
  answers: Readonly<Record<string, string>>,
): Record<string, AnswerProblem> {
  const problems: Record<string, AnswerProblem> = {};
  for (const def of defs) {
    const value = sendable(def, answers[def.id] ?? '');
    const problem = def.required && !isAnswered(rule(def), value) ? 'required' : valueProblem(rule(def), value);
    if (problem) problems[def.id] = shownAs[problem];
  }
  return problems;
}

/** The answers as POST /v1/visits takes them (docs/api.md, "Check-in data"), in the definitions' order; unanswered ones left out. */
export function answerItems(
  defs: readonly CustomFieldDefinition[],
  answers: Readonly<Record<string, string>>,
  location: string,
): AnswerItem[] {
  return defs.flatMap((def, sort) => {
    const value = sendable(def, answers[def.id] ?? '');
    if (value === '') return [];
    return [
      {
        customFieldId: def.id,
        value,
        name: def.name,
        ...(def.localizedName ? { localizedName: def.localizedName } : {}),
        sort,
        location,
      },
    ];
  });
}
