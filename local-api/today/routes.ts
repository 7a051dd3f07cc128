import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { todaySchema } from './schema.ts';
import { todayCounts } from './store.ts';

export function todayRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/today',
      roles: roles.guestReaders,
      tag: 'Front desk',
      summary:
        "Today's counts for the front desk (company zone): inside, expected, waiting, blocked, denied, failed " +
        'messages to hosts, people inside without a host',
      response: todaySchema,
      errors: [],
      handle: async ({ caller }) => await todayCounts(ctx, caller),
    }),
  ];
}
