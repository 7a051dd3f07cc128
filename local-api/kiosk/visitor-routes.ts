import { qrAnswer, qrQuery, visitGateCode } from '../access/qr-routes.ts';
import { findAccessConfig } from '../access/store.ts';
import { companyObject } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { type Caller, roles } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { type FailureLimiter, sharedFailureLimiter } from '../http/rate-limit.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { findNotificationSettings } from '../notifications/settings.ts';
import { sendsPassLinks } from '../pass/message.ts';
import { codeChannelsOf, identifiersKept } from '../returning/store.ts';
import { isUuidV4 } from '../rules/ids.ts';
import { firstNameAndInitial } from '../rules/names.ts';
import { formatInZone } from '../rules/time.ts';
import { effectiveRules } from '../visitor-types/rules.ts';
import { typeRules } from '../visitor-types/store.ts';
import type { VisitRow } from '../visits/contract.ts';
import { screenAnswer, visitInputCodes } from '../visits/schema.ts';
import { checkinInvitee, checkinWalkIn, checkoutVisit, findVisit, getVisit, screenCheckin } from '../visits/store.ts';
import { kioskSettings } from './store.ts';
import { issueTicket, openTicket, ticketNames } from './tickets.ts';
import {
  hostSearch,
  kioskCheckoutAnswer,
  kioskCheckoutFindInput,
  kioskCheckoutInput,
  kioskCompanyObject,
  kioskHostsAnswer,
  kioskHostsQuery,
  kioskInviteeCheckinInput,
  kioskInviteeFindInput,
  kioskInviteesAnswer,
  kioskReceiptQuery,
  kioskScreenInput,
  kioskVisitObject,
  kioskVisitsAnswer,
  kioskWalkInInput,
} from './visitor-schema.ts';
import {
  findHostsByName,
  findInviteeByCode,
  findInviteesByName,
  findVisitsInsideByName,
  inviteeShown,
  visitOfBadge,
  kioskVisitObject as visitShown,
} from './visitor-store.ts';

const tag = 'Kiosk';

/**
 * Lookups that find nobody (a code, a name): 20 within 10 minutes pause the kiosk's lookups for a minute, so the
 * screen cannot be used to walk through card numbers or guess who is expected.
 */
export const lookupLimits = { maxFailures: 20, windowMs: 10 * 60_000, lockMs: 60_000 } as const;

/**
 * Host searches, found or not: 240 within 10 minutes pause the kiosk's host search, so the type-ahead cannot be
 * walked through the alphabet to list the staff (docs/kiosk.md): with 3 letters and 5 answers a search, a walk of
 * the 17,576 three-letter prefixes takes 12 hours. A visitor's search takes 3 to 8; a morning rush of 30 visitors
 * in 10 minutes stays within it, since a refused search leaves the visitor only the reception.
 */
export const hostSearchLimits = { maxFailures: 240, windowMs: 10 * 60_000, lockMs: 60_000 } as const;

/** Refuses a kiosk whose limit is reached: 429 with the seconds to wait. */
async function refuseWhileLocked(limiter: FailureLimiter, caller: Caller): Promise<void> {
  const wait = await limiter.retryAfter(caller.credentialId);
  if (wait > 0) throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: Math.ceil(wait / 1000) });
}

/**
 * How long after a kiosk check-in the same visit id sent again answers that visit: the page's retries of a request
 * whose answer was lost come within seconds. Later, the id (printed on the badge) opens nothing.
 */
export const retryWindowMs = 2 * 60_000;

/**
 * The self-service screen's endpoints (role `kiosk`): what the visitor flows need and nothing more. Nothing here
 * lists people: a lookup answers the person it names, as a first name and an initial, with a ticket for the next
 * step. A visit id alone opens nothing: the visit is read with the receipt its check-in answered, and checked out
 * with the badge's code or a check-out ticket.
 */
export function kioskVisitorRoutes(ctx: Context): RouteSpec[] {
  const limiter = sharedFailureLimiter(ctx, 'kiosk-lookup', lookupLimits);
  const hostSearches = sharedFailureLimiter(ctx, 'kiosk-host-search', hostSearchLimits);

  /** Runs a lookup, counting one that finds nobody; a locked kiosk is answered 429 with the seconds to wait. */
  async function lookup<T>(caller: Caller, find: () => Promise<T[]>): Promise<T[]> {
    await refuseWhileLocked(limiter, caller);
    const found = await find();
    if (found.length === 0) await limiter.recordFailure(caller.credentialId);
    return found;
  }

  /**
   * Refuses a check-in whose visit id names a visit this screen did not just make: only a retry of the screen's own
   * check-in may answer an existing visit (and its receipt), never a visit whose id was read off a badge.
   */
  async function refuseOthersVisit(caller: Caller, visitId: string): Promise<void> {
    const existing = isUuidV4(visitId) ? await findVisit(ctx, caller, visitId) : undefined;
    if (existing && !isRetry(existing)) throw new ApiError('ALREADY_EXISTS');
  }

  const isRetry = (visit: VisitRow) =>
    visit.checkinType === 'IPAD' && Number(visit.createdAt) > ctx.clock.now() - retryWindowMs;

  /** The visit as its check-in answers it: with the receipt that reads it again. */
  const withReceipt = async (caller: Caller, visit: VisitRow, receipt?: string) => ({
    ...(await visitShown(ctx, caller, visit)),
    receipt: receipt ?? issueTicket(ctx, caller.companyId, 'visit-receipt', visit.id),
  });

  /** The visit a receipt names: without one for this very visit, any id is NOT_FOUND, as an unknown one. */
  async function visitOfReceipt(
    caller: Caller,
    id: string,
    receipt: unknown,
  ): Promise<{ visit: VisitRow; receipt: string }> {
    if (typeof receipt !== 'string' || !ticketNames(ctx, caller.companyId, 'visit-receipt', receipt, id)) {
      throw new ApiError('NOT_FOUND');
    }
    return { visit: await getVisit(ctx, caller, id), receipt };
  }

  return [
    route({
      method: 'get',
      path: '/kiosk/company',
      roles: roles.company,
      tag,
      summary:
        "The company's face on the kiosk (name, language, zone, picture, brand) and whether access control is on",
      response: kioskCompanyObject,
      errors: [],
      handle: async ({ caller }) => {
        const company = await companyObject(ctx, caller);
        return {
          id: caller.companyId,
          name: String(company.name),
          lang: caller.lang,
          timezone: caller.timeZone,
          pictureUrl: (company.pictureUrl as string | null) ?? null,
          accessControl: (await findAccessConfig(ctx, caller.companyId))?.enabled === true,
          passLinks: await sendsPassLinks(ctx, caller.companyId),
          brandColor: (company.brandColor as string | null) ?? null,
          welcomeImageUrl: (company.welcomeImageUrl as string | null) ?? null,
          localizedWelcomeMessage: company.localizedWelcomeMessage as Record<string, string>,
          returningCodeChannels: codeChannelsOf(await findNotificationSettings(ctx, caller.companyId)),
        };
      },
    }),
    route({
      method: 'get',
      path: '/kiosk/hosts',
      roles: roles.kiosk,
      tag,
      summary:
        `Find hosts by name (${hostSearch.minLength} letters or more of any of their names): name and sector, ` +
        `${hostSearch.maxResults} at most (rate-limited)`,
      query: kioskHostsQuery,
      response: kioskHostsAnswer,
      errors: ['INVALID_PARAMETER', 'TOO_MANY_REQUESTS'],
      handle: async ({ req, caller }) => {
        await refuseWhileLocked(hostSearches, caller);
        const hosts = await findHostsByName(ctx, caller, validate(kioskHostsQuery, req.query).name);
        await hostSearches.recordFailure(caller.credentialId);
        return { hosts };
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/walkin',
      roles: roles.kiosk,
      tag,
      summary: "Check a walk-in in (idempotent by visit.id); the host's approval is asked when the kiosk requires it",
      body: kioskWalkInInput,
      fieldCodes: visitInputCodes,
      response: kioskVisitObject,
      errors: [
        'MISSING_ID',
        'INVALID_ID',
        'MISSING_NAME',
        'ALREADY_EXISTS',
        'INVALID_EMAIL',
        'INVALID_CPF',
        'HOST_NOT_FOUND',
        'INVALID_PARAMETER',
        'INVALID_CUSTOM_FIELD',
        'INVALID_PICTURE',
        'INVALID_NDA',
        'INVALID_TICKET',
      ],
      handle: async ({ caller, body }) => {
        const { returning, ...checkin } = body;
        await refuseOthersVisit(caller, checkin.visit.id);
        // The visitor's type decides where it has a rule, the kiosk's settings elsewhere.
        const type = await typeRules(ctx, caller, checkin.visit.visitorTypeId);
        const { requireAuthorization } = effectiveRules(type, await kioskSettings(ctx, caller), caller.lang);
        // A returning visitor who proved who they are is checked in as their own record, with the identifiers it
        // keeps (which the screen never held) where the check-in gives none: the blocklist screens them, and the
        // visit is theirs for an erasure.
        const visitorId =
          returning === undefined ? undefined : openTicket(ctx, caller.companyId, 'returning-visitor', returning);
        const kept = visitorId ? await identifiersKept(ctx, caller, visitorId) : {};
        const visit = await checkinWalkIn(ctx, caller, {
          ...checkin,
          visitor: { ...kept, ...checkin.visitor },
          visit: {
            ...checkin.visit,
            ...(visitorId ? { visitorId } : {}),
            checkinType: 'IPAD',
            ...(requireAuthorization ? { authorizationStatus: 'AWAITING' as const } : {}),
          },
        });
        return await withReceipt(caller, visit);
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/screen',
      roles: roles.kiosk,
      tag,
      summary:
        'Ask the blocklist before the rest of a check-in, as POST /v1/visits/screen does (an invitation by its ' +
        'ticket): `stop` only, never why',
      body: kioskScreenInput,
      fieldCodes: visitInputCodes,
      response: screenAnswer,
      errors: [
        'MISSING_ID',
        'INVALID_ID',
        'MISSING_NAME',
        'ALREADY_EXISTS',
        'INVALID_TICKET',
        'INVITEE_NOT_FOUND',
        'INVITEE_CANCELED',
        'INVALID_EMAIL',
        'INVALID_CPF',
        'HOST_NOT_FOUND',
        'INVALID_PARAMETER',
        'INVALID_CUSTOM_FIELD',
      ],
      handle: async ({ caller, body }) => {
        const { ticket, ...screen } = body;
        await refuseOthersVisit(caller, screen.visit.id);
        const inviteeId =
          ticket === undefined ? undefined : openTicket(ctx, caller.companyId, 'invitee-checkin', ticket);
        return await screenCheckin(ctx, caller, {
          ...screen,
          visit: { ...screen.visit, checkinType: 'IPAD' },
          ...(inviteeId ? { inviteeId } : {}),
        });
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/invitees/find',
      roles: roles.kiosk,
      tag,
      summary:
        "Find one's invitation by its code (QR code, id or card number) or by one's whole name (guests expected " +
        'today): first name, initial and a ticket for the check-in',
      body: kioskInviteeFindInput,
      response: kioskInviteesAnswer,
      errors: ['INVALID_PARAMETER', 'INVITEE_CANCELED', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        const found = await lookup(caller, async () => {
          if (body.name !== undefined) return await findInviteesByName(ctx, caller, body.name);
          const invitee = await findInviteeByCode(ctx, caller, body.code ?? '');
          return invitee ? [invitee] : [];
        });
        if (found.some((invitee) => invitee.status === 'canceled')) throw new ApiError('INVITEE_CANCELED');
        return {
          invitees: await Promise.all(
            found.map(
              async (invitee) =>
                await inviteeShown(
                  ctx,
                  caller,
                  invitee,
                  issueTicket(ctx, caller.companyId, 'invitee-checkin', invitee.id),
                ),
            ),
          ),
        };
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/invitee/checkin',
      roles: roles.kiosk,
      tag,
      summary: 'Check in the invitee a ticket names (idempotent by visitId)',
      body: kioskInviteeCheckinInput,
      fieldCodes: { visitId: { missing: 'MISSING_ID', invalid: 'INVALID_ID' } },
      response: kioskVisitObject,
      errors: [
        'INVALID_TICKET',
        'INVITEE_NOT_FOUND',
        'INVITEE_CANCELED',
        'MISSING_ID',
        'INVALID_ID',
        'ALREADY_EXISTS',
        'INVALID_CUSTOM_FIELD',
        'INVALID_PICTURE',
        'INVALID_NDA',
      ],
      handle: async ({ caller, body }) => {
        const { ticket, visitId, ...rest } = body;
        const inviteeId = openTicket(ctx, caller.companyId, 'invitee-checkin', ticket);
        await refuseOthersVisit(caller, visitId);
        const visit = await checkinInvitee(ctx, caller, inviteeId, { ...rest, id: visitId, checkinType: 'IPAD' });
        // A guest inside already is answered their open visit: only to a retry, not to whoever holds the
        // invitation's code (its card number can be typed) long after.
        if (visit.id !== visitId && !isRetry(visit)) throw new ApiError('ALREADY_EXISTS');
        return await withReceipt(caller, visit);
      },
    }),
    route({
      method: 'get',
      path: '/kiosk/visit/:id',
      roles: roles.kiosk,
      tag,
      summary:
        "A visit this screen checked in, by its id and the check-in's receipt: the waiting screen's status and the " +
        'badge',
      query: kioskReceiptQuery,
      response: kioskVisitObject,
      errors: ['NOT_FOUND'],
      handle: async ({ req, caller, params }) => {
        const { visit, receipt } = await visitOfReceipt(caller, String(params.id), req.query.receipt);
        return await withReceipt(caller, visit, receipt);
      },
    }),
    route({
      method: 'get',
      path: '/kiosk/visit/:id/qrcode',
      roles: roles.kiosk,
      tag,
      summary:
        "The gate code of a visit this screen checked in, by the check-in's receipt, once it is let in (as " +
        'GET /v1/visit/:id/qrcode answers it)',
      query: qrQuery.extend(kioskReceiptQuery.shape),
      response: qrAnswer,
      produces: ['image/svg+xml', 'image/png'],
      errors: [
        'NOT_FOUND',
        'ACCESS_INTEGRATION_DISABLED',
        'ACCESS_KEY_NOT_CONFIGURED',
        'MISSING_ACCESS_CARD_NUMBER',
        'ALREADY_CHECKOUT',
        'NOT_ALLOWED',
        'INVALID_PARAMETER',
      ],
      handle: async ({ req, res, caller, params }) => {
        const { visit } = await visitOfReceipt(caller, String(params.id), req.query.receipt);
        const waitingOrRefused = visit.authorizationStatus === 'AWAITING' || visit.authorizationStatus === 'DENIED';
        if (visit.checkoutAt === null && (visit.isInsideCompany !== 1 || waitingOrRefused)) {
          throw new ApiError('NOT_ALLOWED');
        }
        return visitGateCode(ctx, req, res, caller, visit);
      },
    }),
    route({
      method: 'post',
      path: '/kiosk/checkout/find',
      roles: roles.kiosk,
      tag,
      summary:
        "Find one's own visit by the badge's code or by one's whole name (visits inside now): first name, initial " +
        'and a ticket for the check-out',
      body: kioskCheckoutFindInput,
      response: kioskVisitsAnswer,
      errors: ['INVALID_PARAMETER', 'ALREADY_CHECKOUT', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => ({
        visits: (
          await lookup(caller, async () => {
            if (body.name !== undefined) return await findVisitsInsideByName(ctx, caller, body.name);
            const visit = await visitOfBadge(ctx, caller, body.code ?? '');
            if (visit && visit.checkoutAt !== null) throw new ApiError('ALREADY_CHECKOUT');
            return visit ? [visit] : [];
          })
        ).map((visit) => ({
          ticket: issueTicket(ctx, caller.companyId, 'visit-checkout', visit.id),
          ...firstNameAndInitial((visit.name as string | null) ?? ''),
        })),
      }),
    }),
    route({
      method: 'post',
      path: '/kiosk/checkout',
      roles: roles.kiosk,
      tag,
      summary: "Check out by the badge's code, or by the ticket of POST /v1/kiosk/checkout/find",
      body: kioskCheckoutInput,
      response: kioskCheckoutAnswer,
      errors: ['NOT_FOUND', 'INVALID_TICKET', 'ALREADY_CHECKOUT', 'INVALID_PARAMETER', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        const [visit] = await lookup(caller, async () => {
          const found =
            body.ticket === undefined
              ? await visitOfBadge(ctx, caller, body.code ?? '')
              : await findVisit(ctx, caller, openTicket(ctx, caller.companyId, 'visit-checkout', body.ticket));
          return found ? [found] : [];
        });
        if (!visit) throw new ApiError('NOT_FOUND');
        const done = await checkoutVisit(ctx, caller, visit.id, { checkoutType: 'IPAD' });
        return {
          ...firstNameAndInitial((done.name as string | null) ?? ''),
          checkoutAt: formatInZone(Number(done.checkoutAt), caller.timeZone),
        };
      },
    }),
  ];
}
