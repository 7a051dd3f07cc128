import { z } from 'zod';
import { bool, httpUrl, positiveInt } from '../http/fields.ts';

/** Seconds a QR code stays valid: at least 5 (a person needs time to show it), at most a day. */
export const qrcodeDurationRange = { min: 5, max: 86_400 } as const;

/** POST /v1/integration/access: a partial upsert; absent fields keep their value (or its default: docs/api.md, "Access-control configuration"). */
export const accessConfigInput = z
  .object({
    enabled: bool(),
    aesKey: z.string().max(200),
    qrcodeDuration: positiveInt().refine(
      (n) => n >= qrcodeDurationRange.min && n <= qrcodeDurationRange.max,
      `must be ${qrcodeDurationRange.min} to ${qrcodeDurationRange.max} seconds`,
    ),
    url: httpUrl(),
    username: z.string().max(200),
    password: z.string().max(200),
    totpEnabled: bool(),
    staticVisitorQRCode: bool(),
  })
  .partial();
export type AccessConfigInput = z.output<typeof accessConfigInput>;

export const accessConfigSecrets = ['aesKey', 'password'] as const;

/** The access-control integration configuration (docs/api.md, "Access-control configuration"). */
export const accessConfigObjectSchema = z.object({
  enabled: z.boolean(),
  aesKey: z.string(),
  qrcodeDuration: z.number().int(),
  url: z.string(),
  username: z.string(),
  password: z.string(),
  totpEnabled: z.boolean(),
  staticVisitorQRCode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
