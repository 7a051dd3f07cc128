import { regexes } from 'zod/v4/core';

/** The e-mail pattern of the API (zod's `z.email()`); the kiosk's page checks e-mails with this same rule. */
export const emailPattern = regexes.email;
export const emailMaxLength = 254;

/** Whether the API accepts this e-mail: trimmed, at most 254 characters, of zod's e-mail pattern. */
export function isValidEmail(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.length <= emailMaxLength && emailPattern.test(trimmed);
}
