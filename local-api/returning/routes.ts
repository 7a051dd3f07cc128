import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { type Caller, roles } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { type FailureLimiter, sharedFailureLimiter } from '../http/rate-limit.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { lookupLimits } from '../kiosk/visitor-routes.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import type { VisitorRow } from '../visitors/contract.ts';
import {
  codeRules,
  returningCodeAnswer,
  returningCodeInput,
  returningFindInput,
  returningVerifyInput,
  returningVisitorAnswer,
} from './schema.ts';
import { addressOf, codeChannelsOf, returningShown, startChallenge, verifyChallenge, visitorOfCode } from './store.ts';

const tag = 'Kiosk';

/**
 * Codes a kiosk asks to send: 30 within 10 minutes pause its requests for a minute (a morning rush stays within
 * it), so the screen cannot be used to flood people's inboxes.
 */
export const codeRequestLimits = { maxFailures: 30, windowMs: 10 * 60_000, lockMs: 60_000 } as const;

/** Codes for one address: 3 within 10 minutes, then none for 10 minutes, whoever asks and whether it is known. */
export const addressLimits = { maxFailures: 3, windowMs: 10 * 60_000, lockMs: 10 * 60_000 } as const;

/** Wrong codes typed at a kiosk: 10 within 10 minutes pause its code checks for 5 minutes. */
export const wrongCodeLimits = { maxFailures: 10, windowMs: 10 * 60_000, lockMs: 5 * 60_000 } as const;

/** Refuses with 429 and the seconds to wait when `wait` (milliseconds) is not 0. */
function refuseWhile(wait: number): void {
  if (wait > 0) throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: Math.ceil(wait / 1000) });
}

/**
 * A returning visitor at the kiosk (docs/kiosk.md, "Returning visitors"): they prove who they are with an earlier
 * badge's or invitation's QR code, or with a one-time code sent to their e-mail; only then does the kiosk get their
 * name, company and last host, and only of a visitor who said yes to being remembered.
 */
export function returningRoutes(ctx: Context): RouteSpec[] {
  const finds = sharedFailureLimiter(ctx, 'kiosk-returning-find', lookupLimits);
  const requests = sharedFailureLimiter(ctx, 'kiosk-returning-code', codeRequestLimits);
  const addresses = sharedFailureLimiter(ctx, 'kiosk-returning-address', addressLimits);
  const wrongCodes = sharedFailureLimiter(ctx, 'kiosk-returning-verify', wrongCodeLimits);

  const found = (caller: Caller, visitor: VisitorRow) => {
    auditRead(ctx, caller, { action: 'visitor.returned', objectType: 'visitor', objectId: visitor.id });
    return returningShown(ctx, caller, visitor);
  };
  const take = async (limiter: FailureLimiter, key: string) => refuseWhile(await limiter.takeAttempt(key));

  return [
    route({
      method: 'post',
      path: '/kiosk/returning/find',
      roles: roles.kiosk,
      tag,
      summary:
        "A returning visitor by an earlier badge's or invitation's QR code: name, company and last host, of a " +
        'visitor who said yes to being remembered (rate-limited)',
      body: returningFindInput,
      response: returningVisitorAnswer,
      errors: ['NOT_FOUND', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        refuseWhile(await finds.retryAfter(caller.credentialId));
        const visitor = await visitorOfCode(ctx, caller, body.code);
        if (!visitor) {
          await finds.recordFailure(caller.credentialId);
          throw new ApiError('NOT_FOUND');
        }
        return await found(caller, visitor);
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/returning/code',
      roles: roles.kiosk,
      tag,
      summary:
        `Send a ${codeRules.digits}-digit code to a returning visitor's e-mail or phone (valid 10 minutes): the same ` +
        'answer whether or not the address is of a visitor who can be found (rate-limited)',
      body: returningCodeInput,
      response: returningCodeAnswer,
      errors: ['INVALID_PARAMETER', 'CHANNEL_NOT_CONFIGURED', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        const address = addressOf(body.address);
        if (!codeChannelsOf(await findNotificationSettings(ctx, caller.companyId)).includes(address.channel)) {
          throw new ApiError('CHANNEL_NOT_CONFIGURED', { channel: address.channel });
        }
        await take(requests, caller.credentialId);
        await take(addresses, `${caller.companyId}:${address.channel}:${address.key}`);
        const { challenge, expiresAt } = await startChallenge(ctx, caller, address, body.lang);
        return {
          challenge,
          channel: address.channel,
          expiresInSeconds: Math.round((expiresAt - ctx.clock.now()) / 1000),
        };
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/returning/verify',
      roles: roles.kiosk,
      tag,
      summary:
        `Prove an address with the code sent to it (${codeRules.maxAttempts} tries): name, company and last host ` +
        '(rate-limited)',
      body: returningVerifyInput,
      response: returningVisitorAnswer,
      errors: ['WRONG_CODE', 'CODE_EXPIRED', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        await take(wrongCodes, caller.credentialId);
        const result = await verifyChallenge(ctx, caller, body.challenge, body.code);
        if ('expired' in result) throw new ApiError('CODE_EXPIRED');
        if ('wrong' in result) {
          if (result.wrong === 0) throw new ApiError('CODE_EXPIRED');
          throw new ApiError('WRONG_CODE', { attemptsLeft: result.wrong });
        }
        await wrongCodes.recordSuccess(caller.credentialId);
        return await found(caller, result.visitor);
      },
    }),
  ];
}
