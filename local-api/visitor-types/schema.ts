import { z } from 'zod';
import { bool, type FieldCodes, text } from '../http/fields.ts';
import { fieldModes, visitorFieldNames } from '../kiosk/schema.ts';
import type { ColumnKinds } from '../store/columns.ts';

/** The kinds a type starts from: four the kiosk knows (with their names in every language) and the company's own. */
export const visitorTypeKinds = ['guest', 'interview', 'contractor', 'delivery', 'custom'] as const;
export type VisitorTypeKind = (typeof visitorTypeKinds)[number];

const localizedTexts = (max: number) =>
  z.object({ en: text(max), 'pt-BR': text(max), de: text(max), 'zh-Hans': text(max) }).partial();

const visitorTypeFields = {
  kind: z.enum(visitorTypeKinds),
  name: text(200).trim().min(1),
  localizedName: localizedTexts(200),
  badgeLabel: text(40).trim().min(1),
  localizedBadgeLabel: localizedTexts(40),
  visitorFields: z.partialRecord(z.enum(visitorFieldNames), z.enum(fieldModes)),
  customFieldIds: z.array(z.string().max(64)).max(200).nullable(),
  ndaText: z.string().max(50_000).nullable(),
  localizedNdaText: localizedTexts(50_000),
  pictureMode: z.enum(fieldModes).nullable(),
  requireAuthorization: bool().nullable(),
  isActive: bool(),
  sort: z.coerce.number().int().min(0).max(10_000),
};

/** POST /v1/visitortypes: a kind is enough for the four known ones (their defaults fill the rest); `custom` needs a name. */
export const visitorTypeCreateInput = z.object(visitorTypeFields).partial().required({ kind: true });
export type VisitorTypeCreateInput = z.output<typeof visitorTypeCreateInput>;

/** PATCH /v1/visitortype/:id: partial; `visitorFields` replaces the type's overrides as a whole. */
export const visitorTypeUpdateInput = z.object(visitorTypeFields).omit({ kind: true }).partial();
export type VisitorTypeUpdateInput = z.output<typeof visitorTypeUpdateInput>;

export const visitorTypeInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME' },
};

export const visitorTypeColumns: ColumnKinds = {
  booleans: ['requireAuthorization', 'isActive'],
  json: ['localizedName', 'localizedBadgeLabel', 'visitorFields', 'customFieldIds', 'localizedNdaText'],
  times: ['createdAt', 'updatedAt', 'deletedAt'],
};

/** The visitor type object. A null rule means "as the kiosk's settings say". */
export const visitorTypeObjectSchema = z.object({
  id: z.string().describe('9 characters'),
  type: z.literal('visitorType'),
  createdAt: z.string(),
  updatedAt: z.string(),
  kind: z.enum(visitorTypeKinds),
  name: z.string(),
  localizedName: localizedTexts(200),
  badgeLabel: z.string(),
  localizedBadgeLabel: localizedTexts(40),
  visitorFields: z
    .partialRecord(z.enum(visitorFieldNames), z.enum(fieldModes))
    .describe("overrides of the kiosk's visitor fields"),
  customFieldIds: z
    .array(z.string())
    .nullable()
    .describe('the custom fields and questions this type is asked; null: all of them'),
  ndaText: z.string().nullable().describe("the agreement; null: the kiosk's; empty: none"),
  localizedNdaText: localizedTexts(50_000),
  pictureMode: z.enum(fieldModes).nullable().describe("null: the kiosk's setting"),
  requireAuthorization: z.boolean().nullable().describe("null: the kiosk's setting"),
  isActive: z.boolean().describe('offered on the kiosk'),
  sort: z.number().int(),
});
export type VisitorType = z.output<typeof visitorTypeObjectSchema>;
