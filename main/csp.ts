/**
 * The Content-Security-Policy of the app's pages. The main process adds it to every response of the app's
 * origin (session.webRequest.onHeadersReceived), so it holds whatever the service sends; the policy is also
 * exported for the service to send in browser mode.
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

export type ResponseHeaders = Record<string, string | string[]>;

/**
 * The headers of a response with the app's policy in force. Responses of the app's origin get the policy,
 * replacing any the server sent (under any letter case). For other responses the answer is undefined, and
 * Electron keeps their headers as they came.
 */
export function withContentSecurityPolicy(
  url: string,
  headers: ResponseHeaders | undefined,
  isAppUrl: (url: string) => boolean,
): ResponseHeaders | undefined {
  if (!isAppUrl(url)) return undefined;
  const kept = Object.entries(headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy');
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [contentSecurityPolicy] };
}
