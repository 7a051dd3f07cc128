import { z } from 'zod';
import { base64Upload } from '../files/schema.ts';
import { dateInput, type FieldCodes, nullableText } from '../http/fields.ts';
import { hostNotices } from '../notifications/schema.ts';
import { createShape } from '../rules/resource-contract.ts';
import { personFields, visitorDataFields } from '../visitors/contract.ts';
import {
  answers,
  authorizationVias,
  checkinTypes,
  ndaSignatures,
  upperEnum,
  type VisitRow,
  visitCreateShape,
  visitFields,
  visitObjectShape,
  visitRecordFields,
  visitUpdateShape,
} from './contract.ts';

/** The visitor of a check-in: its fields are the visit object's visitor data (docs/api.md, "Visits"). */
export const visitorInput = z.object(createShape(personFields)).partial();
export type VisitorInput = z.output<typeof visitorInput>;

/** The check-in's files (docs/api.md, "Check-in data"): the visitor's picture and the signed NDA, each Base64. */
const visitFiles = {
  visitPicture: base64Upload('the visitor picture: JPEG or PNG, up to 5 MB').optional(),
  visitNda: base64Upload('the signed NDA: PDF, up to 10 MB').optional(),
};

/** POST /v1/visits: `visit` (only `id` required, a client-made UUID v4), `visitor`, and the check-in's files. */
export const visitCreateInput = z.object({
  visit: z.object({ ...z.object(visitCreateShape).partial().shape, id: visitCreateShape.id }),
  visitor: visitorInput,
  ...visitFiles,
});
export type VisitCreateInput = z.output<typeof visitCreateInput>;

/**
 * PATCH /v1/visit/:id: the same shape, every field optional. Presence is changed by check-out and authorization by
 * allow/deny, so those fields are not updatable here.
 */
export const visitUpdateInput = z.object({
  visit: z.object(visitUpdateShape).partial().optional(),
  visitor: visitorInput.optional(),
  ...visitFiles,
});
export type VisitUpdateInput = z.output<typeof visitUpdateInput>;

/** PATCH /v1/visit/checkout/:id and POST /v1/visit/inviteeCheckout/:inviteeId. */
export const checkoutInput = z
  .object({
    checkoutAt: dateInput(),
    checkoutType: upperEnum(checkinTypes),
    checkoutByHostId: z.string().max(64),
    checkoutByIpadId: z.string().max(64),
  })
  .partial();
export type CheckoutInput = z.output<typeof checkoutInput>;

/** PATCH /v1/visit/allow/:id and /deny/:id. */
export const authorizationInput = z
  .object({ authorizedById: z.string().max(64), authorizationVia: upperEnum(authorizationVias) })
  .partial();
export type AuthorizationInput = z.output<typeof authorizationInput>;

/** POST /v1/visit/inviteeCheckin/:inviteeId: all optional; `id` makes a retried check-in idempotent. */
export const inviteeCheckinInput = z
  .object({
    id: z.string().max(64),
    checkinAt: dateInput(),
    checkinType: upperEnum(checkinTypes),
    checkinByIpadId: z.string().max(64),
    checkinByHostId: z.string().max(64),
    notes: nullableText(5000),
    customFields: answers(),
    questionnaireFields: answers(),
    waiveReason: z.string().trim().min(3).max(500),
    ndaSignature: upperEnum(ndaSignatures).nullable(),
    ...visitFiles,
  })
  .partial();
export type InviteeCheckinInput = z.output<typeof inviteeCheckinInput>;

/**
 * POST /v1/visits/screen: the walk-in's visit (its id, host, type) and the visitor's data typed so far, or an
 * invitee and the id its visit will have.
 */
export const screenInput = z.object({
  visit: z.object({
    ...z.object(visitCreateShape).pick({ hostId: true, visitorTypeId: true, checkinType: true }).partial().shape,
    id: visitCreateShape.id,
  }),
  visitor: visitorInput.optional(),
  inviteeId: z.string().max(64).optional(),
});
export type ScreenInput = z.output<typeof screenInput>;
export const screenAnswer = z.object({ stop: z.boolean().describe('the visitor is to see the reception now') });

export const visitInputCodes: Readonly<Record<string, FieldCodes>> = {
  'visit.id': { missing: 'MISSING_ID', invalid: 'INVALID_ID' },
  id: { invalid: 'INVALID_ID' },
  'visit.hostId': { invalid: 'HOST_NOT_FOUND' },
  'visit.visitorTypeId': { invalid: 'VISITOR_TYPE_NOT_FOUND' },
  'visit.checkinAt': { invalid: 'WRONG_CHECKIN_AT_FORMAT' },
  checkinAt: { invalid: 'WRONG_CHECKIN_AT_FORMAT' },
  'visit.checkoutAt': { invalid: 'WRONG_CHECKOUT_AT_FORMAT' },
  checkoutAt: { invalid: 'WRONG_CHECKOUT_AT_FORMAT' },
  'visitor.name': { missing: 'MISSING_NAME' },
  'visitor.email': { invalid: 'INVALID_EMAIL' },
  'visitor.cpf': { invalid: 'INVALID_CPF' },
  visitPicture: { invalid: 'INVALID_PICTURE' },
  visitNda: { invalid: 'INVALID_NDA' },
};

/** The visit object of docs/api.md, "Visits" (with the stored record's fields of docs/api.md, "Check-in data"). */
export const visitObjectSchema = z.object(visitObjectShape);

/** How far the host of a check-in was told (docs/api.md, "Delivery state"). */
export const hostNotificationSchema = z
  .enum(hostNotices)
  .describe(
    'none: no message queued; sending: none confirmed yet; notified: a channel confirmed; failed: every one failed',
  );

/** The answer of a check-in, and of reading one visit: the visit, and whether its host was told it began. */
export const checkinAnswerSchema = visitObjectSchema.extend({
  hostNotified: z.boolean().describe('a channel confirmed the message to the host (`hostNotification` is `notified`)'),
  hostNotification: hostNotificationSchema,
});

/** The visit's columns an operation's input takes, in its order. */
const columnsOf = (input: z.ZodObject) =>
  Object.keys(input.shape).filter((key): key is keyof VisitRow => Object.hasOwn(visitFields, key));

/**
 * What a kiosk's mutations carry of a visit (docs/sync.md), read from its row: each the columns its hub's operation
 * takes. A check-in's record is the walk-in's POST /v1/visits: every field a client writes at creation but the
 * company, and the visitor's.
 */
export const visitSyncFields = {
  walkIn: visitRecordFields,
  visitor: visitorDataFields,
  inviteeCheckin: columnsOf(inviteeCheckinInput),
  checkout: columnsOf(checkoutInput),
  authorization: columnsOf(authorizationInput),
};
