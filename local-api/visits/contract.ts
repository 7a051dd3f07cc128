import { z } from 'zod';
import { hostSummarySchema } from '../hosts/schema.ts';
import { bool, dateInput, nullableText } from '../http/fields.ts';
import {
  columnKindsOf,
  contractQueryFields,
  createShape,
  type FieldSpec,
  fieldsWhere,
  nullableString,
  type RowOf,
  shownShape,
  updateShape,
} from '../rules/resource-contract.ts';
import { personFields } from '../visitors/contract.ts';

/*
 * The visit, written once (docs/api.md, "Resource contracts"): every column of the `visits` table with how it is
 * stored, how the visit object shows it, whether a client writes it and whether a list is queryable by it. The
 * request and response schemas (schema.ts), the store's conversions and list-query fields, the row type, the
 * kiosk's record of a check-in that sync sends to the hub and the gate callback's visitor all derive from it.
 */

export const checkinTypes = ['IPAD', 'DASHBOARD', 'API', 'MOBILE', 'INVITES', 'AUTOMATIC'] as const;
export const authorizationVias = ['DASHBOARD', 'INVITE', 'LINK', 'APP', 'ACCESS'] as const;
export const authorizationStatuses = ['AWAITING', 'ALLOWED', 'DENIED'] as const;
/** How a signed NDA was signed (docs/kiosk.md, "Walk-in details"): a signature drawn, or the signer's name typed. */
export const ndaSignatures = ['DRAWN', 'TYPED'] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number];

/** The visit object's lower-case authorization values (docs/api.md, "Visits") and the stored ones. */
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

export const upperEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(values));

const localized = () =>
  z.object({ en: z.string(), 'pt-BR': z.string(), 'zh-Hans': z.string(), de: z.string() }).partial();

/** An answer item of docs/api.md, "Check-in data" (custom fields, questionnaire, feedback). */
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

export const answers = () => z.array(answerItem()).max(200);

/** An answer as the visit object shows it: its definition's name and type with what the visitor answered. */
const answerObject = () =>
  z.object({
    customFieldId: z.string(),
    name: z.string(),
    type: z.string(),
    value: z.string(),
    isCorrect: z.boolean().optional(),
    localizedName: localized().optional(),
    localizedValue: localized().optional(),
    sort: z.number().int().optional(),
    location: z.string().optional(),
  });

/** The request type of a reference to another row (a host, a meeting, a device…). */
const reference = () => z.string().max(64).nullable();

/** A stored id, text or date the object shows as text or null, written by clients and kept by a list query. */
const text = <Input extends z.ZodType>(input: Input) => ({
  storage: 'text' as const,
  shown: nullableString(),
  input,
});
const time = () => ({ storage: 'time' as const, shown: nullableString(), input: dateInput().nullable() });

/**
 * The visit's own fields (the person's follow, `personFields`). One with `input` is written by a client's `visit`
 * in POST /v1/visits (and in PATCH /v1/visit/:id unless `update: false`) and travels in the kiosk's record of a
 * check-in (docs/sync.md) unless `sync: false`.
 */
export const visitOwnFields = {
  id: {
    storage: 'text',
    required: true,
    shown: z.string().describe('UUID v4'),
    input: z.string().max(64),
    update: false,
  },
  // Accepted as the interface's visit object has it, and ignored: the caller's key says the company.
  companyId: { storage: 'text', required: true, input: z.string().max(64), update: false, sync: false },
  createdAt: { storage: 'time', required: true, shown: z.string() },
  updatedAt: { storage: 'time', required: true, shown: z.string() },
  deletedAt: { storage: 'time' },
  hostId: { ...text(reference()), query: true },
  inviteeId: { storage: 'text', shown: nullableString(), query: true },
  visitorId: text(reference()),
  cardNumber: {
    ...text(
      z
        .union([z.string().max(64), z.int32()])
        .transform(String)
        .nullable(),
    ),
    query: true,
  },
  issuanceToken: { storage: 'text', shown: nullableString() },
  expectedAt: { ...time(), query: true },
  expectedOutAt: { storage: 'time', shown: nullableString() },
  checkinAt: { storage: 'time', required: true, shown: z.string(), input: dateInput(), query: true },
  checkinType: { ...text(upperEnum(checkinTypes)), query: true },
  checkoutType: { ...text(upperEnum(checkinTypes)), query: true },
  finishCheckinAt: time(),
  // Presence is changed by check-out, not by an update.
  checkoutAt: { ...time(), update: false, query: true },
  isInsideCompany: { storage: 'boolean', required: true, shown: z.boolean(), query: true },
  authorizedById: text(reference()),
  authorizedAt: time(),
  authorizationVia: text(upperEnum(authorizationVias).nullable()),
  authorizationLink: text(nullableText(2000)),
  // Authorization is changed by allow and deny, not by an update.
  authorizationStatus: {
    storage: 'text',
    values: authorizationStatuses,
    shown: z.enum(['waiting', 'allowed', 'denied']).nullable(),
    input: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(Object.keys(authorizationStatusIn) as [string, ...string[]]))
      .transform((s) => authorizationStatusIn[s] as AuthorizationStatus)
      .nullable(),
    update: false,
    query: true,
    queryValues: Object.fromEntries(Object.entries(authorizationStatusOut).map(([stored, shown]) => [shown, stored])),
  },
  visitorStatus: { ...text(upperEnum(['BLOCKED']).nullable()), query: true },
  statusNote: text(nullableText(2000)),
  // Set by the door alone (docs/api.md, "At the door"): the hub screens a kiosk's check-in itself.
  heldAtDoor: {
    storage: 'boolean',
    required: true,
    shown: z
      .boolean()
      .describe("held for the front desk: the visitor's name is on the blocklist and no identifier tells them apart"),
    query: true,
  },
  checkinByHostId: text(reference()),
  checkoutByHostId: text(reference()),
  checkinByIpadId: text(reference()),
  checkoutByIpadId: text(reference()),
  notes: { ...text(nullableText(5000)), query: true },
  customHostName: { ...text(nullableText(200)), query: true },
  meetingId: { ...text(reference()), query: true },
  userId: text(reference()),
  isCanceled: { storage: 'boolean', required: true, shown: z.boolean(), input: bool() },
  firstAccessAt: time(),
  timeToDelayVisit: time(),
  customFields: {
    storage: 'json',
    required: true,
    shown: z.array(
      answerObject()
        .omit({ customFieldId: true })
        .extend({ id: z.string().describe('the custom field, 9 characters') }),
    ),
    input: answers(),
  },
  questionnaireFields: { storage: 'json', required: true, shown: z.array(answerObject()), input: answers() },
  feedbacks: { storage: 'json', required: true, shown: z.array(answerObject()), input: answers() },
  // The files are shown by their links (`visitPresented`).
  pictureFile: { storage: 'text' },
  ndaFile: { storage: 'text' },
  ndaSignature: {
    storage: 'text',
    shown: z
      .enum(ndaSignatures)
      .nullable()
      .describe('how the signed NDA was signed: DRAWN (a signature drawn) or TYPED (the signer typed their name)'),
    input: upperEnum(ndaSignatures).nullable(),
  },
  visitorTypeId: { ...text(reference()), query: true },
  // The visitor's answer at this check-in to "remember me for next time" (docs/api.md, "Returning visitors"): it
  // sets the visitor record's consent, and travels with the kiosk's record of the check-in to the hub.
  rememberVisitor: {
    storage: 'boolean',
    shown: z
      .boolean()
      .nullable()
      .describe('the answer to "remember me for next time" given at this check-in, or null when not asked'),
    input: bool().nullable(),
    update: false,
  },
} satisfies Readonly<Record<string, FieldSpec & { sync?: false }>>;

/** What the visit object shows that is not a column of its own: made from the row and what it refers to. */
export const visitPresented = {
  type: z.literal('visit'),
  host: hostSummarySchema.nullable(),
  pictureUrl: nullableString().describe('path of the visitor picture (.jpg or .png), opened with the API key'),
  pictureSignedUrl: nullableString().describe('the same, signed: opens without the key for 10 to 15 minutes'),
  ndaUrl: nullableString().describe('path of the signed NDA (.pdf), opened with the API key'),
  ndaSignedUrl: nullableString().describe('the same, signed: opens without the key for 10 to 15 minutes'),
};

/**
 * Everything the service derives from the visit's own fields (`visitOwnFields`, given here so that a test can
 * derive from a contract with one more field and find it everywhere).
 */
export function deriveVisit<Own extends Readonly<Record<string, FieldSpec & { sync?: false }>>>(own: Own) {
  // Every column of the `visits` table: the visit's own and the person's, written by the request's `visitor`.
  const fields = { ...own, ...personFields };
  return {
    fields,
    columns: columnKindsOf(fields),
    /** The list-query fields of the visit's own columns. */
    queryFields: contractQueryFields(fields),
    /** The visit object of docs/api.md, "Visits" (with the stored record's fields of docs/api.md, "Check-in data"). */
    objectShape: { ...shownShape(fields), ...visitPresented },
    /** What a client's `visit` writes at creation and in an update, with their request types. */
    createShape: createShape(own),
    updateShape: updateShape(own),
    /** Input fields that are dates, resolved to milliseconds in the company's zone before storage. */
    dateFields: fieldsWhere(own, (spec) => spec.storage === 'time' && 'input' in spec),
    /** The kiosk's record of a check-in's `visit` (docs/sync.md): what a client writes at creation but `sync: false`. */
    recordFields: fieldsWhere(own, (spec) => 'input' in spec && !('sync' in spec && spec.sync === false)),
  };
}

const visit = deriveVisit(visitOwnFields);

export const visitFields = visit.fields;
export const visitColumns = visit.columns;
export const visitColumnQueryFields = visit.queryFields;
export const visitObjectShape = visit.objectShape;
export const visitCreateShape = visit.createShape;
export const visitUpdateShape = visit.updateShape;
export const visitDateFields = visit.dateFields;
export const visitRecordFields = visit.recordFields;

export type VisitObject = z.output<z.ZodObject<typeof visitObjectShape>>;
export type VisitRow = RowOf<typeof visitFields>;
