import type { Connection, ExitKioskResult } from '../preload/api.ts';

/**
 * What the shell asks its own service, over HTTP on 127.0.0.1 like the page: the kiosk's credential (the same
 * `/kiosk/session` answer browser mode gives, asked afresh each time: the device may have been enrolled, or its
 * credential replaced, since the service started) and the PIN check that lets staff leave kiosk mode. There is one
 * PIN, the service's front-desk PIN; the shell keeps none of its own.
 */
export async function kioskConnection(serviceUrl: string): Promise<Connection> {
  const response = await fetch(`${serviceUrl}/kiosk/session`);
  const body = (await response.json()) as { companyId?: string; apiKey?: string; type?: string };
  if (!response.ok || !body.apiKey || body.companyId === undefined) {
    throw new Error(`the service gave no kiosk credential (${body.type ?? response.status})`);
  }
  return { serviceUrl, companyId: body.companyId, apiKey: body.apiKey };
}

/** Checks the front-desk PIN with the service (scrypt, rate-limited there) to leave kiosk mode. */
export async function checkExitPin(serviceUrl: string, pin: string): Promise<ExitKioskResult> {
  let apiKey: string;
  try {
    ({ apiKey } = await kioskConnection(serviceUrl));
  } catch {
    return { exited: false, reason: 'UNAVAILABLE' };
  }
  const response = await fetch(`${serviceUrl}/v1/kiosk/pin/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pin }),
  });
  const body = (await response.json()) as { type?: string; retryAfter?: number };
  if (response.ok) return { exited: true };
  if (body.type === 'WRONG_PIN') return { exited: false, reason: 'WRONG_PIN' };
  if (body.type === 'PIN_NOT_SET') return { exited: false, reason: 'NO_PIN_SET' };
  if (body.type === 'TOO_MANY_REQUESTS') {
    return { exited: false, reason: 'LOCKED', retryAfterMs: (body.retryAfter ?? 0) * 1000 };
  }
  return { exited: false, reason: 'UNAVAILABLE' };
}
