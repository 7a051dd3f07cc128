import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import {
  visitorTypeCreateInput,
  visitorTypeInputCodes,
  visitorTypeObjectSchema,
  visitorTypeUpdateInput,
} from './schema.ts';
import {
  createVisitorType,
  deleteVisitorType,
  getVisitorType,
  listVisitorTypes,
  updateVisitorType,
  visitorTypeObject,
  visitorTypeQueryFields,
} from './store.ts';

export const visitorTypePaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Visitor types';

export function visitorTypeRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/visitortypes',
      roles: roles.definitions,
      tag,
      summary: "List the company's visitor types, in the kiosk's order",
      query: listQueryInput(visitorTypePaging),
      response: z.object({ visitorTypes: z.array(visitorTypeObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, visitorTypePaging, visitorTypeQueryFields);
        const visitorTypes = (await listVisitorTypes(ctx, caller, query)).map((row) => visitorTypeObject(row, caller));
        return { visitorTypes, size: visitorTypes.length };
      },
    }),
    route({
      method: 'post',
      path: '/visitortypes',
      roles: roles.staff,
      tag,
      summary: 'Define a visitor type (a known kind fills in its names, badge label and rules)',
      body: visitorTypeCreateInput,
      fieldCodes: visitorTypeInputCodes,
      response: visitorTypeObjectSchema,
      errors: ['MISSING_NAME', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) => visitorTypeObject(await createVisitorType(ctx, caller, body), caller),
    }),
    route({
      method: 'get',
      path: '/visitortype/:id',
      roles: roles.definitions,
      tag,
      summary: 'Retrieve a visitor type',
      response: visitorTypeObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) =>
        visitorTypeObject(await getVisitorType(ctx, caller, String(params.id)), caller),
    }),
    route({
      method: 'patch',
      path: '/visitortype/:id',
      roles: roles.staff,
      tag,
      summary: 'Update a visitor type',
      body: visitorTypeUpdateInput,
      fieldCodes: visitorTypeInputCodes,
      response: visitorTypeObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', 'MISSING_NAME', 'INVALID_PARAMETER'],
      handle: async ({ caller, params, body }) =>
        visitorTypeObject(await updateVisitorType(ctx, caller, String(params.id), body), caller),
    }),
    route({
      method: 'delete',
      path: '/visitortype/:id',
      roles: roles.staff,
      tag,
      summary: 'Delete a visitor type (visits and invitees keep naming it)',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteVisitorType(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
