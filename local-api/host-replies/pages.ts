import { basename } from 'node:path';
import { type Request, type Response, Router } from 'express';
import { companyCaller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { openFile } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import { fill, localTime } from '../notifications/messages.ts';
import { type LinkClaims, linkWasUsed, openLink } from '../public/links.ts';
import { type Html, html, type PageBrand, requestedLang, sendLinkProblem, sendPage } from '../public/page.ts';
import type { PageLang } from '../public/words.ts';
import type { VisitRow } from '../visits/contract.ts';
import { answerFromLink, type HostAnswer, type ReplyOutcome, recordOpened, visitOfLink } from './store.ts';
import { replyWords } from './words.ts';

async function brandOf(ctx: Context, companyId: string): Promise<PageBrand | undefined> {
  const row = (await ctx.db.prepare('SELECT name, brandColor FROM companies WHERE id = ?').get(companyId)) as
    | { name: string; brandColor: string | null }
    | undefined;
  return row && { companyName: row.name, brandColor: row.brandColor };
}

/** The form's buttons: each posts the answer it names to the link's own address. */
const answerButtons = (
  action: string,
  buttons: readonly { answer: HostAnswer; label: string; secondary?: boolean }[],
) =>
  html`<form method="post" action="${action}" class="actions">${buttons.map(
    (button) =>
      html`<button type="submit" name="answer" value="${button.answer}"${button.secondary ? html` class="secondary"` : ''}>${button.label}</button>`,
  )}</form>`;

/** The visitor as the host sees them: picture (when this service holds it), name and company. */
function visitorCard(token: string, visit: VisitRow, lang: PageLang, text: string, actions: Html | ''): Html {
  const words = replyWords(lang);
  const name = String(visit.name ?? '');
  return html`<div class="card">${
    visit.pictureFile
      ? html`<img class="picture" src="/p/decide/${token}/picture" alt="${fill(words.pictureAlt, { name })}">`
      : ''
  }<p><strong>${name}</strong></p>${visit.company ? html`<p class="muted">${String(visit.company)}</p>` : ''}<p>${text}</p>${actions}</div>`;
}

/** Who decided a visit, for the page that says it was decided already: the host by name, else the reception. */
async function deciderName(ctx: Context, visit: VisitRow, lang: PageLang): Promise<string> {
  const id = visit.authorizedById as string | null;
  const row = id
    ? ((await ctx.db.prepare('SELECT name FROM hosts WHERE id = ? AND companyId = ?').get(id, visit.companyId)) as
        | { name: string }
        | undefined)
    : undefined;
  return row?.name ?? replyWords(lang).theReception;
}

/**
 * The pages a host's "your visitor is here" message links to (docs/api.md, "Deciding from the message"):
 * `GET /p/decide/<token>` shows the visitor and the buttons (and notes that the host opened it), `POST` answers
 * (only a button decides: mail scanners fetch links), `GET /p/decide/<token>/picture` the visitor's picture.
 */
export function hostReplyPages(ctx: Context): Router {
  const router = Router();

  const timeOf = async (visit: VisitRow, lang: PageLang) => {
    const caller = await companyCaller(ctx, visit.companyId);
    return localTime(Number(visit.checkinAt), lang, caller?.timeZone ?? 'UTC');
  };

  /** The page for a visit this service does not hold yet: a kiosk's push is usually a moment away. */
  const sendNotHere = (res: Response, lang: PageLang, brand: PageBrand | undefined) => {
    const words = replyWords(lang);
    res.set('retry-after', '2');
    sendPage(res, 503, {
      lang,
      title: words.notHereTitle,
      brand,
      body: html`<div class="card"><h1>${words.notHereTitle}</h1><p>${words.notHereText}</p><p><a class="button" href="">${words.tryAgain}</a></p></div>`,
    });
  };

  const sendDecided = async (res: Response, visit: VisitRow, lang: PageLang, brand: PageBrand | undefined) => {
    const words = replyWords(lang);
    const text = visit.authorizationStatus === 'DENIED' ? words.alreadyDenied : words.alreadyAllowed;
    sendPage(res, 200, {
      lang,
      title: words.askTitle,
      brand,
      body: html`<div class="card"><p class="notice">${fill(text, {
        name: String(visit.name ?? ''),
        who: await deciderName(ctx, visit, lang),
      })}</p></div>`,
    });
  };

  /** A visit held at the door: the front desk decides it, the host's link does not. */
  const sendReception = (res: Response, visit: VisitRow, lang: PageLang, brand: PageBrand | undefined) => {
    const words = replyWords(lang);
    sendPage(res, 200, {
      lang,
      title: words.askTitle,
      brand,
      body: html`<div class="card"><p class="notice">${fill(words.receptionDecides, { name: String(visit.name ?? '') })}</p></div>`,
    });
  };

  /** The claims of the request's token, or the link's problem page sent (forged, expired, or used). */
  const claimsOf = async (req: Request, res: Response): Promise<LinkClaims | undefined> => {
    const lang = requestedLang(req);
    try {
      const claims = await openLink(ctx, String(req.params.token), 'decide');
      if (!(await linkWasUsed(ctx, claims))) return claims;
      sendLinkProblem(res, 'LINK_USED', lang, await brandOf(ctx, claims.companyId));
    } catch (error) {
      if (!(error instanceof ApiError) || !error.type.startsWith('LINK_')) throw error;
      sendLinkProblem(res, error.type, lang);
    }
    return undefined;
  };

  router.get('/decide/:token', async (req, res) => {
    const claims = await claimsOf(req, res);
    if (!claims) return;
    const lang = requestedLang(req);
    const brand = await brandOf(ctx, claims.companyId);
    const visit = await visitOfLink(ctx, claims);
    if (!visit) return sendNotHere(res, lang, brand);
    await recordOpened(ctx, visit);
    const words = replyWords(lang);
    const time = await timeOf(visit, lang);
    const action = `/p/decide/${req.params.token}`;
    if (visit.heldAtDoor && visit.authorizationStatus === 'AWAITING') return sendReception(res, visit, lang, brand);
    if (visit.authorizationStatus === 'AWAITING') {
      const buttons = answerButtons(action, [
        { answer: 'ALLOWED', label: words.allow },
        { answer: 'DENIED', label: words.deny, secondary: true },
      ]);
      return sendPage(res, 200, {
        lang,
        title: words.askTitle,
        brand,
        body: html`<h1>${words.askTitle}</h1>${visitorCard(String(req.params.token), visit, lang, fill(words.askText, { time }), buttons)}`,
      });
    }
    if (visit.authorizationStatus === 'ALLOWED' || visit.authorizationStatus === 'DENIED') {
      return await sendDecided(res, visit, lang, brand);
    }
    const buttons = answerButtons(action, [{ answer: 'ON_MY_WAY', label: words.onMyWay }]);
    sendPage(res, 200, {
      lang,
      title: words.arrivedTitle,
      brand,
      body: html`<h1>${words.arrivedTitle}</h1>${visitorCard(String(req.params.token), visit, lang, fill(words.arrivedText, { time }), buttons)}`,
    });
  });

  router.post('/decide/:token', async (req, res) => {
    const claims = await claimsOf(req, res);
    if (!claims) return;
    const lang = requestedLang(req);
    const brand = await brandOf(ctx, claims.companyId);
    const answer = (req.body as Record<string, unknown> | undefined)?.answer;
    if (answer !== 'ALLOWED' && answer !== 'DENIED' && answer !== 'ON_MY_WAY') throw new ApiError('INVALID_PARAMETER');
    let outcome: ReplyOutcome;
    try {
      outcome = await answerFromLink(ctx, claims, answer, lang);
    } catch (error) {
      // The link's twin request won the race: this one was used up meanwhile.
      if (error instanceof ApiError && error.type === 'LINK_USED')
        return sendLinkProblem(res, 'LINK_USED', lang, brand);
      throw error;
    }
    if (outcome.kind === 'notHere') return sendNotHere(res, lang, brand);
    if (outcome.kind === 'decided') return await sendDecided(res, outcome.visit, lang, brand);
    if (outcome.kind === 'reception') return sendReception(res, outcome.visit, lang, brand);
    const words = replyWords(lang);
    const done = { ALLOWED: words.allowedDone, DENIED: words.deniedDone, ON_MY_WAY: words.onMyWayDone }[outcome.answer];
    sendPage(res, 200, {
      lang,
      title: words.askTitle,
      brand,
      body: html`<div class="card" role="status"><p>${fill(done, { name: String(outcome.visit.name ?? '') })}</p></div>`,
    });
  });

  router.get('/decide/:token/picture', async (req, res) => {
    // The picture is shown while the link works, used or not: the page of a used link no longer shows it.
    const claims = await openLink(ctx, String(req.params.token), 'decide');
    const visit = await visitOfLink(ctx, claims);
    const caller = await companyCaller(ctx, claims.companyId);
    if (!visit?.pictureFile || !caller) throw new ApiError('NOT_FOUND');
    const file = await openFile(ctx, caller, basename(String(visit.pictureFile)), {});
    res
      .status(200)
      .type(file.mediaType)
      .set({ 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' })
      .send(file.bytes);
  });

  return router;
}
