/**
 * The rules that lock the kiosk's web contents to the app's own origin (the embedded service's URL, e.g.
 * `http://127.0.0.1:4780`). Pure functions over plain values, so they are tested without Electron; main/index.ts
 * wires them to the session and web-contents events. See docs/security.md for the checklist they answer.
 */

/** The origin of a URL, or undefined for text that is not an absolute URL. `about:blank` has origin "null". */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** True for a URL of the app itself. Compared by parsed origin: a prefix test would let `…:4780.evil.test` in. */
export function isAppUrl(url: string, appOrigin: string): boolean {
  const origin = originOf(url);
  return origin !== undefined && origin !== 'null' && origin === appOrigin;
}

/** Navigation (links, `location`, redirects) may only stay inside the app. */
export function allowNavigation(url: string, appOrigin: string): boolean {
  return isAppUrl(url, appOrigin);
}

/**
 * The kiosk is one window: every `window.open` and `target=_blank` is refused, whatever its URL, so a page can
 * neither open a second window nor hand a URL to the desktop (no `shell.openExternal` anywhere in the app).
 */
export function windowOpenResponse(): { action: 'deny' } {
  return { action: 'deny' };
}

export interface PermissionRequestDetails {
  requestingUrl: string;
  isMainFrame: boolean;
  mediaTypes?: readonly string[];
}

/**
 * Permission requests (getUserMedia, notifications, geolocation, …): only the camera, asked by the app's own
 * top frame, for video alone. A request that also wants the microphone is refused whole: the kiosk takes
 * photos and reads QR codes, it never records sound.
 */
export function allowPermissionRequest(appOrigin: string, permission: string, details: PermissionRequestDetails) {
  const mediaTypes = details.mediaTypes ?? [];
  return (
    permission === 'media' &&
    details.isMainFrame &&
    isAppUrl(details.requestingUrl, appOrigin) &&
    mediaTypes.length > 0 &&
    mediaTypes.every((type) => type === 'video')
  );
}

export interface PermissionCheckDetails {
  isMainFrame: boolean;
  mediaType?: string;
  embeddingOrigin?: string;
}

/**
 * Permission checks (what `navigator.permissions.query` and device enumeration see) follow the same rule as
 * requests: the camera, for the app's own top frame. Electron passes the origin with or without a trailing
 * slash depending on the caller, so it is parsed, not compared as text.
 */
export function allowPermissionCheck(
  appOrigin: string,
  permission: string,
  requestingOrigin: string,
  details: PermissionCheckDetails,
): boolean {
  return (
    permission === 'media' &&
    details.isMainFrame &&
    details.embeddingOrigin === undefined &&
    details.mediaType === 'video' &&
    isAppUrl(requestingOrigin, appOrigin)
  );
}

/** The frame an IPC message came from, as Electron describes it (`event.senderFrame`). */
export interface SenderFrame {
  url: string;
  parent: unknown;
}

/** IPC is answered only for the app's own top frame: not for an iframe, a popup or a page of another origin. */
export function isTrustedSender(frame: SenderFrame | null | undefined, appOrigin: string): boolean {
  return frame !== null && frame !== undefined && frame.parent === null && isAppUrl(frame.url, appOrigin);
}
