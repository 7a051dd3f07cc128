import type { Context } from '../context.ts';
import { emailConfigured } from '../invitations/queue.ts';
import { companyLogo } from '../logo/mail.ts';
import { type OutgoingMail, sendMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { shortMailHtml } from '../notifications/short-mail.ts';
import { publicAddress } from '../public/address.ts';
import { enqueue, type JobHandler, PermanentJobError } from '../queue/queue.ts';
import { prepared } from '../store/rows.ts';
import { consoleLink, createToken, type TokenPurpose } from './tokens.ts';
import { type AccountMailWords, accountMailWords } from './words.ts';

/*
 * Account e-mails (docs/console.md, "Signing in and accounts"): the welcome with its set-password link, a password
 * reset, a sign-in link. Queued in the transaction of the write that calls for them; the link's token is made when
 * the job runs, so no usable token waits in the queue's table.
 */

export const accountMailKind = 'account-email';

interface AccountMailPayload {
  hostId: string;
  purpose: TokenPurpose;
}

/**
 * What tells one account e-mail from another of the same person and purpose: each welcome an admin asks for is a
 * message of its own; resets and sign-in links, which anyone may ask for, are one a minute at most (the queue keeps
 * one job per key), so a stranger cannot flood a person's mailbox.
 */
const mailSlot = (ctx: Pick<Context, 'clock' | 'random'>, purpose: TokenPurpose): string =>
  purpose === 'welcome' ? ctx.random.bytes(8).toString('hex') : String(Math.floor(ctx.clock.now() / 60_000));

/** Queues an account e-mail to a person, when their company sends e-mail. Answers whether it was queued. */
export async function queueAccountMail(
  ctx: Pick<Context, 'db' | 'clock' | 'runtime' | 'random'>,
  person: { companyId: string; hostId: string },
  purpose: TokenPurpose,
): Promise<boolean> {
  if (!(await emailConfigured(ctx, person.companyId))) return false;
  const payload: AccountMailPayload = { hostId: person.hostId, purpose };
  await enqueue(ctx, {
    companyId: person.companyId,
    kind: accountMailKind,
    idempotencyKey: `${person.hostId}:${purpose}:${mailSlot(ctx, purpose)}`,
    payload,
    // The company's SMTP server: its circuit breaker is the host notifications' e-mail's.
    endpoint: 'notification:email',
    // A person waits for a reset or sign-in link; a welcome can wait behind what is urgent.
    priority: purpose === 'welcome' ? 'normal' : 'urgent',
  });
  return true;
}

interface Recipient {
  name: string;
  email: string;
  companyName: string;
  lang: string;
  pictureUrl: string | null;
  brandColor: string | null;
}

const parts = (words: AccountMailWords, purpose: TokenPurpose) =>
  ({
    welcome: {
      subject: words.welcomeSubject,
      intro: words.welcomeIntro,
      button: words.welcomeButton,
      hint: words.welcomeHint,
    },
    reset: { subject: words.resetSubject, intro: words.resetIntro, button: words.resetButton, hint: words.resetHint },
    link: { subject: words.linkSubject, intro: words.linkIntro, button: words.linkButton, hint: words.linkHint },
  })[purpose];

/** The message of an account e-mail: with its link where the service has a public address, else (a welcome) without. */
export async function accountMail(
  ctx: Context,
  to: Recipient,
  purpose: TokenPurpose,
  link: string | undefined,
): Promise<Omit<OutgoingMail, 'key'>> {
  const words = accountMailWords(to.lang);
  const says = parts(words, purpose);
  const values = { company: to.companyName, name: to.name };
  const greeting = fill(words.greeting, values);
  const intro = fill(says.intro, values);
  const linkLines = link ? [`${says.button}: ${link}`, says.hint] : [words.welcomeNoLink];
  const text = [greeting, intro, linkLines.join('\n'), ...(purpose === 'welcome' ? [] : [words.notYou])].join('\n\n');
  const logo = await companyLogo(ctx, to.pictureUrl);
  const html = await shortMailHtml({
    lang: to.lang,
    company: to.companyName,
    brandColor: to.brandColor,
    logo,
    paragraphs: [greeting, intro, ...(link ? [] : [words.welcomeNoLink])],
    button: link ? { href: link, caption: says.button } : undefined,
    notes: [...(link ? [says.hint] : []), ...(purpose === 'welcome' ? [] : [words.notYou])],
  });
  return {
    to: [to.email],
    subject: fill(says.subject, values),
    text,
    html,
    ...(logo?.attachment ? { attachments: [logo.attachment] } : {}),
  };
}

/**
 * Sends a queued account e-mail to the person as they are now (none to a person deactivated or deleted since),
 * with a fresh link. A reset or sign-in link without a public address would reach no one: such mails are not
 * queued (routes.ts), and one queued before the address went away is dropped.
 */
export function deliverAccountMail(ctx: Context): JobHandler {
  return async (job, signal) => {
    const { hostId, purpose } = job.payload as AccountMailPayload;
    const to = (await prepared(
      ctx.db,
      `SELECT h.name, h.email, c.name AS companyName, c.lang, c.pictureUrl, c.brandColor FROM hosts h
       JOIN companies c ON c.id = h.companyId AND c.deletedAt IS NULL
       WHERE h.id = ? AND h.companyId = ? AND h.deletedAt IS NULL AND h.isActive = 1`,
    ).get(hostId, job.companyId)) as Recipient | undefined;
    if (!to) return;
    const base = await publicAddress(ctx, job.companyId);
    if (!base && purpose !== 'welcome') return;
    const settings = await findNotificationSettings(ctx, job.companyId);
    if (!settings?.smtpHost) throw new PermanentJobError('e-mail is no longer configured');
    const link = base
      ? consoleLink(base, purpose, (await createToken(ctx, { companyId: job.companyId, hostId }, purpose)).token)
      : undefined;
    const mail = await accountMail(ctx, to, purpose, link);
    await sendMail(ctx, settings, { key: job.idempotencyKey, ...mail }, signal);
  };
}
