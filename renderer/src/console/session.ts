import type { Lang } from '../i18n/languages.ts';

/** A person's role in the company: the host's `role` (docs/api.md, "Hosts"), which decides the console's pages. */
export const personRoles = ['ADMIN', 'MANAGER', 'SECURITY', 'FRONTDESK', 'HOST', 'EMPLOYEE'] as const;
export type PersonRole = (typeof personRoles)[number];

/** Who is signed in, as `GET /v1/account/me` answers (docs/api.md, "Accounts"). */
export interface ConsoleSession {
  account: {
    hostId: string;
    companyId: string;
    name: string;
    email: string;
    role: PersonRole;
    lang: string | null;
  };
  company: {
    id: string;
    name: string;
    lang: string;
    timeZone: string;
    brandColor: string | null;
  };
  csrfToken: string;
}

/** Where the console's language comes from, first found first: the address, the person's choice, their account, the browser. */
export interface LanguageSources {
  asked: string | null;
  chosen: string | null;
  account: string | null | undefined;
  browser: string;
}

const langs: readonly string[] = ['en', 'pt-BR', 'de', 'zh-Hans'];

/** The console's language: the first source that names one of the four exactly; the browser's, by its prefix. */
export function consoleLanguage(sources: LanguageSources, fromPrefix: (lang: string) => Lang): Lang {
  for (const named of [sources.asked, sources.chosen, sources.account]) {
    if (named && langs.includes(named)) return named as Lang;
  }
  return fromPrefix(sources.browser);
}
