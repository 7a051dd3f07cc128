import { z } from 'zod';
import { cpf, email, type FieldCodes, nullableText, phone } from '../http/fields.ts';
import type { ColumnKinds } from '../store/columns.ts';

const blocklistFields = {
  name: nullableText(200),
  reason: nullableText(2000),
  phone: phone().nullable(),
  email: email().nullable(),
  document: nullableText(60),
  cpf: cpf().nullable(),
  rg: nullableText(30),
  createdById: nullableText(100),
  // Accepted for the interface's input shape; an entry always belongs to the caller's company.
  companyId: z.string().max(64),
};

/** POST /v1/blockedlist and PATCH /v1/blockedlist/:id (section 2.3): every field optional. */
export const blocklistInput = z.object(blocklistFields).partial();
export type BlocklistInput = z.output<typeof blocklistInput>;

/** DELETE /v1/blockedlist/:id may say who removed the entry. */
export const blocklistDeleteInput = z.object({ deletedById: nullableText(100) }).partial();

export const blocklistInputCodes: Readonly<Record<string, FieldCodes>> = {
  email: { invalid: 'INVALID_EMAIL' },
  cpf: { invalid: 'INVALID_CPF' },
};

export const blocklistColumns: ColumnKinds = { booleans: [], json: [], times: ['createdAt', 'updatedAt', 'deletedAt'] };

/** The identifiers the door compares; an entry needs at least one. */
export const blocklistIdentifiers = ['cpf', 'rg', 'document', 'email', 'phone'] as const;
export type BlocklistField = (typeof blocklistIdentifiers)[number];

const nullableString = () => z.string().nullable();

export const blocklistObjectSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: nullableString(),
  name: nullableString(),
  reason: nullableString(),
  phone: nullableString(),
  email: nullableString(),
  document: nullableString(),
  cpf: nullableString(),
  rg: nullableString(),
  createdById: nullableString(),
  deletedById: nullableString(),
  companyId: z.string(),
});
