import type { Lang } from '../i18n/languages.ts';
import { useShell } from './context.ts';

/** A page's words: a sentence, or a function that makes one of its parameters. */
export type Words = Record<string, string | ((...args: never[]) => string)>;

/**
 * A page's words in the four languages, each checked against the English ones: every page keeps its own, so a page's
 * words load with the page.
 */
export function defineWords<W extends Words>(words: {
  en: W;
  'pt-BR': NoInfer<W>;
  de: NoInfer<W>;
  'zh-Hans': NoInfer<W>;
}): Record<Lang, W> {
  return words;
}

/** The words of the console's current language. */
export function useWords<W extends Words>(words: Record<Lang, W>): W {
  return words[useShell().lang];
}
