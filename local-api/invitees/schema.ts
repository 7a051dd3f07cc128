import { z } from 'zod';
import { bool, cpf, email, type FieldCodes, int32, nullableText, text } from '../http/fields.ts';
import type { ColumnKinds } from '../store/rows.ts';

export const inviteeStatuses = ['confirmed', 'arrived', 'canceled'] as const;
export type InviteeStatus = (typeof inviteeStatuses)[number];

/** A custom-field answer as the invitee object carries it (Custom Field Object, section 2.7). */
export const customFieldAnswer = () =>
  z.object({
    id: z.string().max(64),
    name: z.string().max(500),
    type: z.string().max(50),
    value: z.string().max(5000).nullable().optional(),
  });

/** Dates arrive as ISO 8601 text or Unix seconds; the store resolves them in the company's zone. */
export const dateInput = () => z.union([z.string().max(40), z.number()]);

const inviteeFields = {
  name: text(200).trim().min(1),
  email: email().nullable(),
  expectedAt: dateInput(),
  hostId: z.string().max(64),
  status: z.enum(inviteeStatuses),
  lang: z.enum(['en', 'pt-BR', 'de', 'zh-Hans']).nullable(),
  phone: z
    .string()
    .trim()
    .max(40)
    .regex(/^[\d\s()+.-]*$/, 'digits or a formatted phone')
    .nullable(),
  cpf: cpf().nullable(),
  rg: nullableText(30),
  document: nullableText(60),
  address: nullableText(500),
  company: nullableText(200),
  position: nullableText(200),
  sector: nullableText(200),
  pictureUrl: nullableText(2000),
  customFields: z.array(customFieldAnswer()).max(100),
  cardNumber: int32(),
  notes: nullableText(5000),
  requiresAuthorization: bool(),
};

export const inviteeCreateInput = z.object({
  ...z.object(inviteeFields).partial().shape,
  name: inviteeFields.name,
  expectedAt: inviteeFields.expectedAt,
  hostId: inviteeFields.hostId,
});
export type InviteeCreateInput = z.output<typeof inviteeCreateInput>;

export const inviteeUpdateInput = z.object(inviteeFields).partial();
export type InviteeUpdateInput = z.output<typeof inviteeUpdateInput>;

export const inviteeInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME' },
  email: { invalid: 'INVALID_EMAIL' },
  expectedAt: { missing: 'MISSING_EXPECTED_AT', invalid: 'INVALID_EXPECTED_AT' },
  hostId: { missing: 'MISSING_HOST_ID', invalid: 'HOST_NOT_FOUND' },
  status: { invalid: 'INVALID_STATUS' },
  cpf: { invalid: 'INVALID_CPF' },
  cardNumber: { invalid: 'INVALID_CARD_NUMBER' },
};

export const inviteeColumns: ColumnKinds = {
  booleans: ['requiresAuthorization'],
  json: ['customFields'],
  times: ['createdAt', 'updatedAt', 'deletedAt', 'expectedAt'],
};
