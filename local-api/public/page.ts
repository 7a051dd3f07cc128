import express, { type Request, type Response, Router } from 'express';
import { ApiError, type ErrorCode, errorStatus } from '../http/errors.ts';
import { pageHeaders } from '../kiosk/csp.ts';
import { type PageLang, pageWords } from './words.ts';

/** Markup whose text was escaped as it was built: only `html` makes it, so a value cannot inject a tag. */
export interface Html {
  readonly markup: string;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

type Interpolated = Html | string | number | null | undefined | false | readonly Interpolated[];

const piece = (value: Interpolated): string => {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(piece).join('');
  if (typeof value === 'object') return (value as Html).markup;
  return escapeHtml(String(value));
};

/** A template of markup: interpolated strings are escaped, nested `html` kept, arrays joined, nullish dropped. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  return { markup: strings.reduce((out, part, i) => out + part + (i < values.length ? piece(values[i]) : ''), '') };
}

/** Who the page speaks for: the company's name and colour head every public page. */
export interface PageBrand {
  companyName: string;
  /** `#rrggbb`, checked when the company saved it; the page's own blue otherwise. */
  brandColor?: string | null;
}

export interface PublicPage {
  lang: PageLang;
  title: string;
  brand: PageBrand | undefined;
  body: Html;
  /**
   * Seconds after which the page shows its state of then by itself (a live code, a decision awaited): the page's
   * script (`livePageScript`) fetches it again and swaps its content in place; a browser without scripts reloads
   * it (a `<meta http-equiv="refresh">` in `<noscript>`).
   */
  refreshSeconds?: number;
}

/** The page's stylesheet: served as a file, because the pages' CSP allows no inline style. */
export const publicStylesheet = `
:root { --brand: #1d4ed8; color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "WenQuanYi Micro Hei", sans-serif;
  color: #111827; background: #f3f4f6; }
header { background: var(--brand); color: #fff; padding: 16px 20px; }
header p { margin: 0; font-weight: 600; }
main { max-width: 34rem; margin: 0 auto; padding: 20px; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 12px; }
.card { background: #fff; border-radius: 12px; padding: 20px; box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); margin-bottom: 16px; }
.muted { color: #4b5563; }
.picture { width: 160px; height: 160px; object-fit: cover; border-radius: 12px; display: block; margin: 0 auto 12px; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 16px; }
button, .button { flex: 1 1 10rem; min-height: 48px; border: 0; border-radius: 10px; font: inherit; font-weight: 600;
  padding: 12px 16px; cursor: pointer; background: var(--brand); color: #fff; text-align: center; text-decoration: none; }
button.secondary { background: #fff; color: #991b1b; border: 2px solid #991b1b; }
button:focus-visible, .button:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
label { display: block; font-weight: 600; margin: 12px 0 4px; }
input, select, textarea { width: 100%; min-height: 44px; font: inherit; padding: 8px 10px; border: 1px solid #6b7280; border-radius: 8px; }
.code { font: 600 1.6rem/1.2 ui-monospace, monospace; letter-spacing: 0.08em; text-align: center; overflow-wrap: anywhere; }
.qr { display: block; margin: 0 auto; width: min(80vw, 320px); height: auto; image-rendering: pixelated; }
.notice { border-left: 4px solid var(--brand); padding-left: 12px; }
`;

/**
 * The script of a live page (`refreshSeconds`): after the seconds the body's `data-refresh` says, it fetches the
 * page again and puts the new `<main>` in place of the old, without a reload (which would lose the reader's place
 * and flash the screen); an answer without `data-refresh` (the state is final) stops it. A failed fetch (the
 * phone offline a moment) is tried again in a few seconds. Served as a file: the CSP allows no inline script.
 */
export const livePageScript = `(() => {
  const schedule = (seconds) => {
    if (seconds > 0) setTimeout(update, seconds * 1000);
  };
  const update = async () => {
    try {
      const response = await fetch(location.href, { cache: 'no-store', headers: { accept: 'text/html' } });
      const next = new DOMParser().parseFromString(await response.text(), 'text/html');
      const main = next.querySelector('main');
      if (main) document.querySelector('main')?.replaceWith(document.adoptNode(main));
      document.title = next.title;
      schedule(Number(next.body.dataset.refresh));
    } catch {
      schedule(5);
    }
  };
  schedule(Number(document.body.dataset.refresh));
})();
`;

/** The whole document of a public page: the company's header, the body, its language and title. */
export function renderPage(page: PublicPage): string {
  const words = pageWords(page.lang);
  const brand = page.brand?.brandColor && /^#[0-9a-f]{6}$/i.test(page.brand.brandColor) ? page.brand.brandColor : null;
  const live = page.refreshSeconds !== undefined;
  return `<!doctype html>${
    html`<html lang="${page.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">${live ? html`<noscript><meta http-equiv="refresh" content="${page.refreshSeconds}"></noscript><script src="/p/assets/live.js" defer></script>` : ''}<title>${page.title} · ${page.brand?.companyName ?? words.product}</title>
<link rel="stylesheet" href="/p/assets/public.css">${brand ? html`<link rel="stylesheet" href="/p/assets/brand.css?c=${brand.slice(1)}">` : ''}</head>
<body${live ? html` data-refresh="${page.refreshSeconds}"` : ''}><header><p>${page.brand?.companyName ?? words.product}</p></header><main>${page.body}</main></body></html>`
      .markup
  }`;
}

/** Sends a public page with the kiosk pages' hardening; never cached (it shows a live state) nor sent on. */
export function sendPage(res: Response, status: number, page: PublicPage): void {
  res.status(status).set(pageHeaders).set('cache-control', 'no-store').type('html').send(renderPage(page));
}

/** The page a person meets when a link fails: why, in their words, never which part of the link was wrong. */
export function sendLinkProblem(res: Response, type: ErrorCode, lang: PageLang, brand?: PageBrand): void {
  if (res.req.accepts(['html', 'json']) === 'json') {
    res.status(errorStatus[type]).set('cache-control', 'no-store').json({ type });
    return;
  }
  const words = pageWords(lang);
  const text = type === 'LINK_EXPIRED' ? words.linkExpired : type === 'LINK_USED' ? words.linkUsed : words.linkInvalid;
  sendPage(res, errorStatus[type], {
    lang,
    title: words.linkProblemTitle,
    brand,
    body: html`<div class="card"><h1>${words.linkProblemTitle}</h1><p>${text}</p></div>`,
  });
}

/** The language a visitor's browser asks for, among the four the pages speak. */
export function requestedLang(req: Request): PageLang {
  // English first: a browser that sends `*` (or nothing) gets English.
  const asked = req.acceptsLanguages('en', 'pt-BR', 'pt', 'de', 'zh-Hans', 'zh');
  if (asked === 'pt-BR' || asked === 'pt') return 'pt-BR';
  if (asked === 'zh-Hans' || asked === 'zh') return 'zh-Hans';
  if (asked === 'de') return 'de';
  return 'en';
}

/**
 * A feature's public pages: a router mounted under `/p`. Its handlers may throw ApiError: a link's problem is shown
 * as a page (LINK_*), anything else as the error page in the browser's language.
 */
export type PublicPages = Router;

/**
 * Everything under `/p`: the stylesheet, the features' pages, and the pages' own error handling (HTML for people,
 * JSON for a client that asked for it). Forms are posted URL-encoded, a few KiB at most.
 */
export function publicRouter(pages: readonly PublicPages[]): Router {
  const router = Router();
  router.get('/assets/public.css', (_req, res) => {
    res.set(pageHeaders).set('cache-control', 'public, max-age=3600').type('css').send(publicStylesheet);
  });
  router.get('/assets/live.js', (_req, res) => {
    res.set(pageHeaders).set('cache-control', 'public, max-age=3600').type('js').send(livePageScript);
  });
  router.get('/assets/brand.css', (req, res) => {
    const colour = typeof req.query.c === 'string' && /^[0-9a-f]{6}$/i.test(req.query.c) ? req.query.c : '1d4ed8';
    res.set(pageHeaders).set('cache-control', 'public, max-age=86400').type('css').send(`:root{--brand:#${colour}}`);
  });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  for (const page of pages) router.use(page);
  router.use(() => {
    throw new ApiError('LINK_INVALID');
  });
  router.use((error: unknown, req: Request, res: Response, next: (error?: unknown) => void) => {
    if (res.headersSent) return next(error);
    const type: ErrorCode = error instanceof ApiError ? error.type : 'INTERNAL';
    if (req.accepts(['html', 'json']) === 'json') {
      res.status(errorStatus[type]).json({ type });
      return;
    }
    if (type.startsWith('LINK_')) return sendLinkProblem(res, type, requestedLang(req));
    const words = pageWords(requestedLang(req));
    sendPage(res, errorStatus[type], {
      lang: requestedLang(req),
      title: words.problemTitle,
      brand: undefined,
      body: html`<div class="card"><h1>${words.problemTitle}</h1><p>${words.problemText}</p></div>`,
    });
  });
  return router;
}
