import { isValidEmail } from '../rules/email.ts';
import { parseDateTime } from '../rules/time.ts';

/*
 * What makes an answer to a custom field acceptable. Pure (no zod, no database), so the service, which refuses a
 * wrong answer, and the kiosk's page, which says what is wrong before sending, apply the very same rules.
 */

/** Why an answer does not fit its definition (INVALID_CUSTOM_FIELD's `reason`). */
export type ValueProblem = 'required' | 'option' | 'checkbox' | 'date' | 'number' | 'email' | 'phone';

export interface FieldRule {
  type: string;
  options: readonly string[];
  required: boolean;
}

/** Why a value does not fit its definition's type, or undefined when it fits. An empty value is "no answer". */
export function valueProblem(definition: FieldRule, value: string): ValueProblem | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  switch (definition.type) {
    case 'Dropdown':
      return definition.options.includes(text) ? undefined : 'option';
    case 'Checkbox':
      return text === 'true' || text === 'false' ? undefined : 'checkbox';
    case 'Date':
      return parseDateTime(text, 'UTC') === undefined ? 'date' : undefined;
    case 'Number':
      return /^-?\d+(\.\d+)?$/.test(text) ? undefined : 'number';
    case 'Email':
      return isValidEmail(text) ? undefined : 'email';
    case 'Phone':
      return /^[\d\s()+.-]{6,40}$/.test(text) ? undefined : 'phone';
    default:
      return undefined;
  }
}

/** A required field is answered when its value is not empty; a required checkbox (a consent) when it is ticked. */
export const isAnswered = (definition: FieldRule, value: string | undefined): boolean =>
  value !== undefined && value.trim() !== '' && (definition.type !== 'Checkbox' || value.trim() === 'true');
