import { z } from 'zod';
import { hostSummarySchema } from '../hosts/schema.ts';
import { bool, dateInput, int32, nullableText, text } from '../http/fields.ts';
import { meetingWithoutHostSchema } from '../meetings/schema.ts';
import {
  columnKindsOf,
  contractQueryFields,
  createShape,
  type FieldSpec,
  nullableString,
  type RowOf,
  shownShape,
} from '../rules/resource-contract.ts';
import { personFields } from '../visitors/contract.ts';

/*
 * The invitee, written once (docs/api.md, "Resource contracts"): every column of the `invitees` table with how it
 * is stored, how the invitee object shows it, whether a client writes it and whether a list is queryable by it.
 */

export const inviteeStatuses = ['confirmed', 'arrived', 'canceled'] as const;
export type InviteeStatus = (typeof inviteeStatuses)[number];

/**
 * A custom-field answer as the invitee object carries it (Custom Field Object, docs/api.md, "Custom fields"). `id` names a
 * definition of GET /v1/customfields; its name and type come from there.
 */
export const customFieldAnswer = () =>
  z.object({
    id: z.string().max(64),
    name: z.string().max(500).optional(),
    type: z.string().max(50).optional(),
    value: z.string().max(5000).nullable().optional(),
  });

/** An invitee's fields: its own, then the person's; a client writes those with `input`, at creation and in an update. */
export const inviteeFields = {
  id: { storage: 'text', required: true, shown: z.string().describe('UUID v4') },
  companyId: { storage: 'text', required: true },
  createdAt: { storage: 'time', required: true, shown: z.string() },
  updatedAt: { storage: 'time', required: true, shown: z.string() },
  deletedAt: { storage: 'time' },
  hostId: { storage: 'text', required: true, shown: z.string(), input: z.string().max(64), query: true },
  meetingId: { storage: 'text', shown: nullableString() },
  expectedAt: { storage: 'time', required: true, shown: z.string(), input: dateInput(), query: true },
  status: {
    storage: 'text',
    required: true,
    values: inviteeStatuses,
    shown: z.enum(inviteeStatuses),
    input: z.enum(inviteeStatuses),
    query: true,
    queryValues: Object.fromEntries(inviteeStatuses.map((status) => [status, status])),
  },
  lang: { storage: 'text', shown: nullableString(), input: z.enum(['en', 'pt-BR', 'de', 'zh-Hans']).nullable() },
  ...personFields,
  // An invitee's name has its length checked before it is trimmed (a check-in's visitor, after).
  name: { ...personFields.name, input: text(200).trim().min(1) },
  pictureUrl: {
    storage: 'text',
    shown: nullableString().describe('a URL given as such, or the path of the stored picture'),
    input: z
      .string()
      .nullable()
      .describe('a URL, or the picture itself in Base64 (JPEG or PNG, up to 5 MB), stored by the service'),
  },
  customFields: {
    storage: 'json',
    required: true,
    shown: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), value: nullableString() })),
    input: z.array(customFieldAnswer()).max(100),
  },
  cardNumber: { storage: 'number', required: true, shown: z.number().int(), input: int32(), query: true },
  notes: { storage: 'text', shown: nullableString(), input: nullableText(5000) },
  requiresAuthorization: { storage: 'boolean', required: true, shown: z.boolean(), input: bool() },
  // The stored picture is shown by its links (`inviteePresented`).
  pictureFile: { storage: 'text' },
  // The guest's pre-registration (docs/kiosk.md, "Pre-registration"): written by the register page only. The
  // picture and the signed agreement are Base64 text, so that they travel to the kiosks with the row (docs/sync.md).
  registeredAt: {
    storage: 'time',
    shown: nullableString().describe('when the guest pre-registered (answers, picture, agreement); null: not yet'),
  },
  questionnaireFields: { storage: 'json', required: true },
  registrationPicture: { storage: 'text' },
  registrationNda: { storage: 'text' },
  ndaSignature: { storage: 'text' },
  visitorTypeId: {
    storage: 'text',
    shown: nullableString().describe('the visitor type (GET /v1/visitortypes); null: none'),
    input: z.string().max(64).nullable(),
    query: true,
  },
} satisfies Readonly<Record<string, FieldSpec>>;

export type InviteeRow = RowOf<typeof inviteeFields>;

export const inviteeColumns = columnKindsOf(inviteeFields);

/** The fields a client writes, at creation and in an update, with their request types. */
export const inviteeInputShape = createShape(inviteeFields);

/** What the invitee object shows that is not a column of its own: made from the row and what it refers to. */
export const inviteePresented = {
  type: z.literal('invitee'),
  pictureSignedUrl: nullableString().describe('for a stored picture: a link that opens it without the key'),
  host: hostSummarySchema.nullable(),
  meeting: meetingWithoutHostSchema.nullable(),
};

/** The invitee object (docs/api.md, "Invitees"). */
export const inviteeObjectShape = { ...shownShape(inviteeFields), ...inviteePresented };
export type InviteeObject = z.output<z.ZodObject<typeof inviteeObjectShape>>;

/** The list-query fields of the invitee's own columns. */
export const inviteeColumnQueryFields = contractQueryFields(inviteeFields);
