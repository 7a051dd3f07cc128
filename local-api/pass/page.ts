import { Router } from 'express';
import { issueCode, type QrCode } from '../access/qr.ts';
import { qrPng, qrSettingsOf } from '../access/qr-routes.ts';
import { companyCaller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { meetingOfInvitee, visitWindow } from '../invitations/links.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { dayAround } from '../kiosk/visitor-store.ts';
import { fill } from '../notifications/messages.ts';
import { openLink } from '../public/links.ts';
import { type Html, html, type PageBrand, type PublicPages, requestedLang, sendPage } from '../public/page.ts';
import type { PageLang } from '../public/words.ts';
import { firstNameAndInitial } from '../rules/names.ts';
import { prepared } from '../store/rows.ts';
import { inviteePassState, type PassState, type PassVisit, visitPassState } from './state.ts';
import { passWords } from './words.ts';

/*
 * GET /p/pass/<token>: the visitor's live gate code on their phone (docs/api.md, "Public pages"). The link names a
 * visit (a walk-in's message) or an invitee (the invitation); the page shows the code the kiosk would show for it,
 * made by the same generator, only inside the visit's window (state.ts), and shows the next code by itself when
 * one expires (a live page: the public pages' script, since their CSP allows no inline one). Opening it changes
 * nothing, so a mail scanner that fetches the link does no harm.
 */

/** How often a page with nothing to show yet looks again (a visit waiting for its host, or still syncing). */
const waitingRefreshSeconds = 10;
/** How often a static code's page looks again, so that it says "ended" soon after the check-out. */
const staticRefreshSeconds = 60;
/** An invitee's page opened days ahead looks again at most this often (its day begins meanwhile). */
const upcomingRefreshSeconds = 3600;

type PassRow<T> = (T & { name: string | null }) | undefined;

/** The visit or invitee a link names, and the pass it makes now (a kiosk's visit may not have reached a hub yet). */
async function passOf(ctx: Context, caller: Caller, subjectId: string, now: number) {
  const visitOf = async (where: string, id: string) =>
    (await prepared(
      ctx.db,
      `SELECT name, checkoutAt, isInsideCompany, authorizationStatus, cardNumber, deletedAt FROM visits
       WHERE ${where} = ? AND companyId = ? ORDER BY deletedAt IS NULL DESC, checkinAt DESC LIMIT 1`,
    ).get(id, caller.companyId)) as PassRow<PassVisit>;
  const visit = await visitOf('id', subjectId);
  if (visit) return { name: visit.name, state: visitPassState(visit) };
  const invitee = (await prepared(ctx.db, 'SELECT * FROM invitees WHERE id = ? AND companyId = ?').get(
    subjectId,
    caller.companyId,
  )) as InviteeRow | undefined;
  if (!invitee) return { name: null, state: visitPassState(undefined) };
  const arrival = await visitOf('inviteeId', subjectId);
  // The invitation's window (invitations/links.ts), opened at the start of its day: a guest may come early.
  const visitEnd = visitWindow(invitee, await meetingOfInvitee(ctx, invitee), caller.timeZone).end;
  const window = { start: dayAround(Number(invitee.expectedAt), caller.timeZone).start, end: visitEnd };
  return { name: invitee.name, state: inviteePassState(invitee, arrival, window, now) };
}

/** The company's name and colour, which head the page. */
async function brandOf(ctx: Context, companyId: string): Promise<PageBrand | undefined> {
  const row = (await prepared(ctx.db, 'SELECT name, brandColor FROM companies WHERE id = ?').get(companyId)) as
    | { name: string; brandColor: string | null }
    | undefined;
  return row && { companyName: row.name, brandColor: row.brandColor };
}

const timeIn = (lang: PageLang, timeZone: string, at: number, style: 'date' | 'time') =>
  new Intl.DateTimeFormat(lang, {
    ...(style === 'date' ? { dateStyle: 'full' } : { timeStyle: 'medium' }),
    timeZone,
  }).format(at);

/** The code the gate accepts for this card now; undefined when there is no card or the integration makes none. */
async function liveCode(ctx: Context, caller: Caller, cardNumber: number | undefined): Promise<QrCode | undefined> {
  try {
    const settings = await qrSettingsOf(ctx, caller.companyId);
    return cardNumber === undefined
      ? undefined
      : issueCode(settings, 'visitor', cardNumber, ctx.clock.now(), ctx.random);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

interface Shown {
  status: number;
  body: Html;
  refreshSeconds?: number;
}

async function shownPass(
  ctx: Context,
  caller: Caller,
  lang: PageLang,
  pass: { name: string | null; state: PassState },
): Promise<Shown> {
  const words = passWords(lang);
  const now = ctx.clock.now();
  const card = (...content: (Html | string)[]) => html`<div class="card"><h1>${words.title}</h1>${content}</div>`;
  const notice = (text: string) => html`<p class="notice">${text}</p>`;
  const { state } = pass;
  switch (state.kind) {
    case 'pending':
      return { status: 200, body: card(notice(words.pending)), refreshSeconds: waitingRefreshSeconds };
    case 'waiting':
      return { status: 200, body: card(notice(words.waiting)), refreshSeconds: waitingRefreshSeconds };
    case 'ended':
      return { status: 410, body: card(notice(words.ended)) };
    case 'upcoming': {
      const date = timeIn(lang, caller.timeZone, state.startsAt, 'date');
      const refreshSeconds = Math.min(upcomingRefreshSeconds, Math.ceil((state.startsAt - now) / 1000));
      return { status: 200, body: card(notice(fill(words.upcoming, { date }))), refreshSeconds };
    }
    case 'live': {
      const code = await liveCode(ctx, caller, state.cardNumber);
      if (!code) return { status: 409, body: card(notice(words.unavailable)) };
      const { firstName, initial } = firstNameAndInitial(pass.name);
      const picture = (await qrPng(code.payload)).toString('base64');
      const until =
        code.expiresAt === null
          ? words.untilCheckout
          : fill(words.validUntil, { time: timeIn(lang, caller.timeZone, code.expiresAt, 'time') });
      return {
        status: 200,
        body: card(
          firstName
            ? html`<p class="muted">${fill(words.forName, { name: `${firstName} ${initial}`.trim() })}</p>`
            : '',
          html`<img class="qr" src="data:image/png;base64,${picture}" alt="${words.qrLabel}">`,
          // A TOTP code is short enough to read out or type; an AES code is 59 characters of base64.
          code.mode === 'totp' ? html`<p class="code">${code.payload}</p>` : '',
          html`<p>${words.showAtGate} ${until}</p>`,
          code.expiresAt === null ? '' : html`<p class="muted">${words.renews}</p>`,
        ),
        // A dynamic code is replaced the second it expires; a static one is looked at again for the check-out.
        refreshSeconds:
          code.expiresAt === null ? staticRefreshSeconds : Math.max(1, Math.ceil((code.expiresAt - now) / 1000)),
      };
    }
  }
}

export function passPages(ctx: Context): PublicPages {
  const router = Router();
  router.get('/pass/:token', async (req, res) => {
    const lang = requestedLang(req);
    const claims = await openLink(ctx, String(req.params.token), 'pass');
    const caller = await companyCaller(ctx, claims.companyId);
    if (!caller) throw new ApiError('LINK_INVALID');
    const pass = await passOf(ctx, caller, claims.subjectId, ctx.clock.now());
    const shown = await shownPass(ctx, caller, lang, pass);
    sendPage(res, shown.status, {
      lang,
      title: passWords(lang).title,
      brand: await brandOf(ctx, claims.companyId),
      body: shown.body,
      ...(shown.refreshSeconds === undefined ? {} : { refreshSeconds: shown.refreshSeconds }),
    });
  });
  return router;
}
