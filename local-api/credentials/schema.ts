import { z } from 'zod';

/** The roles an admin may issue: front-desk sessions come from the PIN, owner tokens from the CLI. */
export const issuableRoles = ['admin', 'readonly', 'kiosk', 'sync'] as const;

export const credentialCreateInput = z.object({
  role: z.enum(issuableRoles),
  label: z.string().trim().min(1).max(200).describe('what the key is for, to tell keys apart in the list'),
});

export const credentialObjectSchema = z.object({
  id: z.string(),
  role: z.enum(['admin', 'readonly', 'frontdesk', 'kiosk', 'sync']),
  label: z.string(),
  prefix: z.string().nullable().describe("the key's first 12 characters; null for keys made before prefixes were kept"),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('to the minute'),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const credentialCreatedSchema = credentialObjectSchema.extend({
  key: z.string().describe('the key itself: shown once, only its hash is kept'),
});
