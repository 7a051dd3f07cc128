import type { Request } from 'express';
import type { Context } from '../context.ts';
import { deviceEnrolment } from '../device.ts';
import { ApiError } from '../http/errors.ts';
import { shownPairingCode } from '../rules/pairing-code.ts';
import { pairingOf } from '../sync/agent.ts';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/** The host name of a Host header (`127.0.0.1:4780` → `127.0.0.1`, `[::1]:4780` → `[::1]`), lower-cased. */
export function hostName(host: string | undefined): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host?.trim() ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * Whether a request may receive the device credential (docs/kiosk.md explains each rule):
 * - it comes from this machine (the socket's peer is a loopback address), whatever `--host` the service binds;
 * - it was addressed to a loopback name, so a web page that re-binds its own DNS name to 127.0.0.1 is refused;
 * - if the browser says where it comes from (`Origin`, `Sec-Fetch-Site`), that is the kiosk's own page.
 */
export function mayReceiveCredential(req: Pick<Request, 'headers' | 'socket'>): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  const host = req.headers.host;
  const name = hostName(host);
  if (!name || !loopbackNames.has(name)) return false;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** The kiosk's credential as its page receives it: the company it serves, and the kiosk-role key. */
export interface KioskCredential {
  companyId: string;
  apiKey: string;
}

/**
 * The credential the kiosk's screens use: the `kiosk` credential of the company the device is enrolled for
 * (docs/kiosk.md). A device enrolled for no company has none to give (NOT_ENROLLED, with the pairing code while it
 * pairs with its hub): the CLI enrols it, or a hub
 * does at its first answer to a fresh kiosk.
 */
export async function kioskCredential(ctx: Context): Promise<KioskCredential> {
  const enrolled = await deviceEnrolment(ctx);
  if (!enrolled) {
    // A kiosk pairing with its hub shows the code for an administrator to type in (docs/sync.md, "Pairing").
    const pairing = pairingOf(ctx).current;
    throw new ApiError(
      'NOT_ENROLLED',
      pairing
        ? { pairingCode: shownPairingCode(pairing.code), pairingExpiresAt: new Date(pairing.expiresAt).toISOString() }
        : {},
    );
  }
  return { companyId: enrolled.companyId, apiKey: enrolled.kioskKey };
}

/** GET /kiosk/session: the kiosk's credential, for its page in browser mode. */
export async function kioskSession(ctx: Context, req: Request): Promise<KioskCredential> {
  if (!mayReceiveCredential(req)) throw new ApiError('FORBIDDEN');
  return await kioskCredential(ctx);
}
