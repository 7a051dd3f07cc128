import { z } from 'zod';
import { bool, positiveInt } from '../http/fields.ts';
import { visitorDataFields } from '../visitors/contract.ts';

/** The visitor data a walk-in may be asked for, besides the name (always asked, always required). */
export type VisitorFieldName = Exclude<(typeof visitorDataFields)[number], 'name'>;
export const visitorFieldNames = visitorDataFields.filter((field): field is VisitorFieldName => field !== 'name') as [
  VisitorFieldName,
  ...VisitorFieldName[],
];

export const fieldModes = ['off', 'optional', 'required'] as const;
export type FieldMode = (typeof fieldModes)[number];

/** Seconds without a touch before the kiosk returns to its welcome screen and forgets what was typed. */
export const idleSecondsRange = { min: 20, max: 600 } as const;

/** The PIN's form: 6 to 12 digits (see docs/kiosk.md for why not 4). */
export const pinPattern = /^\d{6,12}$/;

const ndaText = () => z.string().max(50_000);

/**
 * The agreement in the kiosk's languages; a language without its own text (absent or '') shows `ndaText`
 * (docs/api.md, "Company content in every language").
 */
const localizedNdaText = () =>
  z.object({ en: ndaText(), 'pt-BR': ndaText(), de: ndaText(), 'zh-Hans': ndaText() }).partial();

/** PATCH /v1/kiosk/settings: partial; absent fields keep their value. */
export const kioskSettingsInput = z
  .object({
    visitorFields: z.partialRecord(z.enum(visitorFieldNames), z.enum(fieldModes)),
    pictureMode: z.enum(fieldModes),
    ndaText: ndaText(),
    localizedNdaText: localizedNdaText(),
    requireAuthorization: bool(),
    idleSeconds: positiveInt().refine(
      (n) => n >= idleSecondsRange.min && n <= idleSecondsRange.max,
      `must be ${idleSecondsRange.min} to ${idleSecondsRange.max} seconds`,
    ),
    badgePrinting: bool(),
  })
  .partial();
export type KioskSettingsInput = z.output<typeof kioskSettingsInput>;

/** The settings as GET /v1/kiosk/settings answers them: every visitor field listed, the PIN only as `pinSet`. */
export const kioskSettingsObject = z.object({
  visitorFields: z.record(z.enum(visitorFieldNames), z.enum(fieldModes)),
  pictureMode: z.enum(fieldModes),
  ndaText: z.string(),
  localizedNdaText: localizedNdaText(),
  requireAuthorization: z.boolean(),
  idleSeconds: z.number().int(),
  badgePrinting: z.boolean(),
  pinSet: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type KioskSettings = z.output<typeof kioskSettingsObject>;

const pin = () => z.string().regex(pinPattern, 'must be 6 to 12 digits');

/** POST /v1/kiosk/pin: the first PIN needs no `currentPin`; changing it does. */
export const pinSetInput = z.object({ pin: pin(), currentPin: z.string().max(64).optional() });
export const pinVerifyInput = z.object({ pin: z.string().max(64) });
export const pinVerifiedSchema = z.object({ valid: z.literal(true) });
