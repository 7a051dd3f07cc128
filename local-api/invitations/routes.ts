import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { resendInvitation } from './store.ts';

export function invitationRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/invitee/:id/resend',
      roles: roles.inviters,
      tag: 'Invitees',
      summary: "Send the invitee's invitation e-mail again, as the invitation is now",
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', 'CHANNEL_NOT_CONFIGURED', 'MISSING_EMAIL', 'INVITEE_CANCELED'],
      handle: async ({ caller, params }) => {
        await resendInvitation(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
