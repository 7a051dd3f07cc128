import { z } from 'zod';
import { hostSummarySchema } from '../hosts/schema.ts';
import { bool, cpf, dateInput, email, type FieldCodes, int32, nullableText, phone, text } from '../http/fields.ts';
import { meetingWithoutHostSchema } from '../meetings/schema.ts';
import type { ColumnKinds } from '../store/columns.ts';

export const inviteeStatuses = ['confirmed', 'arrived', 'canceled'] as const;
export type InviteeStatus = (typeof inviteeStatuses)[number];

/**
 * A custom-field answer as the invitee object carries it (Custom Field Object, section 2.7). `id` names a
 * definition of GET /v1/customfields; its name and type come from there.
 */
export const customFieldAnswer = () =>
  z.object({
    id: z.string().max(64),
    name: z.string().max(500).optional(),
    type: z.string().max(50).optional(),
    value: z.string().max(5000).nullable().optional(),
  });

const inviteeFields = {
  name: text(200).trim().min(1),
  email: email().nullable(),
  expectedAt: dateInput(),
  hostId: z.string().max(64),
  visitorTypeId: z.string().max(64).nullable(),
  status: z.enum(inviteeStatuses),
  lang: z.enum(['en', 'pt-BR', 'de', 'zh-Hans']).nullable(),
  phone: phone().nullable(),
  cpf: cpf().nullable(),
  rg: nullableText(30),
  document: nullableText(60),
  address: nullableText(500),
  company: nullableText(200),
  position: nullableText(200),
  sector: nullableText(200),
  pictureUrl: z
    .string()
    .nullable()
    .describe('a URL, or the picture itself in Base64 (JPEG or PNG, up to 5 MB), stored by the service'),
  customFields: z.array(customFieldAnswer()).max(100),
  cardNumber: int32(),
  notes: nullableText(5000),
  requiresAuthorization: bool(),
};

/** A way to reach the invitee: one of these, not empty (else MISSING_EMAIL), as the store requires. */
export const reachableBy = ['email', 'phone', 'document'] as const;

export const inviteeCreateInput = z
  .object({
    ...z.object(inviteeFields).partial().shape,
    name: inviteeFields.name,
    expectedAt: inviteeFields.expectedAt,
    hostId: inviteeFields.hostId,
  })
  .meta({
    anyOf: reachableBy.map((key) => ({ required: [key], properties: { [key]: { type: 'string', minLength: 1 } } })),
  });
export type InviteeCreateInput = z.output<typeof inviteeCreateInput>;

export const inviteeUpdateInput = z.object(inviteeFields).partial();
export type InviteeUpdateInput = z.output<typeof inviteeUpdateInput>;

export const inviteeInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME' },
  email: { invalid: 'INVALID_EMAIL' },
  expectedAt: { missing: 'MISSING_EXPECTED_AT', invalid: 'INVALID_EXPECTED_AT' },
  hostId: { missing: 'MISSING_HOST_ID', invalid: 'HOST_NOT_FOUND' },
  visitorTypeId: { invalid: 'VISITOR_TYPE_NOT_FOUND' },
  status: { invalid: 'INVALID_STATUS' },
  cpf: { invalid: 'INVALID_CPF' },
  cardNumber: { invalid: 'INVALID_CARD_NUMBER' },
  pictureUrl: { invalid: 'INVALID_PICTURE' },
};

export const inviteeColumns: ColumnKinds = {
  booleans: ['requiresAuthorization'],
  json: ['customFields'],
  times: ['createdAt', 'updatedAt', 'deletedAt', 'expectedAt'],
};

const nullableString = () => z.string().nullable();

/** The invitee object of section 2.8. */
export const inviteeObjectSchema = z.object({
  id: z.string().describe('UUID v4'),
  type: z.literal('invitee'),
  createdAt: z.string(),
  updatedAt: z.string(),
  hostId: z.string(),
  visitorTypeId: nullableString().describe('the visitor type (GET /v1/visitortypes); null: none'),
  meetingId: nullableString(),
  expectedAt: z.string(),
  status: z.enum(inviteeStatuses),
  lang: nullableString(),
  name: nullableString(),
  phone: nullableString(),
  cpf: nullableString(),
  rg: nullableString(),
  document: nullableString(),
  email: nullableString(),
  address: nullableString(),
  company: nullableString(),
  position: nullableString(),
  sector: nullableString(),
  pictureUrl: nullableString().describe('a URL given as such, or the path of the stored picture'),
  pictureSignedUrl: nullableString().describe('for a stored picture: a link that opens it without the key'),
  customFields: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), value: nullableString() })),
  cardNumber: z.number().int(),
  notes: nullableString(),
  requiresAuthorization: z.boolean(),
  host: hostSummarySchema.nullable(),
  meeting: meetingWithoutHostSchema.nullable(),
});
