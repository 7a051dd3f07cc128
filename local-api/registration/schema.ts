import { z } from 'zod';

/*
 * What the register page (docs/api.md, "Public pages") and its endpoints exchange, declared once for the service
 * and the page (renderer/src/guest/).
 */

/** A pre-registered picture or signed agreement, in bytes: a kiosk's picture is about 30 KB, its PDF about 60 KB. */
export const registrationFileMaxBytes = 1024 * 1024;

const answer = z.object({ customFieldId: z.string().min(1).max(64), value: z.string().max(5000) });

/** `POST /p/register/<token>/registration`: the answers, and the picture and agreement when they change. */
export const registrationInput = z.object({
  customFields: z.array(answer).max(100).default([]),
  questionnaireFields: z.array(answer).max(100).default([]),
  /** Base64 JPEG or PNG (a data: URL prefix is accepted); absent: the one registered before stays; null: none. */
  picture: z.string().max(2_000_000).nullable().optional(),
  /** The signed agreement, a Base64 PDF, made by the page as the kiosk makes it; absent: the one signed before. */
  nda: z.string().max(2_000_000).optional(),
  ndaSignature: z.enum(['DRAWN', 'TYPED']).optional(),
});
export type RegistrationInput = z.output<typeof registrationInput>;

/** A custom field as the page asks it: the definition as GET /v1/customfields shows it. */
const fieldDefinition = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional(),
  localizedName: z.record(z.string(), z.string()).optional(),
  localizedOptions: z.record(z.string(), z.array(z.string())).optional(),
  sort: z.number().optional(),
  location: z.string().optional(),
});

/** `GET /p/register/<token>/form`: what the page shows and asks, and what the guest registered before. */
export const registrationForm = z.object({
  lang: z.enum(['en', 'pt-BR', 'de', 'zh-Hans']),
  company: z.object({ name: z.string(), brandColor: z.string().nullable(), timezone: z.string() }),
  guest: z.object({
    name: z.string(),
    firstName: z.string(),
    hostName: z.string().nullable(),
    expectedAt: z.string().describe('ISO 8601 in the company zone'),
  }),
  closesAt: z.string().describe('ISO 8601 in the company zone: the page takes changes until then'),
  fields: z.array(fieldDefinition).describe('the required custom fields the kiosk would ask'),
  questions: z.array(fieldDefinition).describe('the questionnaire the kiosk would ask'),
  pictureMode: z.enum(['off', 'optional', 'required']),
  ndaText: z.string().describe("the agreement in the guest's language; empty: none to sign"),
  registration: z.object({
    registeredAt: z.string().nullable(),
    answers: z.record(z.string(), z.string()).describe('by custom field id: the invitation and earlier answers'),
    picture: z.string().nullable().describe('the picture registered, as a data: URL'),
    signed: z.boolean(),
  }),
});
export type RegistrationForm = z.output<typeof registrationForm>;

/** The answer of a registration saved. */
export const registrationSaved = z.object({ registeredAt: z.string() });
