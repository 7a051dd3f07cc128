import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import {
  customFieldCreateInput,
  customFieldInputCodes,
  customFieldObjectSchema,
  customFieldUpdateInput,
} from './schema.ts';
import {
  createCustomField,
  customFieldObject,
  customFieldQueryFields,
  deleteCustomField,
  getCustomField,
  listCustomFields,
  updateCustomField,
} from './store.ts';

export const customFieldPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Custom fields';

export function customFieldRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/customfields',
      roles: roles.definitions,
      tag,
      summary: "List the company's custom-field definitions, in their order",
      query: listQueryInput(customFieldPaging),
      response: z.object({ customFields: z.array(customFieldObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, customFieldPaging, customFieldQueryFields);
        const customFields = (await listCustomFields(ctx, caller, query)).map((row) => customFieldObject(row, caller));
        return { customFields, size: customFields.length };
      },
    }),
    route({
      method: 'post',
      path: '/customfields',
      roles: roles.staff,
      tag,
      summary: 'Define a custom field',
      body: customFieldCreateInput,
      fieldCodes: customFieldInputCodes,
      response: customFieldObjectSchema,
      errors: ['MISSING_NAME', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) => customFieldObject(await createCustomField(ctx, caller, body), caller),
    }),
    route({
      method: 'get',
      path: '/customfield/:id',
      roles: roles.definitions,
      tag,
      summary: 'Retrieve a custom-field definition',
      response: customFieldObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) =>
        customFieldObject(await getCustomField(ctx, caller, String(params.id)), caller),
    }),
    route({
      method: 'patch',
      path: '/customfield/:id',
      roles: roles.staff,
      tag,
      summary: 'Update a custom-field definition (answers already given keep the name they had)',
      body: customFieldUpdateInput,
      fieldCodes: customFieldInputCodes,
      response: customFieldObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', 'MISSING_NAME', 'INVALID_PARAMETER'],
      handle: async ({ caller, params, body }) =>
        customFieldObject(await updateCustomField(ctx, caller, String(params.id), body), caller),
    }),
    route({
      method: 'delete',
      path: '/customfield/:id',
      roles: roles.staff,
      tag,
      summary: 'Delete a custom-field definition',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteCustomField(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
