import { isValidCpf } from '../../local-api/rules/cpf.ts';
import { emailMaxLength, isValidEmail } from '../../local-api/rules/email.ts';
import { phonePattern, visitorTextLimits } from '../../local-api/rules/visitor.ts';
import type { FieldMode, VisitorFieldName } from './types.ts';

export type VisitorKey = 'name' | VisitorFieldName;
export type VisitorData = Partial<Record<VisitorKey, string>>;
/** Why a value is refused; each has its sentence in every language (`validation.<problem>`). */
export type Problem = 'required' | 'email' | 'cpf' | 'phone';

/** The longest text each field takes, as the API accepts it (the CPF is checked by its digits). */
export const maxLength: Record<VisitorKey, number> = { ...visitorTextLimits, email: emailMaxLength, cpf: 14 };

/** The fields a walk-in is asked, in the order shown: the name first, then those the settings turn on. */
export function askedFields(modes: Record<VisitorFieldName, FieldMode>): { key: VisitorKey; required: boolean }[] {
  const asked = (Object.entries(modes) as [VisitorFieldName, FieldMode][])
    .filter(([, mode]) => mode !== 'off')
    .map(([key, mode]) => ({ key, required: mode === 'required' }));
  return [{ key: 'name', required: true }, ...asked];
}

/** Checks the visitor's data as the API will: the same e-mail, CPF and phone rules, and the settings' required. */
export function visitorProblems(
  data: VisitorData,
  fields: { key: VisitorKey; required: boolean }[],
): Partial<Record<VisitorKey, Problem>> {
  const problems: Partial<Record<VisitorKey, Problem>> = {};
  for (const { key, required } of fields) {
    const value = data[key]?.trim() ?? '';
    if (value === '') {
      if (required) problems[key] = 'required';
      continue;
    }
    if (key === 'email' && !isValidEmail(value)) problems[key] = 'email';
    if (key === 'cpf' && !isValidCpf(value)) problems[key] = 'cpf';
    if (key === 'phone' && !phonePattern.test(value)) problems[key] = 'phone';
  }
  return problems;
}

/** The visitor object of POST /v1/visits: trimmed values of the asked fields, empty ones left out. */
export function visitorBody(data: VisitorData, fields: { key: VisitorKey }[]): VisitorData {
  const body: VisitorData = {};
  for (const { key } of fields) {
    const value = data[key]?.trim();
    if (value) body[key] = value;
  }
  return body;
}
