/**
 * The Content-Security-Policy of the kiosk's pages, sent by the service in browser mode (and the policy the
 * Electron shell enforces on the same origin). What each directive allows, and why:
 * - scripts, styles, fonts, the manifest: only files of the app itself; no inline script, no eval;
 * - images: the app, plus `data:` and `blob:` for the visitor's photo taken from the camera and QR codes drawn in
 *   the page; media likewise (the camera stream itself needs no directive: it is set as srcObject);
 * - connections: only the page's origin, which is also the API's;
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

/** Headers of every page and file of the kiosk. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The camera for the visitor's picture and the QR scanner; nothing else a page could ask for.
  'Permissions-Policy': 'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), serial=()',
};
