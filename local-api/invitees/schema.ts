import { z } from 'zod';
import type { FieldCodes } from '../http/fields.ts';
import { sendInvitationEmailInput } from '../invitations/schema.ts';
import { inviteeInputShape, inviteeObjectShape } from './contract.ts';

/** A way to reach the invitee: one of these, not empty (else MISSING_EMAIL), as the store requires. */
export const reachableBy = ['email', 'phone', 'document'] as const;

export const inviteeCreateInput = z
  .object({
    ...z.object(inviteeInputShape).partial().shape,
    name: inviteeInputShape.name,
    expectedAt: inviteeInputShape.expectedAt,
    hostId: inviteeInputShape.hostId,
    ...sendInvitationEmailInput,
  })
  .meta({
    anyOf: reachableBy.map((key) => ({ required: [key], properties: { [key]: { type: 'string', minLength: 1 } } })),
  });
export type InviteeCreateInput = z.output<typeof inviteeCreateInput>;

export const inviteeUpdateInput = z.object(inviteeInputShape).partial().extend(sendInvitationEmailInput);
export type InviteeUpdateInput = z.output<typeof inviteeUpdateInput>;

export const inviteeInputCodes: Readonly<Record<string, FieldCodes>> = {
  name: { missing: 'MISSING_NAME' },
  email: { invalid: 'INVALID_EMAIL' },
  expectedAt: { missing: 'MISSING_EXPECTED_AT', invalid: 'INVALID_EXPECTED_AT' },
  hostId: { missing: 'MISSING_HOST_ID', invalid: 'HOST_NOT_FOUND' },
  visitorTypeId: { invalid: 'VISITOR_TYPE_NOT_FOUND' },
  status: { invalid: 'INVALID_STATUS' },
  cpf: { invalid: 'INVALID_CPF' },
  cardNumber: { invalid: 'INVALID_CARD_NUMBER' },
  pictureUrl: { invalid: 'INVALID_PICTURE' },
};

/** The invitee object (docs/api.md, "Invitees"). */
export const inviteeObjectSchema = z.object(inviteeObjectShape);
