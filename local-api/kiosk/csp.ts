import { contentSecurityPolicy } from '../../main/csp.ts';

/**
 * Headers of every page and file of the kiosk in browser mode: the app's CSP (main/csp.ts, which the Electron shell
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
