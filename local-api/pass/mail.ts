import type { OutgoingMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
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
  // React is CommonJS: its functions are its default export, in the bundled service as in Node.
  const [{ default: React }, { render }, email] = await Promise.all([
    import('react'),
    import('@react-email/render'),
    import('@react-email/components'),
  ]);
  const h = React.createElement;
  const text = { fontSize: '15px', lineHeight: '22px', color: '#1a1a1a', margin: '0 0 12px' };
  const accent = mail.brandColor && /^#[0-9a-f]{6}$/i.test(mail.brandColor) ? mail.brandColor : '#1f4e79';
  const document = h(
    email.Html,
    { lang: mail.lang },
    h(email.Head),
    h(email.Preview, null, intro),
    h(
      email.Body,
      { style: { backgroundColor: '#f4f4f5', fontFamily: 'Helvetica, Arial, sans-serif' } },
      h(
        email.Container,
        { style: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px' } },
        h(email.Heading, { as: 'h1', style: { fontSize: '20px', color: '#1a1a1a' } }, mail.company),
        h(email.Text, { style: text }, greeting),
        h(email.Text, { style: text }, intro),
        h(
          email.Section,
          { style: { margin: '16px 0' } },
          h(
            email.Button,
            {
              href: mail.link,
              style: {
                background: accent,
                color: '#ffffff',
                padding: '12px 20px',
                borderRadius: '6px',
                fontSize: '15px',
              },
            },
            words.mailButton,
          ),
        ),
        h(email.Text, { style: { ...text, fontSize: '13px', color: '#555555' } }, mail.link),
      ),
    ),
  );
  return {
    subject: fill(words.mailSubject, values),
    text: `${greeting}\n\n${intro}\n\n${mail.link}`,
    html: await render(document),
  };
}
