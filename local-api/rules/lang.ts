/** The languages the service speaks (messages, a company's `lang`, an invitee's `lang`). */
export const languages = ['en', 'pt-BR', 'de', 'zh-Hans'] as const;
export type Language = (typeof languages)[number];

export const isLanguage = (value: string): value is Language => (languages as readonly string[]).includes(value);
