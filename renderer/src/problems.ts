import i18next from 'i18next';
import { ApiProblem } from './api.ts';

/** A refusal of the page itself, already in words (a form missing what the service would refuse). */
export class Refusal extends Error {}

/** An error in words, in the current language: the API's code has its sentence, anything else the general one. */
export function problemText(error: unknown): string {
  if (error instanceof Refusal) return error.message;
  if (error instanceof ApiProblem) {
    const key = `errors.${error.type}`;
    if (i18next.exists(key)) return i18next.t(key as 'errors.UNKNOWN', error.extra);
  }
  return i18next.t('errors.UNKNOWN');
}
