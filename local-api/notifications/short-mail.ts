import type { MailLogo } from '../logo/mail.ts';

/** A short message of the company's: a few paragraphs, one button, small notes under it. */
export interface ShortMail {
  lang: string;
  company: string;
  /** `#rrggbb`, or null for the default. */
  brandColor: string | null;
  logo?: MailLogo | undefined;
  /** The first is the greeting; the second, if any, is also the preview mail clients show. */
  paragraphs: readonly string[];
  button?: { href: string; caption: string } | undefined;
  notes: readonly string[];
}

/**
 * The HTML part of a short message (a pass, an account e-mail), made with React Email: the company's logo and
 * name, the paragraphs, a button in the company's colour, the notes in small print.
 */
export async function shortMailHtml(mail: ShortMail): Promise<string> {
  // React is CommonJS: its functions are its default export, in the bundled service as in Node.
  const [{ default: React }, { render }, email] = await Promise.all([
    import('react'),
    import('@react-email/render'),
    import('@react-email/components'),
  ]);
  const h = React.createElement;
  const text = { fontSize: '15px', lineHeight: '22px', color: '#1a1a1a', margin: '0 0 12px' };
  const accent = mail.brandColor && /^#[0-9a-f]{6}$/i.test(mail.brandColor) ? mail.brandColor : '#1f4e79';
  const button = mail.button;
  const document = h(
    email.Html,
    { lang: mail.lang },
    h(email.Head),
    h(email.Preview, null, mail.paragraphs[1] ?? mail.paragraphs[0] ?? mail.company),
    h(
      email.Body,
      { style: { backgroundColor: '#f4f4f5', fontFamily: 'Helvetica, Arial, sans-serif' } },
      h(
        email.Container,
        { style: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px' } },
        mail.logo ? h(email.Img, { src: mail.logo.src, alt: mail.company, height: 48 }) : null,
        h(email.Heading, { as: 'h1', style: { fontSize: '20px', color: '#1a1a1a' } }, mail.company),
        ...mail.paragraphs.map((paragraph) => h(email.Text, { style: text }, paragraph)),
        button
          ? h(
              email.Section,
              { style: { margin: '16px 0' } },
              h(
                email.Button,
                {
                  href: button.href,
                  style: {
                    background: accent,
                    color: '#ffffff',
                    padding: '12px 20px',
                    borderRadius: '6px',
                    fontSize: '15px',
                  },
                },
                button.caption,
              ),
            )
          : null,
        ...mail.notes.map((note) => h(email.Text, { style: { ...text, fontSize: '13px', color: '#555555' } }, note)),
      ),
    ),
  );
  return await render(document);
}
