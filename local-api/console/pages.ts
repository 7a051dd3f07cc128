import { join } from 'node:path';
import { Router } from 'express';
import { rendererDist, sendBuiltPage } from '../kiosk/pages.ts';

/**
 * The console (docs/console.md) at `/console` and every path under it: one page whose script shows the path it was
 * opened at (a link in an e-mail, a reload). Its scripts and styles are the kiosk's `/assets`, under the same CSP.
 */
export function consolePages(dist = rendererDist): Router {
  const router = Router();
  router.get(['/console', '/console/{*path}'], (_req, res) => sendBuiltPage(res, join(dist, 'console.html')));
  return router;
}
