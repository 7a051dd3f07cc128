import { z } from 'zod';
import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { pictureUpload } from '../files/schema.ts';
import { pictureOf } from '../files/store.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { bulkInviteeAnswer, bulkInviteeInput, createInviteesInBulk } from './bulk.ts';
import { inviteeObject, inviteeObjects } from './present.ts';
import { inviteeCreateInput, inviteeInputCodes, inviteeObjectSchema, inviteeUpdateInput } from './schema.ts';
import { createInvitee, deleteInvitee, getInvitee, inviteeQueryFields, listInvitees, updateInvitee } from './store.ts';

export const inviteePaging = { defaultLimit: 500, maxLimit: 2000 };

const tag = 'Invitees';
const inputErrors = [
  'INVALID_EMAIL',
  'INVALID_STATUS',
  'INVALID_CPF',
  'INVALID_CARD_NUMBER',
  'INVALID_EXPECTED_AT',
  'HOST_NOT_FOUND',
  'ALREADY_EXISTS',
  'INVALID_PARAMETER',
  'INVALID_CUSTOM_FIELD',
] as const;

export function inviteeRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/invitees',
      roles: roles.guestReaders,
      tag,
      summary: 'List invitees',
      response: z.object({ invitees: z.array(inviteeObjectSchema), size: z.number().int() }),
      query: listQueryInput(inviteePaging),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const invitees = await inviteeObjects(
          ctx,
          caller,
          await listInvitees(ctx, caller, parseListQuery(req.query, inviteePaging, inviteeQueryFields)),
        );
        auditRead(ctx, caller, { action: 'invitees.listed', objectType: 'invitee', size: invitees.length });
        return { invitees, size: invitees.length };
      },
    }),
    route({
      method: 'post',
      path: '/invitees',
      roles: roles.inviters,
      tag,
      summary: 'Pre-register an invitee',
      response: inviteeObjectSchema,
      body: inviteeCreateInput,
      fieldCodes: inviteeInputCodes,
      errors: ['MISSING_NAME', 'MISSING_EMAIL', 'MISSING_EXPECTED_AT', 'MISSING_HOST_ID', ...inputErrors],
      handle: async ({ caller, body }) => await inviteeObject(ctx, caller, await createInvitee(ctx, caller, body)),
    }),
    route({
      method: 'post',
      path: '/invitees/bulk',
      roles: roles.inviters,
      tag,
      summary:
        'Pre-register many invitees at once (an uploaded list): every row or none, in one transaction; each refused ' +
        "row's problem is answered. `dryRun: true` checks them all and creates nothing (a preview)",
      response: bulkInviteeAnswer,
      body: bulkInviteeInput,
      errors: ['INVALID_PARAMETER'],
      handle: async ({ caller, body }) => await createInviteesInBulk(ctx, caller, body.invitees, body.dryRun ?? false),
    }),
    route({
      method: 'get',
      path: '/invitee/:id',
      roles: roles.guestReaders,
      tag,
      summary: 'Retrieve an invitee',
      response: inviteeObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        const invitee = await getInvitee(ctx, caller, String(params.id));
        auditRead(ctx, caller, { action: 'invitee.read', objectType: 'invitee', objectId: invitee.id });
        return await inviteeObject(ctx, caller, invitee);
      },
    }),
    route({
      method: 'patch',
      path: '/invitee/:id',
      roles: roles.inviters,
      tag,
      summary: 'Update an invitee',
      response: inviteeObjectSchema,
      body: inviteeUpdateInput,
      fieldCodes: inviteeInputCodes,
      errors: ['NOT_FOUND', 'MISSING_ID', ...inputErrors],
      handle: async ({ caller, params, body }) =>
        await inviteeObject(ctx, caller, await updateInvitee(ctx, caller, String(params.id), body)),
    }),
    route({
      method: 'put',
      path: '/invitee/:id/picture',
      roles: roles.inviters,
      tag,
      summary: "Set an invitee's picture, sent as itself: image/jpeg or image/png, up to 5 MiB",
      upload: pictureUpload,
      response: inviteeObjectSchema,
      errors: ['NOT_FOUND', 'INVALID_PICTURE'],
      handle: async ({ caller, params, bytes }) =>
        await inviteeObject(
          ctx,
          caller,
          await updateInvitee(
            ctx,
            caller,
            String(params.id),
            {},
            pictureOf(bytes ?? Buffer.alloc(0), 'pictureUrl', 'invitee-picture'),
          ),
        ),
    }),
    route({
      method: 'delete',
      path: '/invitee/:id',
      roles: roles.inviters,
      tag,
      summary: 'Delete an invitee',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteInvitee(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
