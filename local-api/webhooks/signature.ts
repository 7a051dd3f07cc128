import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Webhook signatures: `X-Portaria-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the webhook's
 * secret as UTF-8>`, as GitHub signs its deliveries, so receivers can reuse code they already have. The timestamp
 * and delivery id travel in their own headers; a receiver drops a delivery id it has already processed.
 */

export const signatureHeader = 'x-portaria-signature';
export const timestampHeader = 'x-portaria-timestamp';
export const deliveryHeader = 'x-portaria-delivery';
export const eventHeader = 'x-portaria-event';

export function signBody(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of a signature header against the body. */
export function signatureMatches(secret: string, rawBody: string | Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, rawBody));
  const presented = Buffer.from(header.trim());
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
