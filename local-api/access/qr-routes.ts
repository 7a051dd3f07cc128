import { type Response, Router } from 'express';
import QRCode from 'qrcode';
import { z } from 'zod';
import type { Caller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { getHost } from '../hosts/store.ts';
import { callerOf } from '../http/auth.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { getInvitee } from '../invitees/store.ts';
import { isInt32 } from '../rules/ids.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared } from '../store/rows.ts';
import { issueCode, type QrCode, type QrSettings, type QrSubject } from './qr.ts';
import { findAccessConfig } from './store.ts';

/** The company's QR settings, or the reason no code can be made: the integration is off or has no key. */
export function qrSettingsOf(ctx: Context, companyId: string): QrSettings {
  const config = findAccessConfig(ctx, companyId);
  if (!config?.enabled) throw new ApiError('ACCESS_INTEGRATION_DISABLED');
  if (config.aesKey === '') throw new ApiError('ACCESS_KEY_NOT_CONFIGURED');
  return config;
}

/** A card number as the gate reads it: an int32, from a number or its decimal text (visits store it as text). */
export function cardNumberOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && isInt32(n) ? n : undefined;
}

export function hostCardNumber(metadata: unknown): number | undefined {
  if (typeof metadata !== 'string') return undefined;
  const parsed = JSON.parse(metadata) as { accessCardNumber?: unknown } | null;
  return cardNumberOf(parsed?.accessCardNumber);
}

/** A visitor's card: of the visit, or of the invitee it came from. */
export function visitorCode(ctx: Context, companyId: string, cardNumber: number): QrCode {
  return issueCode(qrSettingsOf(ctx, companyId), 'visitor', cardNumber, ctx.clock.now(), ctx.random);
}

const qrQuery = z.object({ format: z.enum(['json', 'svg', 'png']).default('json') });

/** PNG modules of 8 pixels: large enough for a phone camera at arm's length, small enough to send quickly. */
const pngScale = 8;

async function sendCode(res: Response, query: unknown, code: QrCode, caller: Caller): Promise<void> {
  const { format } = validate(qrQuery, query);
  // Dynamic codes expire within seconds: no cache may keep one, and a static one is a credential.
  res.set('Cache-Control', 'no-store');
  if (format === 'json') {
    res.json({
      payload: code.payload,
      mode: code.mode,
      subject: code.subject,
      cardNumber: code.cardNumber,
      issuedAt: code.issuedAt === null ? null : formatInZone(code.issuedAt, caller.timeZone),
      expiresAt: code.expiresAt === null ? null : formatInZone(code.expiresAt, caller.timeZone),
    });
    return;
  }
  if (code.expiresAt !== null) res.set('Expires', new Date(code.expiresAt).toUTCString());
  if (format === 'svg') {
    res.type('image/svg+xml').send(await QRCode.toString(code.payload, { type: 'svg', errorCorrectionLevel: 'M' }));
    return;
  }
  res.type('image/png').send(await QRCode.toBuffer(code.payload, { errorCorrectionLevel: 'M', scale: pngScale }));
}

function issueFor(ctx: Context, caller: Caller, subject: QrSubject, cardNumber: number | undefined): QrCode {
  const settings = qrSettingsOf(ctx, caller.companyId);
  if (cardNumber === undefined) throw new ApiError('MISSING_ACCESS_CARD_NUMBER');
  return issueCode(settings, subject, cardNumber, ctx.clock.now(), ctx.random);
}

interface VisitorRow {
  cardNumber: unknown;
  closed: number;
}

function visitorRow(ctx: Context, sql: string, caller: Caller, id: string): VisitorRow {
  const row = prepared(ctx.db, sql).get(id, caller.companyId) as VisitorRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/**
 * GET /v1/host/:id/qrcode, /v1/invitee/:id/qrcode, /v1/visit/:id/qrcode: the code a person shows at the gate,
 * as JSON (`payload`, `expiresAt`) or as an SVG or PNG picture (`?format=`).
 */
export function qrRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/host/:id/qrcode', async (req, res) => {
    const caller = callerOf(req);
    const host = getHost(ctx, caller, req.params.id);
    await sendCode(res, req.query, issueFor(ctx, caller, 'host', hostCardNumber(host.metadata)), caller);
  });
  router.get('/invitee/:id/qrcode', async (req, res) => {
    const caller = callerOf(req);
    const invitee = getInvitee(ctx, caller, req.params.id);
    if (invitee.status === 'canceled') throw new ApiError('INVITEE_CANCELED');
    await sendCode(res, req.query, issueFor(ctx, caller, 'visitor', cardNumberOf(invitee.cardNumber)), caller);
  });
  router.get('/visit/:id/qrcode', async (req, res) => {
    const caller = callerOf(req);
    const visit = visitorRow(
      ctx,
      `SELECT cardNumber, checkoutAt IS NOT NULL AS closed FROM visits
       WHERE id = ? AND companyId = ? AND deletedAt IS NULL`,
      caller,
      req.params.id,
    );
    if (visit.closed) throw new ApiError('ALREADY_CHECKOUT');
    await sendCode(res, req.query, issueFor(ctx, caller, 'visitor', cardNumberOf(visit.cardNumber)), caller);
  });
  return router;
}
