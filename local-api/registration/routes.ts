import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { Context } from '../context.ts';
import { fromHttpError } from '../http/error-handler.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { checkJsonCost } from '../http/limits.ts';
import { pageHeaders } from '../kiosk/csp.ts';
import { rendererDist } from '../kiosk/pages.ts';
import { hubPublicAddress } from '../public/address.ts';
import { html, type PageBrand, requestedLang, sendPage } from '../public/page.ts';
import { prepared } from '../store/rows.ts';
import { isKioskOfCompany } from '../sync/role.ts';
import { registrationInput } from './schema.ts';
import {
  openRegistration,
  type Registration,
  registrationFormOf,
  registrationLang,
  saveRegistration,
} from './store.ts';
import { registerWords } from './words.ts';

/** The page's script and styles: a Vite entry of its own (renderer/guest.html), beside the kiosk's page. */
const guestPage = join(rendererDist, 'guest.html');

const tokenOf = (req: Request) => String(req.params.token);

/**
 * Answers a JSON endpoint's refusal as the API does, `{ type, ...details }` with its status, a body the parser
 * refused included (http/error-handler.ts). Anything else goes to the pages' own handler.
 */
function jsonProblem(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const refusal = error instanceof ApiError ? error : fromHttpError(error as Parameters<typeof fromHttpError>[0]);
  if (!refusal) {
    next(error);
    return;
  }
  res
    .status(refusal.status)
    .set('cache-control', 'no-store')
    .json({ type: refusal.type, ...refusal.extra });
}

/** Registrations are JSON: two files of a megabyte at most in Base64, with the answers; costly JSON refused unread. */
const readJson = express.json({
  limit: '3mb',
  type: ['application/json'],
  verify: (_req, _res, bytes) => checkJsonCost(bytes),
});

async function brandOf(ctx: Context, companyId: string): Promise<PageBrand> {
  return (await prepared(ctx.db, 'SELECT name AS "companyName", brandColor FROM companies WHERE id = ?').get(
    companyId,
  )) as PageBrand;
}

const whenText = (at: number, lang: string, timeZone: string) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(at);

/**
 * The register page (docs/kiosk.md, "Pre-registration"): `GET /p/register/<token>` shows the form (a script page of
 * its own) while the registration is open, and otherwise says why not; the form reads `…/form` and posts
 * `…/registration`, JSON both (docs/api.md, "Public pages"). The token is the guest's credential: every request
 * opens it again.
 *
 * A kiosk of a hub holds the company's link key but not the invitee (the hub's to write): it sends the guest to the
 * hub's public address where it knows one, and otherwise says where to register; its JSON endpoints answer
 * MANAGED_BY_HUB. Register links are only made with the hub's address (public/address.ts).
 */
export function registerPages(ctx: Context): Router {
  const router = Router();

  /** The registration a request names, refused at a kiosk of the company's hub. */
  const opened = async (req: Request): Promise<Registration> => {
    const registration = await openRegistration(ctx, tokenOf(req));
    if (await isKioskOfCompany(ctx, registration.claims.companyId)) throw new ApiError('MANAGED_BY_HUB');
    return registration;
  };

  router.get('/register/:token', async (req, res) => {
    const browser = requestedLang(req);
    const registration = await openRegistration(ctx, tokenOf(req));
    const { claims, invitee, caller } = registration;
    const brand = await brandOf(ctx, claims.companyId);
    if (await isKioskOfCompany(ctx, claims.companyId)) {
      const hub = await hubPublicAddress(ctx);
      if (hub) return res.redirect(303, `${hub}/p/register/${encodeURIComponent(tokenOf(req))}`);
      const words = registerWords(browser);
      return sendPage(res, 409, {
        lang: browser,
        title: words.title,
        brand,
        body: html`<div class="card"><h1>${words.title}</h1><p>${words.hubOnly}</p></div>`,
      });
    }
    const lang = invitee ? registrationLang(invitee, req.query.lang, browser) : browser;
    const words = registerWords(lang);
    if (registration.state !== 'open') {
      const text = {
        early: words.early(whenText(registration.window.opensAt, lang, caller.timeZone)),
        closed: words.closed,
        canceled: words.canceled,
        arrived: words.arrived,
      }[registration.state];
      return sendPage(res, 200, {
        lang,
        title: words.title,
        brand,
        body: html`<div class="card"><h1>${words.title}</h1><p class="notice">${text}</p></div>`,
      });
    }
    res.set(pageHeaders).set('cache-control', 'no-store');
    res.sendFile(guestPage, (error) => {
      if (error && !res.headersSent) res.status(503).type('text/plain').send('The page is not built.\n');
    });
  });

  // The form's endpoints, whose refusals are JSON.
  const endpoints = Router({ mergeParams: true });
  endpoints.get('/form', async (req, res) => {
    const registration = await opened(req);
    const lang = registration.invitee
      ? registrationLang(registration.invitee, req.query.lang, requestedLang(req))
      : requestedLang(req);
    res.set('cache-control', 'no-store').json(await registrationFormOf(ctx, registration, lang));
  });

  endpoints.post('/registration', readJson, async (req, res) => {
    const registration = await opened(req);
    const input = validate(registrationInput, req.body);
    const lang = registration.invitee
      ? registrationLang(registration.invitee, req.query.lang, requestedLang(req))
      : requestedLang(req);
    res.set('cache-control', 'no-store').json(await saveRegistration(ctx, tokenOf(req), input, lang));
  });

  endpoints.use(jsonProblem);
  router.use('/register/:token', endpoints);
  return router;
}
