import { z } from 'zod';
import { bool, type FieldCodes, text } from '../http/fields.ts';
import type { ColumnKinds } from '../store/columns.ts';

export const customFieldTypes = ['Text', 'Dropdown', 'Checkbox', 'Date', 'Number', 'Email', 'Phone'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

/** Where the kiosk asks a field: at check-in (FIELD), in the questionnaire, or for feedback at the end. */
export const customFieldLocations = ['FIELD', 'QUESTIONNAIRE', 'FEEDBACK'] as const;
export type CustomFieldLocation = (typeof customFieldLocations)[number];

/** Types in any case ("dropdown", "DATE") stored in the document's spelling ("Dropdown", "Date"). */
const fieldType = () =>
  z
    .string()
    .transform((s) => customFieldTypes.find((t) => t.toLowerCase() === s.trim().toLowerCase()) ?? s)
    .pipe(z.enum(customFieldTypes));

export const localizedNames = () =>
  z.object({ en: text(500), 'pt-BR': text(500), de: text(500), 'zh-Hans': text(500) }).partial();

/** A dropdown's options as one language shows them, in the order of `options` ('' where that language has none). */
const optionLabels = () => z.array(z.string().trim().max(200)).max(100);

/**
 * The options per language (docs/api.md, "Company content in every language"). What an answer stores is always
 * the option of `options` at the same position; a language without a label for it shows that option.
 */
export const localizedOptions = () =>
  z.object({ en: optionLabels(), 'pt-BR': optionLabels(), de: optionLabels(), 'zh-Hans': optionLabels() }).partial();

const customFieldFields = {
  name: text(500).trim().min(1),
  type: fieldType(),
  options: z.array(z.string().trim().min(1).max(200)).max(100),
  required: bool(),
  localizedName: localizedNames(),
  localizedOptions: localizedOptions(),
  sort: z.coerce.number().int().min(0).max(10_000),
  location: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(customFieldLocations)),
};

export const customFieldCreateInput = z.object(customFieldFields).partial().required({ name: true, type: true });
export type CustomFieldCreateInput = z.output<typeof customFieldCreateInput>;

export const customFieldUpdateInput = z.object(customFieldFields).partial();
export type CustomFieldUpdateInput = z.output<typeof customFieldUpdateInput>;

export const customFieldInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME' },
};

export const customFieldColumns: ColumnKinds = {
  booleans: ['required'],
  json: ['options', 'localizedName', 'localizedOptions'],
  times: ['createdAt', 'updatedAt', 'deletedAt'],
};

/** The Custom Field Object of section 2.7, as a definition (its `value` is what a visitor answers). */
export const customFieldObjectSchema = z.object({
  id: z.string().describe('9 characters'),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
  name: z.string(),
  type: z.enum(customFieldTypes),
  options: z.array(z.string()),
  required: z.boolean(),
  localizedName: localizedNames(),
  localizedOptions: localizedOptions(),
  sort: z.number().int(),
  location: z.enum(customFieldLocations),
});
