import { z } from 'zod';
import { cpf, email, type FieldCodes, positiveInt } from '../http/fields.ts';

/** Up to a hundred years: beyond that "keep forever" (null) says what is meant. */
export const maxRetentionDays = 36_500;

/** PUT /v1/privacy/retention: days to keep visitor data, or null to keep it until erased. */
export const retentionInput = z.object({
  retentionDays: positiveInt()
    .refine((days) => days <= maxRetentionDays, `at most ${maxRetentionDays} days`)
    .nullable(),
});

export const retentionOutput = z.object({
  type: z.literal('retention'),
  retentionDays: z.number().int().nullable(),
  lastSweepAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

/**
 * POST /v1/privacy/erasure and POST /v1/privacy/export: whom, by what the visitor can prove: an e-mail, a CPF or a
 * document alone, or a name with a phone number.
 */
export const erasureInput = z.object({
  email: email().optional(),
  cpf: cpf().optional(),
  document: z.string().trim().min(1).max(60).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  phone: z.string().trim().min(1).max(40).optional(),
});
export type ErasureInput = z.output<typeof erasureInput>;

export const erasureInputCodes: Readonly<Record<string, FieldCodes>> = {
  email: { invalid: 'INVALID_EMAIL' },
  cpf: { invalid: 'INVALID_CPF' },
};

const count = () => z.number().int();

export const erasureOutput = z.object({
  type: z.literal('erasure'),
  visits: count(),
  invitees: count(),
  visitors: count().describe('visitor records'),
  blocklist: count().describe('blocklist entries'),
  files: count().describe('pictures and signed NDAs deleted'),
  meetings: count().describe('meetings the person was taken out of (guest list, title, message, notes)'),
  notifications: count().describe('notification texts the person was taken out of'),
  deliveries: count().describe('queued deliveries dropped, rewritten or reduced to their proof'),
});

const exportedObjects = z.array(z.record(z.string(), z.unknown()));

/** The answer of POST /v1/privacy/export (docs/api.md, "Subject-access export"). */
export const subjectAccessOutput = z.object({
  type: z.literal('subjectAccess'),
  generatedAt: z.string(),
  companyId: z.string(),
  visitors: exportedObjects,
  visits: exportedObjects,
  invitees: exportedObjects,
  blocklist: exportedObjects,
  meetings: exportedObjects.describe('meetings the person is a guest of or named in'),
  notifications: exportedObjects.describe('notifications whose text names the person'),
  deliveries: z
    .array(
      z.object({
        kind: z.string(),
        status: z.string(),
        attempts: z.number().int(),
        createdAt: z.string(),
        updatedAt: z.string(),
        payload: z.unknown(),
      }),
    )
    .describe('messages queued or sent about the person (webhooks, e-mails, the gate)'),
  files: z.array(
    z.object({
      name: z.string(),
      purpose: z.string(),
      mediaType: z.string(),
      size: z.number().int(),
      sha256: z.string(),
      createdAt: z.string(),
      contentBase64: z.string(),
    }),
  ),
  audit: z.array(z.record(z.string(), z.unknown())).describe("the audit log's entries about the person's records"),
});
