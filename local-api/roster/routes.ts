import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { rosterSchema } from './schema.ts';
import { roster } from './store.ts';

export function rosterRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/roster',
      roles: roles.readers,
      tag: 'Front desk',
      summary: 'Who is inside now (one row per person, repeated check-ins flagged) and who waits for approval',
      response: rosterSchema,
      errors: [],
      handle: async ({ caller }) => {
        auditRead(ctx, caller, { action: 'roster.read', objectType: 'visit' });
        return await roster(ctx, caller);
      },
    }),
  ];
}
