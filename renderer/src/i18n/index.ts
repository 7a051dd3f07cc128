import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { de } from './de.ts';
import { en } from './en.ts';
import type { Lang } from './languages.ts';
import { ptBR } from './pt-BR.ts';
import { zhHans } from './zh-Hans.ts';

export { kioskLanguage, type Lang, languages } from './languages.ts';

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
