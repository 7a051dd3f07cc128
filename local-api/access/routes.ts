import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { accessConfigInput, accessConfigObjectSchema } from './schema.ts';
import { accessConfigObject, deleteAccessConfig, getAccessConfig, saveAccessConfig } from './store.ts';

const tag = 'Access control';

export function accessConfigRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/integration/access',
      roles: roles.staff,
      tag,
      summary: 'Retrieve the access-control integration configuration',
      response: accessConfigObjectSchema,
      errors: ['NOT_FOUND'],
      handle: async ({ caller }) => accessConfigObject(await getAccessConfig(ctx, caller), caller),
    }),
    route({
      method: 'post',
      path: '/integration/access',
      roles: roles.staff,
      tag,
      summary: 'Create or update the configuration (partial; absent fields keep their value)',
      response: accessConfigObjectSchema,
      body: accessConfigInput,
      errors: ['INVALID_PARAMETER', 'DESTINATION_REFUSED'],
      handle: async ({ caller, body }) => accessConfigObject(await saveAccessConfig(ctx, caller, body), caller),
    }),
    route({
      method: 'delete',
      path: '/integration/access',
      tag,
      summary: 'Delete the configuration',
      response: successSchema,
      errors: [],
      handle: async ({ caller }) => {
        await deleteAccessConfig(ctx, caller);
        return { success: true };
      },
    }),
  ];
}
