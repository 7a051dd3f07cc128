import { z } from 'zod';

/** How long a one-time code can be typed, and how many wrong codes end it. */
export const codeRules = { digits: 6, lifetimeMs: 10 * 60_000, maxAttempts: 5 } as const;

/** The ways a code reaches a visitor, as far as the company has them set up. */
export const codeChannels = ['email', 'sms'] as const;
export type CodeChannel = (typeof codeChannels)[number];

const ticket = () => z.string().max(500);

export const returningFindInput = z.object({
  code: z
    .string()
    .max(200)
    .describe('the QR code of an earlier badge (`portaria:visit:<id>`) or invitation (`portaria:invitee:<id>`)'),
});

export const returningCodeInput = z.object({
  address: z.string().trim().min(1).max(254).describe('the e-mail or phone the visitor gave at an earlier visit'),
  lang: z
    .enum(['en', 'pt-BR', 'de', 'zh-Hans'])
    .optional()
    .describe("the message's language (the kiosk's); default the company's"),
});

export const returningCodeAnswer = z.object({
  challenge: z.string().describe('names the code for POST /v1/kiosk/returning/verify; the same answer whoever asks'),
  channel: z.enum(codeChannels).describe('how a code was sent, if the address is of a visitor who can be found'),
  expiresInSeconds: z.number().int(),
});

export const returningVerifyInput = z.object({
  challenge: ticket(),
  code: z.string().max(20).describe(`the ${codeRules.digits} digits sent`),
});

/** What the kiosk fills in for a visitor who proved who they are: theirs alone, editable. */
export const returningVisitorAnswer = z.object({
  ticket: z
    .string()
    .describe('sent as `returning` with POST /v1/kiosk/walkin: the check-in updates this visitor; valid 15 minutes'),
  name: z.string().nullable(),
  company: z.string().nullable(),
  host: z
    .object({ id: z.string(), name: z.string(), sector: z.string().nullable() })
    .nullable()
    .describe('the host of their latest visit, while still an active host'),
});
