import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from './de.ts';
import { en } from './en.ts';
import { ptBR } from './pt-BR.ts';
import { zhHans } from './zh-Hans.ts';

/** The kiosk's languages, each named in itself (a visitor looks for their own language's name). */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'pt-BR', name: 'Português' },
  { code: 'de', name: 'Deutsch' },
  { code: 'zh-Hans', name: '简体中文' },
] as const;
export type Lang = (typeof languages)[number]['code'];

export const resources = {
  en: { translation: en },
  'pt-BR': { translation: ptBR },
  de: { translation: de },
  'zh-Hans': { translation: zhHans },
} as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

/** The kiosk language for a company's `lang` (or a browser's): `pt` → pt-BR, `zh-CN` → zh-Hans, else English. */
export function kioskLanguage(lang: string | null | undefined): Lang {
  const code = (lang ?? '').toLowerCase();
  if (code.startsWith('pt')) return 'pt-BR';
  if (code.startsWith('de')) return 'de';
  if (code.startsWith('zh')) return 'zh-Hans';
  return 'en';
}

export function initI18n(lang: Lang): typeof i18next {
  i18next.use(initReactI18next).init({
    resources,
    lng: lang,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes what it renders
    returnNull: false,
  });
  return i18next;
}
