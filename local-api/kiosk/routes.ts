import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { type Caller, roles } from '../credentials/caller.ts';
import { revokeCredential } from '../credentials/store.ts';
import { ApiError } from '../http/errors.ts';
import { sharedFailureLimiter } from '../http/rate-limit.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { endFrontDeskSessions, frontDeskSessionObject, openFrontDeskSession } from './frontdesk.ts';
import { hashPin, pinMatches } from './pin.ts';
import {
  kioskSettingsInput,
  kioskSettingsObject,
  pinPattern,
  pinSetInput,
  pinVerifiedSchema,
  pinVerifyInput,
} from './schema.ts';
import { clearPinHash, kioskSettings, saveKioskSettings, savePinHash, storedPinHash } from './store.ts';

const tag = 'Kiosk';

/**
 * Wrong PINs: 5 within 15 minutes lock the company's PIN for 5 minutes. The kiosk is the only client of its own
 * service, so the lock is per company (per device), not per address: every request comes from 127.0.0.1.
 */
export const pinLimits = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 5 * 60_000 } as const;

export function kioskRoutes(ctx: Context): RouteSpec[] {
  const limiter = sharedFailureLimiter(ctx, 'pin', pinLimits);

  /**
   * Checks a PIN against the stored hash. The failure is counted before scrypt runs and forgiven after a match:
   * guesses sent all at once cannot slip past the limit while the hashes are being computed.
   */
  async function checkPin(caller: Caller, pin: string): Promise<void> {
    const key = caller.companyId;
    const stored = await storedPinHash(ctx, key);
    if (!stored) throw new ApiError('PIN_NOT_SET');
    const wait = await limiter.takeAttempt(key);
    if (wait > 0) throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: Math.ceil(wait / 1000) });
    if (!pinPattern.test(pin) || !(await pinMatches(pin, stored))) {
      await recordAudit(ctx, auditActor(caller), {
        action: 'kiosk.pin.failed',
        objectType: 'kioskSettings',
        details: { locked: (await limiter.retryAfter(key)) > 0 },
      });
      throw new ApiError('WRONG_PIN');
    }
    await limiter.recordSuccess(key);
  }

  return [
    route({
      method: 'get',
      path: '/kiosk/settings',
      roles: roles.company,
      tag,
      summary: "The kiosk's settings: visitor fields, picture, NDA text, authorization, idle time-out",
      response: kioskSettingsObject,
      errors: [],
      handle: async ({ caller }) => await kioskSettings(ctx, caller),
    }),
    route({
      method: 'patch',
      path: '/kiosk/settings',
      roles: roles.staff,
      tag,
      summary: "Change the kiosk's settings (partial; visitor fields merge one by one)",
      body: kioskSettingsInput,
      response: kioskSettingsObject,
      errors: ['INVALID_PARAMETER'],
      handle: async ({ caller, body }) => await saveKioskSettings(ctx, caller, body),
    }),
    route({
      method: 'post',
      path: '/kiosk/pin',
      roles: roles.staff,
      tag,
      summary:
        'Set the front-desk PIN (the first time without currentPin; later currentPin is required). The kiosk ' +
        'screen cannot: a first PIN is set at enrolment or by the admin',
      body: pinSetInput,
      fieldCodes: { pin: { missing: 'INVALID_PIN', invalid: 'INVALID_PIN' } },
      response: successSchema,
      errors: ['INVALID_PIN', 'WRONG_PIN', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        if (await storedPinHash(ctx, caller.companyId)) await checkPin(caller, body.currentPin ?? '');
        await savePinHash(ctx, auditActor(caller), await hashPin(body.pin, ctx.random.bytes(16)));
        return { success: true };
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/pin/verify',
      roles: roles.atTheKiosk,
      tag,
      summary: 'Check the front-desk PIN (rate-limited)',
      body: pinVerifyInput,
      fieldCodes: { pin: { missing: 'WRONG_PIN', invalid: 'WRONG_PIN' } },
      response: pinVerifiedSchema,
      errors: ['WRONG_PIN', 'PIN_NOT_SET', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        await checkPin(caller, body.pin);
        return { valid: true };
      },
    }),
    route({
      method: 'delete',
      path: '/kiosk/pin',
      tag,
      summary: "Clear the front-desk PIN (a forgotten one) and end the front desk's sessions; the admin's",
      response: successSchema,
      errors: [],
      handle: async ({ caller }) => {
        await inTransaction(ctx, async () => {
          await clearPinHash(ctx, caller);
          await endFrontDeskSessions(ctx, caller);
        });
        return { success: true };
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/frontdesk',
      roles: roles.kiosk,
      tag,
      summary:
        'Open a front-desk session with the PIN: a `frontdesk` credential that ends after 10 minutes without a ' +
        'request, 12 hours after it began, or when ended (rate-limited as the PIN check)',
      body: pinVerifyInput,
      fieldCodes: { pin: { missing: 'WRONG_PIN', invalid: 'WRONG_PIN' } },
      response: frontDeskSessionObject,
      errors: ['WRONG_PIN', 'PIN_NOT_SET', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        await checkPin(caller, body.pin);
        return await openFrontDeskSession(ctx, caller);
      },
    }),
    route({
      method: 'delete',
      path: '/kiosk/frontdesk',
      roles: ['frontdesk'],
      tag,
      summary: 'End the front-desk session making the request: its token fails from now on',
      response: successSchema,
      errors: [],
      handle: async ({ caller }) => {
        await inTransaction(ctx, async () => {
          await revokeCredential(ctx, caller.companyId, caller.credentialId);
          await recordAudit(ctx, auditActor(caller), {
            action: 'frontdesk.session.ended',
            objectType: 'credential',
            objectId: caller.credentialId,
          });
        });
        return { success: true };
      },
    }),
  ];
}
