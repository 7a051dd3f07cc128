import type { OutgoingMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
import { shortMailHtml } from '../notifications/short-mail.ts';
import { passWords } from './words.ts';

/** What a pass e-mail says, fixed when it was queued: it is written out when sent. */
export interface PassMail {
  lang: string;
  name: string;
  company: string;
  /** `#rrggbb`, or null for the default. */
  brandColor: string | null;
  link: string;
}

/**
 * The walk-in's pass e-mail: the link on a line of its own in the text (mail clients make it tappable) and, in
 * the HTML part made with React Email, a button in the company's colour.
 */
export async function passMail(mail: PassMail): Promise<Omit<OutgoingMail, 'key' | 'to'>> {
  const words = passWords(mail.lang);
  const values = { name: mail.name, company: mail.company };
  const greeting = fill(words.mailGreeting, values);
  const intro = fill(words.mailIntro, values);
  return {
    subject: fill(words.mailSubject, values),
    text: `${greeting}\n\n${intro}\n\n${mail.link}`,
    html: await shortMailHtml({
      lang: mail.lang,
      company: mail.company,
      brandColor: mail.brandColor,
      paragraphs: [greeting, intro],
      button: { href: mail.link, caption: words.mailButton },
      notes: [mail.link],
    }),
  };
}
