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

/** POST /v1/privacy/erasure: whom to erase, by any of the identifiers a visitor gives (at least one). */
export const erasureInput = z.object({
  email: email().optional(),
  cpf: cpf().optional(),
  document: z.string().trim().min(1).max(60).optional(),
});
export type ErasureInput = z.output<typeof erasureInput>;

export const erasureInputCodes: Readonly<Record<string, FieldCodes>> = {
  email: { invalid: 'INVALID_EMAIL' },
  cpf: { invalid: 'INVALID_CPF' },
};

export const erasureOutput = z.object({
  type: z.literal('erasure'),
  visits: z.number().int(),
  invitees: z.number().int(),
  files: z.number().int(),
});
