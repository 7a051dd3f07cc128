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

/** The host object (docs/api.md, "Hosts"). */
export const hostObjectSchema = z.object(hostObjectShape);
