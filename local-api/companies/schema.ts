import { z } from 'zod';
import { bool, countryCode, email, type FieldCodes, nullableText, phone, text } from '../http/fields.ts';
import { hexColorPattern } from '../rules/contrast.ts';
import { languages } from '../rules/lang.ts';
import { isTimeZone } from '../rules/time.ts';
import type { ColumnKinds } from '../store/columns.ts';

export const companyPlans = ['TRIAL', 'FREE', 'BASIC', 'PREMIUM', 'ENTERPRISE'] as const;
export const companyTypes = ['PARENT', 'CHILD', 'INDEPENDENT'] as const;

/** Integration credentials: sealed at rest, never answered in clear (see `secretMask`). */
export const companySecrets = ['serproClientSecret', 'serproAuthToken', 'liberadoAuthToken'] as const;

/**
 * What the company object shows for a secret that is set. Sending it back in a PATCH keeps the secret as it is,
 * so a client that edits the object it read does not overwrite a credential with the mask.
 */
export const secretMask = '********';

/** Fields the interface says cannot be changed through it: a PATCH naming one is refused as READ_ONLY_FIELD. */
const readOnly = () => z.never().optional().describe('cannot be changed through the interface');

/** The welcome message of the kiosk's start, per language of the kiosk ('' removes a language's). */
const localizedWelcomeMessage = () =>
  z.object(Object.fromEntries(languages.map((lang) => [lang, z.string().trim().max(300)]))).partial();

export const timeZoneName = () => z.string().max(100).refine(isTimeZone, 'must be an IANA time zone');

/** PATCH /v1/company: the update shape of docs/api.md, "Company" and the company's other settable fields. */
export const companyUpdateInput = z
  .object({
    name: text(200).trim().min(1),
    createdById: nullableText(100),
    lang: z.enum(languages),
    location: nullableText(500),
    pictureUrl: nullableText(2000),
    address: nullableText(500),
    city: nullableText(200),
    complement: nullableText(200),
    country: nullableText(100),
    state: nullableText(100),
    type: z
      .string()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(companyTypes)),
    timezone: timeZoneName().nullable(),
    invitePrefix: nullableText(50),
    phone: phone().nullable(),
    email: email().nullable(),
    countryCode: countryCode().nullable(),
    touchlessId: nullableText(100),
    parentCompanyId: nullableText(100),
    mapAddressUrl: nullableText(2000),
    visibleOnKiosk: bool(),
    serproClientId: nullableText(500),
    serproClientSecret: nullableText(4000),
    serproAuthToken: nullableText(8000),
    liberadoAuthToken: nullableText(8000),
    serproAuthTokenExpiresAt: z.coerce.number().int().nullable(),
    whatsappMessageNameSource: z.string().max(50).nullable(),
    module: z.string().trim().min(1).max(20),
    multipleVisitFlowsEnabled: bool().nullable(),
    disableQrcodeApp: bool(),
    showAssociatedCHsApp: bool(),
    brandColor: z
      .string()
      .regex(hexColorPattern, 'a colour as #rrggbb')
      .transform((hex) => hex.toLowerCase())
      .nullable()
      .describe("the kiosk's brand colour, #rrggbb; white text on it must keep a contrast of 4.5:1 (WCAG AA)"),
    localizedWelcomeMessage: localizedWelcomeMessage().describe(
      "the kiosk's welcome message per language; merged language by language, '' removes one",
    ),
  })
  .partial()
  .extend({ plan: readOnly(), planIsActive: readOnly(), trialUntil: readOnly() });
export type CompanyUpdateInput = z.output<typeof companyUpdateInput>;

export const companyInputCodes: Readonly<Record<string, FieldCodes>> = {
  plan: { invalid: 'READ_ONLY_FIELD' },
  planIsActive: { invalid: 'READ_ONLY_FIELD' },
  trialUntil: { invalid: 'READ_ONLY_FIELD' },
  email: { invalid: 'INVALID_EMAIL' },
  countryCode: { invalid: 'INVALID_COUNTRY_CODE' },
};

export const companyColumns: ColumnKinds = {
  booleans: ['planIsActive', 'visibleOnKiosk', 'multipleVisitFlowsEnabled', 'disableQrcodeApp', 'showAssociatedCHsApp'],
  json: ['localizedWelcomeMessage'],
  times: ['createdAt', 'updatedAt', 'deletedAt', 'trialUntil'],
};

const nullableString = () => z.string().nullable();

/** The company object of docs/api.md, "Company" (GET and PATCH /v1/company). */
export const companyObjectSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: nullableString(),
  name: z.string(),
  createdById: nullableString(),
  lang: z.string(),
  plan: z.enum(companyPlans),
  planIsActive: z.boolean(),
  trialUntil: z.string(),
  location: nullableString(),
  pictureUrl: nullableString(),
  address: nullableString(),
  city: nullableString(),
  complement: nullableString(),
  country: nullableString(),
  state: nullableString(),
  type: z.enum(companyTypes),
  timezone: nullableString(),
  invitePrefix: nullableString(),
  phone: nullableString(),
  email: nullableString(),
  countryCode: nullableString(),
  touchlessId: nullableString(),
  parentCompanyId: nullableString(),
  mapAddressUrl: nullableString(),
  visibleOnKiosk: z.boolean(),
  serproClientId: nullableString(),
  serproClientSecret: nullableString().describe(`"${secretMask}" when set`),
  serproAuthToken: nullableString().describe(`"${secretMask}" when set`),
  liberadoAuthToken: nullableString().describe(`"${secretMask}" when set`),
  serproAuthTokenExpiresAt: z.number().int().nullable(),
  whatsappMessageNameSource: nullableString(),
  module: z.string(),
  multipleVisitFlowsEnabled: z.boolean().nullable(),
  disableQrcodeApp: z.boolean().nullable(),
  showAssociatedCHsApp: z.boolean().nullable(),
  brandColor: nullableString().describe("the kiosk's brand colour, #rrggbb, or null for the kiosk's own"),
  welcomeImageUrl: nullableString().describe("the kiosk's welcome picture, under /v1/logo (PUT /v1/company/welcome)"),
  localizedWelcomeMessage: z.record(z.string(), z.string()).describe("the kiosk's welcome message per language"),
});
