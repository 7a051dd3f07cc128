/*
 * The languages, apart from their words: the console names them without loading the kiosk's four dictionaries.
 */

/** The kiosk's languages, each named in itself (a visitor looks for their own language's name). */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'pt-BR', name: 'Português' },
  { code: 'de', name: 'Deutsch' },
  { code: 'zh-Hans', name: '简体中文' },
] as const;
export type Lang = (typeof languages)[number]['code'];

/** The kiosk language for a company's `lang` (or a browser's): `pt` → pt-BR, `zh-CN` → zh-Hans, else English. */
export function kioskLanguage(lang: string | null | undefined): Lang {
  const code = (lang ?? '').toLowerCase();
  if (code.startsWith('pt')) return 'pt-BR';
  if (code.startsWith('de')) return 'de';
  if (code.startsWith('zh')) return 'zh-Hans';
  return 'en';
}
