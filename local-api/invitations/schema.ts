import { bool } from '../http/fields.ts';

/**
 * Not a field of the invitee: whether this write sends the invitee its invitation e-mail (docs/api.md, "Invitation
 * e-mails"). Default true.
 */
export const sendInvitationEmailInput = {
  sendInvitationEmail: bool()
    .optional()
    .describe('false: this write sends no invitation e-mail (nor an update or cancellation); default true'),
};
