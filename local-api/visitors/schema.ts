import { z } from 'zod';
import type { ColumnKinds } from '../store/columns.ts';

export const visitorColumns: ColumnKinds = {
  booleans: [],
  json: [],
  times: ['createdAt', 'updatedAt', 'deletedAt', 'lastVisitAt'],
};

/** The person's data a visitor record keeps (the visit object's visitor fields, section 2.7). */
export const visitorDataFields = [
  'name',
  'email',
  'phone',
  'cpf',
  'rg',
  'document',
  'company',
  'position',
  'sector',
  'address',
] as const;

const nullableString = () => z.string().nullable();

/** A visitor: who came, with the data of their latest visit, and how often they came. */
export const visitorObjectSchema = z.object({
  id: z.string().describe('32 characters'),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: nullableString(),
  ...Object.fromEntries(visitorDataFields.map((field) => [field, nullableString()])),
  lastVisitAt: nullableString(),
  visitCount: z.number().int(),
  type: z.literal('visitor'),
});
