import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.ts';
import { type Caller, roles } from '../credentials/caller.ts';
import { getHost } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { getInvitee } from '../invitees/store.ts';
import { formatInZone } from '../rules/time.ts';
import type { VisitRow } from '../visits/contract.ts';
import { getVisit } from '../visits/store.ts';
import { cardNumberOf, issueCode, type QrCode, type QrSettings, type QrSubject } from './qr.ts';
import { findAccessConfig } from './store.ts';

/** The company's QR settings, or the reason no code can be made: the integration is off or has no key. */
export async function qrSettingsOf(ctx: Context, companyId: string): Promise<QrSettings> {
  const config = await findAccessConfig(ctx, companyId);
  if (!config?.enabled) throw new ApiError('ACCESS_INTEGRATION_DISABLED');
  if (config.aesKey === '') throw new ApiError('ACCESS_KEY_NOT_CONFIGURED');
  return config;
}

function hostCardNumber(metadata: unknown): number | undefined {
  if (typeof metadata !== 'string') return undefined;
  const parsed = JSON.parse(metadata) as { accessCardNumber?: unknown } | null;
  return cardNumberOf(parsed?.accessCardNumber);
}

export const qrQuery = z.object({
  format: z.enum(['json', 'svg', 'png']).default('json').describe('json (default), or the picture: svg or png'),
});

export const qrAnswer = z.object({
  payload: z.string().describe('the exact text the QR code encodes (docs/access-control.md)'),
  mode: z.enum(['aes', 'totp', 'static']),
  subject: z.enum(['host', 'visitor']),
  cardNumber: z.number().int(),
  issuedAt: z.string().nullable().describe('start of validity; null for a static code'),
  expiresAt: z.string().nullable().describe('first instant the code is refused; null for a static code'),
  expiresInMs: z
    .number()
    .int()
    .nullable()
    .describe(
      "milliseconds from this answer until the code expires, by the service's clock (a kiosk's is its hub's): a " +
        'page renews the code after it, whatever its own clock says; null for a static code',
    ),
});

/** PNG modules of 8 pixels: large enough for a phone camera at arm's length, small enough to send quickly. */
const pngScale = 8;

/** A code's PNG picture (error correction level M), as the API and the pass page show it. */
export async function qrPng(payload: string): Promise<Buffer> {
  // Loaded on the first picture of a code: the service starts without it.
  const { default: QRCode } = await import('qrcode');
  return await QRCode.toBuffer(payload, { errorCorrectionLevel: 'M', scale: pngScale });
}

/** Answers the JSON (returned) or sends the picture itself (returns undefined); `now` is the service's time. */
async function answerCode(res: Response, query: unknown, code: QrCode, caller: Caller, now: number) {
  const { format } = validate(qrQuery, query);
  // Dynamic codes expire within seconds: no cache may keep one, and a static one is a credential.
  res.set('Cache-Control', 'no-store');
  if (format === 'json') {
    return {
      payload: code.payload,
      mode: code.mode,
      subject: code.subject,
      cardNumber: code.cardNumber,
      issuedAt: code.issuedAt === null ? null : formatInZone(code.issuedAt, caller.timeZone),
      expiresAt: code.expiresAt === null ? null : formatInZone(code.expiresAt, caller.timeZone),
      expiresInMs: code.expiresAt === null ? null : Math.max(0, code.expiresAt - now),
    };
  }
  if (code.expiresAt !== null) res.set('Expires', new Date(code.expiresAt).toUTCString());
  if (format === 'svg') {
    // Loaded on the first picture of a code: the service starts without it.
    const { default: QRCode } = await import('qrcode');
    res.type('image/svg+xml').send(await QRCode.toString(code.payload, { type: 'svg', errorCorrectionLevel: 'M' }));
  } else {
    res.type('image/png').send(await qrPng(code.payload));
  }
  return undefined;
}

async function issueFor(
  ctx: Context,
  caller: Caller,
  subject: QrSubject,
  cardNumber: number | undefined,
): Promise<QrCode> {
  const settings = await qrSettingsOf(ctx, caller.companyId);
  if (cardNumber === undefined) throw new ApiError('MISSING_ACCESS_CARD_NUMBER');
  return issueCode(settings, subject, cardNumber, ctx.clock.now(), ctx.random);
}

/** A visit's gate code, as JSON or a picture; a visit that has left gets none. */
export async function visitGateCode(ctx: Context, req: Request, res: Response, caller: Caller, visit: VisitRow) {
  if (visit.checkoutAt !== null) throw new ApiError('ALREADY_CHECKOUT');
  const code = await issueFor(ctx, caller, 'visitor', cardNumberOf(visit.cardNumber));
  return answerCode(res, req.query, code, caller, ctx.clock.now());
}

const tag = 'Access control';
const codeErrors = [
  'NOT_FOUND',
  'ACCESS_INTEGRATION_DISABLED',
  'ACCESS_KEY_NOT_CONFIGURED',
  'MISSING_ACCESS_CARD_NUMBER',
  'INVALID_PARAMETER',
] as const;
const produces = ['image/svg+xml', 'image/png'] as const;

/**
 * GET /v1/host/:id/qrcode, /v1/invitee/:id/qrcode, /v1/visit/:id/qrcode: the code a person shows at the gate,
 * as JSON (`payload`, `expiresAt`) or as an SVG or PNG picture (`?format=`).
 */
export function qrRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/host/:id/qrcode',
      tag,
      summary: "A host's QR code, from metadata.accessCardNumber (dynamic: AES or TOTP)",
      query: qrQuery,
      response: qrAnswer,
      produces,
      errors: codeErrors,
      handle: async ({ req, res, caller, params }) => {
        const host = await getHost(ctx, caller, String(params.id));
        const code = await issueFor(ctx, caller, 'host', hostCardNumber(host.metadata));
        return answerCode(res, req.query, code, caller, ctx.clock.now());
      },
    }),
    route({
      method: 'get',
      path: '/invitee/:id/qrcode',
      tag,
      summary: "An invitee's QR code, from its cardNumber (static when staticVisitorQRCode is on)",
      query: qrQuery,
      response: qrAnswer,
      produces,
      errors: [...codeErrors, 'INVITEE_CANCELED'],
      handle: async ({ req, res, caller, params }) => {
        const invitee = await getInvitee(ctx, caller, String(params.id));
        if (invitee.status === 'canceled') throw new ApiError('INVITEE_CANCELED');
        const code = await issueFor(ctx, caller, 'visitor', cardNumberOf(invitee.cardNumber));
        return answerCode(res, req.query, code, caller, ctx.clock.now());
      },
    }),
    route({
      method: 'get',
      path: '/visit/:id/qrcode',
      roles: roles.desk,
      tag,
      summary: "A visit's QR code, from its cardNumber (static when staticVisitorQRCode is on)",
      query: qrQuery,
      response: qrAnswer,
      produces,
      errors: [...codeErrors, 'ALREADY_CHECKOUT'],
      handle: async ({ req, res, caller, params }) =>
        visitGateCode(ctx, req, res, caller, await getVisit(ctx, caller, String(params.id))),
    }),
  ];
}
