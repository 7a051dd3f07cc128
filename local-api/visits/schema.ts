import { z } from 'zod';
import { base64Upload } from '../files/schema.ts';
import { hostSummarySchema } from '../hosts/schema.ts';
import { bool, cpf, dateInput, email, type FieldCodes, nullableText, phone } from '../http/fields.ts';
import { visitorTextLimits } from '../rules/visitor.ts';
import type { ColumnKinds } from '../store/columns.ts';
import { visitorDataFields } from '../visitors/schema.ts';

export const checkinTypes = ['IPAD', 'DASHBOARD', 'API', 'MOBILE', 'INVITES', 'AUTOMATIC'] as const;
export const authorizationVias = ['DASHBOARD', 'INVITE', 'LINK', 'APP', 'ACCESS'] as const;
export const authorizationStatuses = ['AWAITING', 'ALLOWED', 'DENIED'] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number];

/** The visit object's lower-case authorization values (section 3) and the stored ones. */
export const authorizationStatusOut: Readonly<Record<AuthorizationStatus, string>> = {
  AWAITING: 'waiting',
  ALLOWED: 'allowed',
  DENIED: 'denied',
};
const authorizationStatusIn: Readonly<Record<string, AuthorizationStatus>> = {
  AWAITING: 'AWAITING',
  WAITING: 'AWAITING',
  ALLOWED: 'ALLOWED',
  DENIED: 'DENIED',
};

const upperEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values));

const localized = () =>
  z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string(), de: z.string() }).partial();

/** An answer item of section 2.6 (custom fields, questionnaire, feedback). */
export const answerItem = () =>
  z.object({
    customFieldId: z.string().min(1).max(64),
    value: z.string().max(5000),
    isCorrect: bool().optional(),
    name: z.string().max(500).optional(),
    localizedName: localized().optional(),
    localizedValue: localized().optional(),
    sort: z.coerce.number().int().min(0).optional(),
    location: z
      .enum(['FIELD', 'FEEDBACK', 'MEETING_HOST', 'MEETING_VISIT', 'QUESTIONNAIRE', 'HOST_EXTRA_INFO'])
      .optional(),
    visitorId: z.string().max(64).optional(),
    visitId: z.string().max(64).optional(),
    meetingId: z.string().max(64).optional(),
  });
export type AnswerItem = z.output<ReturnType<typeof answerItem>>;

const answers = () => z.array(answerItem()).max(200);

/** The visitor of a check-in: its fields are the visit object's visitor data (section 2.7). */
export const visitorInput = z
  .object({
    name: z.string().trim().min(1).max(visitorTextLimits.name),
    email: email().nullable(),
    phone: phone().nullable(),
    cpf: cpf().nullable(),
    rg: nullableText(visitorTextLimits.rg),
    document: nullableText(visitorTextLimits.document),
    company: nullableText(visitorTextLimits.company),
    position: nullableText(visitorTextLimits.position),
    sector: nullableText(visitorTextLimits.sector),
    address: nullableText(visitorTextLimits.address),
  })
  .partial();
export type VisitorInput = z.output<typeof visitorInput>;

const visitFields = {
  id: z.string().max(64),
  hostId: z.string().max(64).nullable(),
  visitorTypeId: z.string().max(64).nullable(),
  checkinType: upperEnum(checkinTypes),
  checkoutType: upperEnum(checkinTypes),
  cardNumber: z
    .union([z.string().max(64), z.int32()])
    .transform(String)
    .nullable(),
  expectedAt: dateInput().nullable(),
  checkinAt: dateInput(),
  finishCheckinAt: dateInput().nullable(),
  checkoutAt: dateInput().nullable(),
  authorizedById: z.string().max(64).nullable(),
  authorizedAt: dateInput().nullable(),
  authorizationVia: upperEnum(authorizationVias).nullable(),
  authorizationLink: nullableText(2000),
  authorizationStatus: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(Object.keys(authorizationStatusIn) as [string, ...string[]]))
    .transform((s) => authorizationStatusIn[s] as AuthorizationStatus)
    .nullable(),
  visitorStatus: upperEnum(['BLOCKED']).nullable(),
  statusNote: nullableText(2000),
  checkinByHostId: z.string().max(64).nullable(),
  checkoutByHostId: z.string().max(64).nullable(),
  checkinByIpadId: z.string().max(64).nullable(),
  checkoutByIpadId: z.string().max(64).nullable(),
  notes: nullableText(5000),
  customHostName: nullableText(200),
  meetingId: z.string().max(64).nullable(),
  companyId: z.string().max(64),
  visitorId: z.string().max(64).nullable(),
  userId: z.string().max(64).nullable(),
  isCanceled: bool(),
  feedbacks: answers(),
  customFields: answers(),
  questionnaireFields: answers(),
  firstAccessAt: dateInput().nullable(),
  timeToDelayVisit: dateInput().nullable(),
};

/** The check-in's files (section 2.6): the visitor's picture and the signed NDA, each Base64. */
const visitFiles = {
  visitPicture: base64Upload('the visitor picture: JPEG or PNG, up to 5 MB').optional(),
  visitNda: base64Upload('the signed NDA: PDF, up to 10 MB').optional(),
};

/** POST /v1/visits: `visit` (only `id` required, a client-made UUID v4), `visitor`, and the check-in's files. */
export const visitCreateInput = z.object({
  visit: z.object({ ...z.object(visitFields).partial().shape, id: visitFields.id }),
  visitor: visitorInput,
  ...visitFiles,
});
export type VisitCreateInput = z.output<typeof visitCreateInput>;

/**
 * PATCH /v1/visit/:id: the same shape, every field optional. Presence is changed by check-out and authorization by
 * allow/deny, so those fields are not updatable here.
 */
const { id: _id, checkoutAt: _out, authorizationStatus: _status, companyId: _company, ...updatable } = visitFields;
export const visitUpdateInput = z.object({
  visit: z.object(updatable).partial().optional(),
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
    ...z.object(visitFields).pick({ hostId: true, visitorTypeId: true, checkinType: true }).partial().shape,
    id: visitFields.id,
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

export const visitColumns: ColumnKinds = {
  booleans: ['isInsideCompany', 'isCanceled'],
  json: ['customFields', 'questionnaireFields', 'feedbacks'],
  times: [
    'createdAt',
    'updatedAt',
    'deletedAt',
    'expectedAt',
    'expectedOutAt',
    'checkinAt',
    'finishCheckinAt',
    'checkoutAt',
    'authorizedAt',
    'firstAccessAt',
    'timeToDelayVisit',
  ],
};

/** Input fields that are dates, resolved to milliseconds in the company's zone before storage. */
export const visitDateFields = [
  'expectedAt',
  'checkinAt',
  'finishCheckinAt',
  'checkoutAt',
  'authorizedAt',
  'firstAccessAt',
  'timeToDelayVisit',
] as const;

const nullableString = () => z.string().nullable();

const localizedText = () =>
  z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string(), de: z.string() }).partial();

/** An answer as the visit object shows it: its definition's name and type with what the visitor answered. */
const answerObject = () =>
  z.object({
    customFieldId: z.string(),
    name: z.string(),
    type: z.string(),
    value: z.string(),
    isCorrect: z.boolean().optional(),
    localizedName: localizedText().optional(),
    localizedValue: localizedText().optional(),
    sort: z.number().int().optional(),
    location: z.string().optional(),
  });

/** The visit object's fields that are text or null: the visitor's data, ids, dates, types and notes. */
const visitTextFields = [
  ...visitorDataFields,
  'hostId',
  'visitorTypeId',
  'inviteeId',
  'visitorId',
  'cardNumber',
  'issuanceToken',
  'expectedAt',
  'expectedOutAt',
  'checkinType',
  'checkoutType',
  'finishCheckinAt',
  'authorizedById',
  'authorizedAt',
  'authorizationVia',
  'authorizationLink',
  'visitorStatus',
  'statusNote',
  'checkinByHostId',
  'checkoutByHostId',
  'checkinByIpadId',
  'checkoutByIpadId',
  'notes',
  'customHostName',
  'meetingId',
  'userId',
  'firstAccessAt',
  'timeToDelayVisit',
] as const;

/** The visit object of section 2.7 (with the stored record's fields of section 2.6). */
export const visitObjectSchema = z.object({
  id: z.string().describe('UUID v4'),
  type: z.literal('visit'),
  createdAt: z.string(),
  updatedAt: z.string(),
  checkinAt: z.string(),
  checkoutAt: nullableString(),
  isInsideCompany: z.boolean(),
  ...Object.fromEntries(visitTextFields.map((field) => [field, nullableString()])),
  isCanceled: z.boolean(),
  host: hostSummarySchema.nullable(),
  authorizationStatus: z.enum(['waiting', 'allowed', 'denied']).nullable(),
  customFields: z.array(
    answerObject()
      .omit({ customFieldId: true })
      .extend({ id: z.string().describe('the custom field, 9 characters') }),
  ),
  questionnaireFields: z.array(answerObject()),
  feedbacks: z.array(answerObject()),
  pictureUrl: nullableString().describe('path of the visitor picture (.jpg or .png), opened with the API key'),
  pictureSignedUrl: nullableString().describe('the same, signed: opens without the key for 10 to 15 minutes'),
  ndaUrl: nullableString().describe('path of the signed NDA (.pdf), opened with the API key'),
  ndaSignedUrl: nullableString().describe('the same, signed: opens without the key for 10 to 15 minutes'),
});
