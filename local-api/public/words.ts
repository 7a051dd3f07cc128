import type { Language } from '../rules/lang.ts';

/** The languages of the public pages: the service's four. */
export type PageLang = Language;

interface PageWords {
  product: string;
  linkProblemTitle: string;
  linkInvalid: string;
  linkExpired: string;
  linkUsed: string;
  problemTitle: string;
  problemText: string;
}

/*
 * The words every public page shares; each feature's pages keep their own beside them. A link's problem never says
 * which part was wrong: a guesser learns nothing.
 */
const words: Record<PageLang, PageWords> = {
  en: {
    product: 'Visitors',
    linkProblemTitle: 'This link cannot be used',
    linkInvalid: 'The link is not valid. Check that it was copied whole, or ask for a new message.',
    linkExpired: 'The link has expired. Ask for a new message.',
    linkUsed: 'The link was used already.',
    problemTitle: 'Something went wrong',
    problemText: 'The page could not be shown. Try again in a moment.',
  },
  'pt-BR': {
    product: 'Visitantes',
    linkProblemTitle: 'Este link não pode ser usado',
    linkInvalid: 'O link não é válido. Confira se foi copiado por inteiro ou peça uma nova mensagem.',
    linkExpired: 'O link expirou. Peça uma nova mensagem.',
    linkUsed: 'O link já foi usado.',
    problemTitle: 'Algo deu errado',
    problemText: 'Não foi possível mostrar a página. Tente de novo em instantes.',
  },
  de: {
    product: 'Besucher',
    linkProblemTitle: 'Dieser Link kann nicht verwendet werden',
    linkInvalid:
      'Der Link ist ungültig. Prüfen Sie, ob er vollständig kopiert wurde, oder fordern Sie eine neue Nachricht an.',
    linkExpired: 'Der Link ist abgelaufen. Fordern Sie eine neue Nachricht an.',
    linkUsed: 'Der Link wurde bereits verwendet.',
    problemTitle: 'Etwas ist schiefgelaufen',
    problemText: 'Die Seite konnte nicht angezeigt werden. Versuchen Sie es gleich noch einmal.',
  },
  'zh-Hans': {
    product: '访客',
    linkProblemTitle: '此链接无法使用',
    linkInvalid: '链接无效。请确认链接已完整复制，或索取新的消息。',
    linkExpired: '链接已过期。请索取新的消息。',
    linkUsed: '此链接已被使用。',
    problemTitle: '出了点问题',
    problemText: '无法显示此页面。请稍后再试。',
  },
};

export const pageWords = (lang: PageLang): PageWords => words[lang];
