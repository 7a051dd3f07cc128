import { z } from 'zod';
import { bool, type FieldCodes } from '../http/fields.ts';
import { hostInputShape, hostObjectShape } from './contract.ts';

/** The fields a client writes, and one instruction: send the invitation e-mail again. */
const hostInputFields = { ...hostInputShape, resendInvitationEmail: bool() };

export const hostCreateInput = z.object({
  ...z.object(hostInputFields).partial().shape,
  name: hostInputFields.name,
  email: hostInputFields.email,
});
export type HostCreateInput = z.output<typeof hostCreateInput>;

export const hostUpdateInput = z.object(hostInputFields).partial();
export type HostUpdateInput = z.output<typeof hostUpdateInput>;

export const hostInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME', invalid: 'INVALID_PARAMETER' },
  email: { missing: 'MISSING_EMAIL', invalid: 'INVALID_EMAIL' },
  additionalEmails: { invalid: 'INVALID_EMAIL' },
  role: { invalid: 'INVALID_ROLE' },
  countryCode: { invalid: 'INVALID_COUNTRY_CODE' },
};

/** The short host object that visits, invitees and meetings embed. */
export const hostSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.literal('host'),
});

/** GET /v1/hosts/directory: the company's active hosts, for choosing one (docs/api.md, "Hosts"). */
export const hostDirectoryPaging = { defaultLimit: 100, maxLimit: 1000 };

export const hostDirectoryQuery = z.object({
  search: z.string().max(200).optional().describe('text found in the name, without regard to case'),
  limit: z
    .int()
    .min(1)
    .max(hostDirectoryPaging.maxLimit)
    .optional()
    .describe(`default ${hostDirectoryPaging.defaultLimit}`),
});

/** A host as the directory shows it to every person of the company: no contact data, no identifiers. */
export const hostDirectoryEntry = z.object({
  id: z.string(),
  name: z.string(),
  position: z.string().nullable(),
  sector: z.string().nullable(),
});
export type HostDirectoryEntry = z.output<typeof hostDirectoryEntry>;

/** The host object (docs/api.md, "Hosts"). */
export const hostObjectSchema = z.object(hostObjectShape);
