/**
 * The Content-Security-Policy of the app's pages: the service sends it with every page and file of the kiosk, and
 * the Electron shell enforces it on every response of the app's origin (main/csp.ts).
 *
 * What each directive allows, and why (docs/security.md has the same list for the renderer's authors):
 * - scripts, styles, fonts, workers, the manifest: only files of the app itself; no inline script, no eval;
 * - images: the app, plus `data:` and `blob:` for the visitor's photo taken from the camera and QR codes drawn
 *   in the page; media likewise (`blob:`); the camera stream itself needs no directive (srcObject);
 * - connections: only the app's origin, which is also the API's;
 * - no plugins, no frames, no `<base>`, and the page cannot be framed by anyone.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every page and file of the kiosk in browser mode: the app's CSP above (which the Electron shell
 * enforces on the same origin) and the usual hardening.
 */
export const pageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The camera for the visitor's picture and the QR scanner; nothing else a page could ask for.
  'Permissions-Policy': 'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), serial=()',
};
