import { z } from 'zod';
import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { ndaUpload, pictureUpload } from '../files/schema.ts';
import { ndaOf, pictureOf } from '../files/store.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { hostNotice } from '../notifications/delivery.ts';
import { visitObject, visitObjects } from './present.ts';
import {
  authorizationInput,
  checkinAnswerSchema,
  checkoutInput,
  inviteeCheckinInput,
  screenAnswer,
  screenInput,
  visitCreateInput,
  visitInputCodes,
  visitObjectSchema,
  visitUpdateInput,
} from './schema.ts';
import {
  authorizeVisit,
  checkinInvitee,
  checkinWalkIn,
  checkoutInvitee,
  checkoutVisit,
  deleteVisit,
  getVisit,
  listVisits,
  putVisitFile,
  screenCheckin,
  updateVisit,
  visitQueryFields,
} from './store.ts';

/** GET /v1/visits pages as the vendor's public API does: 500 by default, 1000 at most. */
export const visitPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Visits';
const checkoutErrors = [
  'ALREADY_CHECKOUT',
  'CHECKOUT_AT_BEFORE_CHECKIN',
  'WRONG_CHECKOUT_AT_FORMAT',
  'HOST_NOT_FOUND',
] as const;
const visitorErrors = [
  'INVALID_EMAIL',
  'INVALID_CPF',
  'HOST_NOT_FOUND',
  'MEETING_NOT_FOUND',
  'VISITOR_TYPE_NOT_FOUND',
  'INVALID_PARAMETER',
  'INVALID_CUSTOM_FIELD',
] as const;

export function visitRoutes(ctx: Context): RouteSpec[] {
  const answer = async (caller: Parameters<typeof visitObject>[1], row: Parameters<typeof visitObject>[2]) =>
    await visitObject(ctx, caller, row);
  const checkinAnswer = async (caller: Parameters<typeof visitObject>[1], row: Parameters<typeof visitObject>[2]) => {
    const notice = await hostNotice(ctx, caller.companyId, row.id);
    return { ...(await visitObject(ctx, caller, row)), hostNotified: notice === 'notified', hostNotification: notice };
  };
  return [
    route({
      method: 'get',
      path: '/visits',
      roles: roles.guestReaders,
      tag,
      summary: 'List visits',
      response: z.object({ visits: z.array(visitObjectSchema), size: z.number().int() }),
      query: listQueryInput(visitPaging),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const visits = await visitObjects(
          ctx,
          caller,
          await listVisits(ctx, caller, parseListQuery(req.query, visitPaging, visitQueryFields)),
        );
        auditRead(ctx, caller, { action: 'visits.listed', objectType: 'visit', size: visits.length });
        return { visits, size: visits.length };
      },
    }),
    route({
      method: 'post',
      path: '/visits',
      roles: roles.desk,
      tag,
      summary: 'Check a walk-in visitor in (idempotent by the client-made visit.id)',
      response: checkinAnswerSchema,
      body: visitCreateInput,
      fieldCodes: visitInputCodes,
      errors: [
        'MISSING_ID',
        'INVALID_ID',
        'MISSING_NAME',
        'ALREADY_EXISTS',
        'WRONG_CHECKIN_AT_FORMAT',
        'CHECKOUT_AT_BEFORE_CHECKIN',
        ...visitorErrors,
      ],
      handle: async ({ caller, body }) => await checkinAnswer(caller, await checkinWalkIn(ctx, caller, body)),
    }),
    route({
      method: 'post',
      path: '/visits/screen',
      roles: roles.desk,
      tag,
      summary: 'Ask the blocklist before the rest of a check-in (a match records the visit, blocked, at once)',
      response: screenAnswer,
      body: screenInput,
      fieldCodes: visitInputCodes,
      errors: [
        'MISSING_ID',
        'INVALID_ID',
        'MISSING_NAME',
        'ALREADY_EXISTS',
        'INVITEE_NOT_FOUND',
        'INVITEE_CANCELED',
        ...visitorErrors,
      ],
      handle: async ({ caller, body }) => await screenCheckin(ctx, caller, body),
    }),
    route({
      method: 'patch',
      path: '/visit/allow/:id',
      roles: roles.deciders,
      tag,
      summary: 'Allow a visit',
      response: visitObjectSchema,
      body: authorizationInput,
      fieldCodes: visitInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', 'HOST_NOT_FOUND', 'INVALID_PARAMETER'],
      handle: async ({ caller, params, body }) =>
        await answer(caller, await authorizeVisit(ctx, caller, String(params.id), 'ALLOWED', body)),
    }),
    route({
      method: 'patch',
      path: '/visit/deny/:id',
      roles: roles.deciders,
      tag,
      summary: 'Deny a visit',
      response: visitObjectSchema,
      body: authorizationInput,
      fieldCodes: visitInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', 'HOST_NOT_FOUND', 'INVALID_PARAMETER'],
      handle: async ({ caller, params, body }) =>
        await answer(caller, await authorizeVisit(ctx, caller, String(params.id), 'DENIED', body)),
    }),
    route({
      method: 'patch',
      path: '/visit/checkout/:id',
      roles: roles.desk,
      tag,
      summary: 'Check a visit out',
      response: visitObjectSchema,
      body: checkoutInput,
      fieldCodes: visitInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', ...checkoutErrors],
      handle: async ({ caller, params, body }) =>
        await answer(caller, await checkoutVisit(ctx, caller, String(params.id), body)),
    }),
    route({
      method: 'post',
      path: '/visit/inviteeCheckin/:inviteeId',
      roles: roles.desk,
      tag,
      summary: 'Check an invitee in',
      response: checkinAnswerSchema,
      body: inviteeCheckinInput,
      fieldCodes: visitInputCodes,
      errors: [
        'INVITEE_NOT_FOUND',
        'INVITEE_CANCELED',
        'MISSING_ID',
        'INVALID_ID',
        'ALREADY_EXISTS',
        'WRONG_CHECKIN_AT_FORMAT',
        'INVALID_CUSTOM_FIELD',
      ],
      handle: async ({ caller, params, body }) =>
        await checkinAnswer(caller, await checkinInvitee(ctx, caller, String(params.inviteeId), body)),
    }),
    route({
      method: 'post',
      path: '/visit/inviteeCheckout/:inviteeId',
      roles: roles.desk,
      tag,
      summary: "Check out an invitee's open visit",
      response: visitObjectSchema,
      body: checkoutInput,
      fieldCodes: visitInputCodes,
      errors: ['INVITEE_NOT_FOUND', 'NOT_FOUND', 'MISSING_ID', ...checkoutErrors],
      handle: async ({ caller, params, body }) =>
        await answer(caller, await checkoutInvitee(ctx, caller, String(params.inviteeId), body)),
    }),
    route({
      method: 'get',
      path: '/visit/:id',
      roles: roles.guestReaders,
      tag,
      summary: 'Retrieve a visit',
      response: checkinAnswerSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        const visit = await getVisit(ctx, caller, String(params.id));
        auditRead(ctx, caller, { action: 'visit.read', objectType: 'visit', objectId: visit.id });
        return await checkinAnswer(caller, visit);
      },
    }),
    route({
      method: 'patch',
      path: '/visit/:id',
      tag,
      summary: "Update a visit's data (presence and authorization have their own operations)",
      response: visitObjectSchema,
      body: visitUpdateInput,
      fieldCodes: visitInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', ...visitorErrors],
      handle: async ({ caller, params, body }) =>
        await answer(caller, await updateVisit(ctx, caller, String(params.id), body)),
    }),
    route({
      method: 'put',
      path: '/visit/:id/picture',
      tag,
      summary: "Set a visit's picture, sent as itself: image/jpeg or image/png, up to 5 MiB",
      upload: pictureUpload,
      response: visitObjectSchema,
      errors: ['NOT_FOUND', 'INVALID_PICTURE'],
      handle: async ({ caller, params, bytes }) =>
        await answer(
          caller,
          await putVisitFile(
            ctx,
            caller,
            String(params.id),
            pictureOf(bytes ?? Buffer.alloc(0), 'visitPicture', 'visit-picture'),
          ),
        ),
    }),
    route({
      method: 'put',
      path: '/visit/:id/nda',
      tag,
      summary: "Set a visit's signed NDA, sent as itself: application/pdf, up to 10 MiB",
      upload: ndaUpload,
      response: visitObjectSchema,
      errors: ['NOT_FOUND', 'INVALID_NDA'],
      handle: async ({ caller, params, bytes }) =>
        await answer(
          caller,
          await putVisitFile(ctx, caller, String(params.id), ndaOf(bytes ?? Buffer.alloc(0), 'visitNda')),
        ),
    }),
    route({
      method: 'delete',
      path: '/visit/:id',
      tag,
      summary: 'Delete a visit',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteVisit(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
