import { z } from 'zod';
import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { visitorQueryFields } from './contract.ts';
import { visitorObject } from './present.ts';
import { visitorObjectSchema } from './schema.ts';
import { deleteVisitor, getVisitor, listVisitors } from './store.ts';

export const visitorPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Visitors';

export function visitorRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/visitors',
      roles: roles.readers,
      tag,
      summary: 'List visitors (the people behind the visits; a returning visitor is one record)',
      query: listQueryInput(visitorPaging),
      response: z.object({ visitors: z.array(visitorObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, visitorPaging, visitorQueryFields);
        const visitors = (await listVisitors(ctx, caller, query)).map((row) => visitorObject(row, caller.timeZone));
        auditRead(ctx, caller, { action: 'visitors.listed', objectType: 'visitor', size: visitors.length });
        return { visitors, size: visitors.length };
      },
    }),
    route({
      method: 'get',
      path: '/visitor/:id',
      roles: roles.readers,
      tag,
      summary: 'Retrieve a visitor',
      response: visitorObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        const visitor = await getVisitor(ctx, caller, String(params.id));
        auditRead(ctx, caller, { action: 'visitor.read', objectType: 'visitor', objectId: visitor.id });
        return visitorObject(visitor, caller.timeZone);
      },
    }),
    route({
      method: 'delete',
      path: '/visitor/:id',
      tag,
      summary: 'Forget a visitor record (their visits keep their own copy of the data)',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteVisitor(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
