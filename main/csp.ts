import { contentSecurityPolicy } from '../local-api/kiosk/csp.ts';

/*
 * The main process adds the app's Content-Security-Policy (local-api/kiosk/csp.ts, which the service also sends) to
 * every response of the app's origin (session.webRequest.onHeadersReceived), so it holds whatever the service sends.
 */

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
