import type { ReactNode } from 'react';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { companyLogo, type MailLogo, webLink } from '../logo/mail.ts';
import type { MailAttachment, OutgoingMail } from '../notifications/email.ts';
import { fill } from '../notifications/messages.ts';
import { isLanguage } from '../rules/lang.ts';
import { prepared } from '../store/rows.ts';
import { type InvitationMeeting, invitationLinks, meetingOfInvitee } from './links.ts';
import type { InvitationPayload } from './queue.ts';
import { type InvitationWords, invitationWords } from './words.ts';

/** What the invitation's QR code says: the kiosk's scanner and `POST /v1/kiosk/invitees/find` accept it. */
export const invitationQrText = (inviteeId: string) => `portaria:invitee:${inviteeId}`;

/** The calendar event's UID: one per invitation, the same in its updates and its cancellation. */
export const invitationUid = (inviteeId: string) => `invitee-${inviteeId}@portaria`;

interface CompanyFace {
  name: string;
  address: string | null;
  mapAddressUrl: string | null;
  pictureUrl: string | null;
  brandColor: string | null;
  lang: string;
}

/** Everything an invitation says, read once: the message, its HTML and its calendar event are made from it. */
interface Invitation {
  invitee: InviteeRow;
  company: CompanyFace;
  host: { name: string; email: string } | undefined;
  meeting: InvitationMeeting | undefined;
  words: InvitationWords;
  lang: string;
  kind: 'invite' | 'update' | 'cancel';
  sequence: number;
  start: number;
  end: number;
  when: string;
  where: string[];
  mapUrl: string | undefined;
  links: { register?: string; pass?: string };
  logo: MailLogo | undefined;
}

const qrCid = 'qr@portaria';
/** An invitation without a meeting is put in the calendar for an hour. */
const visitWithoutMeetingMs = 3_600_000;

async function readInvitation(
  ctx: Context,
  caller: Caller,
  invitee: InviteeRow,
  payload: InvitationPayload,
): Promise<Invitation> {
  const company = (await prepared(
    ctx.db,
    'SELECT name, address, mapAddressUrl, pictureUrl, brandColor, lang FROM companies WHERE id = ?',
  ).get(caller.companyId)) as CompanyFace;
  const host = (await prepared(ctx.db, 'SELECT name, email FROM hosts WHERE id = ? AND companyId = ?').get(
    invitee.hostId,
    caller.companyId,
  )) as { name: string; email: string } | undefined;
  const meeting = await meetingOfInvitee(ctx, invitee);
  const lang = invitee.lang && isLanguage(invitee.lang) ? invitee.lang : company.lang;
  const canceled = invitee.deletedAt !== null || invitee.status === 'canceled';
  const start = invitee.expectedAt;
  const end = meeting && meeting.end > start ? meeting.end : start + visitWithoutMeetingMs;
  const format = new Intl.DateTimeFormat(isLanguage(lang) ? lang : 'en', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: caller.timeZone,
  });
  return {
    invitee,
    company,
    host,
    meeting,
    words: invitationWords(lang),
    lang,
    kind: canceled ? 'cancel' : payload.change === 'update' ? 'update' : 'invite',
    sequence: payload.sequence,
    start,
    end,
    when: `${meeting ? format.formatRange(start, end) : format.format(start)} (${caller.timeZone})`,
    where: [company.address, meeting?.location].filter((line): line is string => Boolean(line)),
    mapUrl: webLink(company.mapAddressUrl),
    links: canceled ? {} : await invitationLinks(ctx, caller, invitee),
    logo: await companyLogo(ctx, company.pictureUrl),
  };
}

/** The subject: what happened to the visit, the company and the day. */
function subjectOf(invitation: Invitation, timeZone: string): string {
  const { words, kind, company, lang, start } = invitation;
  const date = new Intl.DateTimeFormat(isLanguage(lang) ? lang : 'en', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(start);
  const template = { invite: words.inviteSubject, update: words.updateSubject, cancel: words.cancelSubject }[kind];
  return fill(template, { company: company.name, date });
}

const introOf = ({ words, kind, company, host, when }: Invitation) =>
  fill({ invite: words.inviteIntro, update: words.updateIntro, cancel: words.cancelIntro }[kind], {
    company: company.name,
    host: host?.name ?? company.name,
    when,
  });

const hostMessageOf = (invitation: Invitation) => invitation.meeting?.message?.trim() || undefined;

const codeHintOf = ({ words, invitee }: Invitation) => fill(words.codeHint, { code: String(invitee.cardNumber) });

/** The plain-text part, which is also the calendar event's description. */
function textOf(invitation: Invitation): string {
  const { words, links, host } = invitation;
  const blocks: string[] = [
    fill(words.greeting, { name: invitation.invitee.name ?? '' }),
    introOf(invitation),
    [
      `${words.when}: ${invitation.when}`,
      ...(invitation.where.length ? [`${words.where}: ${invitation.where.join(', ')}`] : []),
      ...(invitation.mapUrl ? [`${words.openMap}: ${invitation.mapUrl}`] : []),
      ...(host ? [`${words.askFor}: ${host.name}`] : []),
    ].join('\n'),
  ];
  if (invitation.kind !== 'cancel') {
    const message = hostMessageOf(invitation);
    if (message) blocks.push(`${fill(words.hostMessage, { host: host?.name ?? '' })}:\n${message}`);
    blocks.push(`${words.codeTitle}\n${codeHintOf(invitation)}`);
    if (links.register) blocks.push(`${words.register}: ${links.register}\n${words.registerHint}`);
    if (links.pass) blocks.push(`${words.pass}: ${links.pass}\n${words.passHint}`);
    if (!links.register) blocks.push(words.atTheKiosk);
  }
  return blocks.join('\n\n');
}

/** The calendar event (RFC 5545): METHOD:REQUEST with the sequence, or METHOD:CANCEL with the same UID. */
async function calendarOf(
  ctx: Context,
  invitation: Invitation,
  description: string,
): Promise<NonNullable<OutgoingMail['calendar']>> {
  const { default: ical, ICalCalendarMethod, ICalEventStatus, ICalAttendeeRole } = await import('ical-generator');
  const cancel = invitation.kind === 'cancel';
  const calendar = ical({
    method: cancel ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    prodId: { company: 'Portaria', product: 'Invitations', language: invitation.lang.toUpperCase() },
  });
  const { words, company, meeting, host, invitee } = invitation;
  calendar.createEvent({
    id: invitationUid(invitee.id),
    sequence: invitation.sequence,
    stamp: new Date(ctx.clock.now()),
    start: new Date(invitation.start),
    end: new Date(invitation.end),
    summary: meeting?.title ?? fill(words.calendarSummary, { company: company.name }),
    description,
    location: invitation.where.join(', ') || company.name,
    status: cancel ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    ...(invitation.mapUrl ? { url: invitation.mapUrl } : {}),
    ...(host ? { organizer: { name: host.name, email: host.email } } : {}),
    attendees: [{ name: invitee.name ?? '', email: String(invitee.email), role: ICalAttendeeRole.REQ, rsvp: false }],
  });
  return { method: cancel ? 'CANCEL' : 'REQUEST', content: calendar.toString() };
}

/** The HTML part, made with React Email; its pictures are the message's inline images. */
async function htmlOf(invitation: Invitation): Promise<string> {
  // React is CommonJS: its functions are its default export, in the bundled service as in Node.
  const [{ default: React }, { render }, email] = await Promise.all([
    import('react'),
    import('@react-email/render'),
    import('@react-email/components'),
  ]);
  const h = React.createElement;
  const { words, links, host, company } = invitation;
  const accent = company.brandColor ?? '#1f4e79';
  const text = { fontSize: '15px', lineHeight: '22px', color: '#1a1a1a', margin: '0 0 12px' };
  const label = { ...text, margin: '0', color: '#555555', fontSize: '13px' };
  const row = (name: string, ...content: ReactNode[]) =>
    h(email.Section, { style: { margin: '0 0 12px' } }, h(email.Text, { style: label }, name), ...content);
  const button = (href: string, caption: string, hint: string) =>
    h(
      email.Section,
      { style: { margin: '16px 0' } },
      h(
        email.Button,
        {
          href,
          style: { background: accent, color: '#ffffff', padding: '12px 20px', borderRadius: '6px', fontSize: '15px' },
        },
        caption,
      ),
      h(email.Text, { style: { ...label, marginTop: '8px' } }, hint),
    );
  const message = hostMessageOf(invitation);
  const live = invitation.kind !== 'cancel';
  const document = h(
    email.Html,
    { lang: invitation.lang },
    h(email.Head),
    h(email.Preview, null, introOf(invitation)),
    h(
      email.Body,
      { style: { backgroundColor: '#f4f4f5', fontFamily: 'Helvetica, Arial, sans-serif' } },
      h(
        email.Container,
        { style: { backgroundColor: '#ffffff', padding: '24px', maxWidth: '560px' } },
        invitation.logo ? h(email.Img, { src: invitation.logo.src, alt: company.name, height: 48 }) : null,
        h(email.Heading, { as: 'h1', style: { fontSize: '20px', color: '#1a1a1a' } }, company.name),
        h(email.Text, { style: text }, fill(words.greeting, { name: invitation.invitee.name ?? '' })),
        h(email.Text, { style: text }, introOf(invitation)),
        row(words.when, h(email.Text, { style: text }, invitation.when)),
        invitation.where.length || invitation.mapUrl
          ? row(
              words.where,
              ...invitation.where.map((line) => h(email.Text, { style: { ...text, margin: '0' } }, line)),
              invitation.mapUrl ? h(email.Link, { href: invitation.mapUrl }, words.openMap) : null,
            )
          : null,
        host ? row(words.askFor, h(email.Text, { style: text }, host.name)) : null,
        live && message
          ? row(
              fill(words.hostMessage, { host: host?.name ?? '' }),
              h(email.Text, { style: { ...text, whiteSpace: 'pre-line' } }, message),
            )
          : null,
        live ? h(email.Hr) : null,
        live ? h(email.Heading, { as: 'h2', style: { fontSize: '17px' } }, words.codeTitle) : null,
        live ? h(email.Img, { src: `cid:${qrCid}`, alt: words.qrAlt, width: 200, height: 200 }) : null,
        live ? h(email.Text, { style: text }, codeHintOf(invitation)) : null,
        live && links.register ? button(links.register, words.register, words.registerHint) : null,
        live && links.pass ? button(links.pass, words.pass, words.passHint) : null,
        live && !links.register ? h(email.Text, { style: text }, words.atTheKiosk) : null,
      ),
    ),
  );
  return await render(document);
}

/** The QR code of the invitation as a PNG. */
async function qrPng(inviteeId: string): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode');
  return await QRCode.toBuffer(invitationQrText(inviteeId), { type: 'png', width: 240, margin: 2 });
}

/**
 * The invitation e-mail of an invitee as it is now, in its language (else the company's): an invitation, an
 * update, or a cancellation when it is canceled or deleted; with its calendar event, and the QR code and logo
 * as inline images.
 */
export async function invitationMail(
  ctx: Context,
  caller: Caller,
  invitee: InviteeRow,
  payload: InvitationPayload,
): Promise<Omit<OutgoingMail, 'key'>> {
  const invitation = await readInvitation(ctx, caller, invitee, payload);
  const text = textOf(invitation);
  const calendar = await calendarOf(ctx, invitation, text);
  const attachments: MailAttachment[] = [];
  if (invitation.logo?.attachment) attachments.push(invitation.logo.attachment);
  if (invitation.kind !== 'cancel') {
    attachments.push({
      filename: 'invitation-qr.png',
      content: await qrPng(invitee.id),
      contentType: 'image/png',
      cid: qrCid,
    });
  }
  // Besides the message's text/calendar part: some clients offer only an attached file to add to the calendar.
  attachments.push({ filename: 'invite.ics', content: calendar.content, contentType: 'application/ics' });
  return {
    to: [String(invitee.email)],
    subject: subjectOf(invitation, caller.timeZone),
    text,
    html: await htmlOf(invitation),
    attachments,
    calendar,
  };
}
