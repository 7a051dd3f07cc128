import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Response, Router } from 'express';
import type { Context } from '../context.ts';
import { pageHeaders } from './csp.ts';
import { kioskSession } from './session.ts';

/** Where `npm run build:renderer` writes the page (the Electron build mirrors this layout). */
export const rendererDist = resolve(import.meta.dirname, '../../renderer/dist');

/** Paths the page itself answers (it reads them at start): the kiosk, and a visit's badge for silent printing. */
const pagePaths = ['/', '/badge/:visitId'];

const setPageHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
};

/** A page of renderer/dist under the pages' CSP, or 503 and how to build it where it is not built. */
export function sendBuiltPage(res: Response, file: string): void {
  setPageHeaders(res);
  res.setHeader('Cache-Control', 'no-cache');
  if (!existsSync(file)) {
    res.status(503).type('text/plain').send('The page is not built: run `npm run build:renderer`.\n');
    return;
  }
  res.sendFile(file);
}

/**
 * The kiosk page at `/` (static files of renderer/dist, with a strict CSP) and its session endpoint. Mounted before
 * /v1; it answers nothing under /v1.
 */
export function kioskPages(ctx: Context, dist = rendererDist): Router {
  const router = Router();
  router.get('/kiosk/session', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await kioskSession(ctx, req));
  });
  router.get(pagePaths, (_req, res) => sendBuiltPage(res, join(dist, 'index.html')));
  // Browsers ask for it by this name on every page; it is the app's icon, which changes only with a new build.
  router.get('/favicon.ico', (_req, res) => {
    setPageHeaders(res);
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.sendFile(join(dist, 'favicon.ico'), (error) => {
      if (error && !res.headersSent) res.status(404).type('text/plain').send('Not found\n');
    });
  });
  // File names under assets/ carry their content's hash: they never change, so browsers may keep them.
  router.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: setPageHeaders,
    }),
  );
  return router;
}
