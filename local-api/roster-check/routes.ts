import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { rosterCheckSchema, rosterTickSchema } from './schema.ts';
import { rosterCheck, startRollCall, tickVisit, untickVisit } from './store.ts';

const tag = 'Front desk';

/** The evacuation roll call: marshals tick the people on the roster they have accounted for (docs/api.md). */
export function rosterCheckRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/roster/check',
      roles: roles.readers,
      tag,
      summary: 'The roll call of the roster: who has been accounted for, when and by whom',
      response: rosterCheckSchema,
      errors: [],
      handle: async ({ caller }) => await rosterCheck(ctx, caller),
    }),
    route({
      method: 'post',
      path: '/roster/check',
      roles: roles.desk,
      tag,
      summary: 'Begin a new roll call (a new evacuation): every tick of the last one is cleared',
      response: rosterCheckSchema,
      errors: [],
      handle: async ({ caller }) => await startRollCall(ctx, caller),
    }),
    route({
      method: 'put',
      path: '/roster/check/:visitId',
      roles: roles.desk,
      tag,
      summary: "Account for the person of a roster's row (again: the first tick is kept)",
      response: rosterTickSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => await tickVisit(ctx, caller, String(params.visitId)),
    }),
    route({
      method: 'delete',
      path: '/roster/check/:visitId',
      roles: roles.desk,
      tag,
      summary: 'Take a tick back',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await untickVisit(ctx, caller, String(params.visitId));
        return { success: true };
      },
    }),
  ];
}
