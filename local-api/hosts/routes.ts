import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { hostImportAnswer, hostImportInput, importHosts } from './import.ts';
import { hostObject } from './present.ts';
import {
  hostCreateInput,
  hostDirectoryEntry,
  hostDirectoryQuery,
  hostInputCodes,
  hostObjectSchema,
  hostUpdateInput,
} from './schema.ts';
import { createHost, deleteHost, getHost, hostDirectory, hostQueryFields, listHosts, updateHost } from './store.ts';

export const hostPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Hosts';

export function hostRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/hosts',
      roles: roles.readers,
      tag,
      summary: 'List hosts',
      response: z.object({ hosts: z.array(hostObjectSchema), size: z.number().int() }),
      query: listQueryInput(hostPaging),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const hosts = (await listHosts(ctx, caller, parseListQuery(req.query, hostPaging, hostQueryFields))).map(
          (row) => hostObject(row, caller.timeZone),
        );
        return { hosts, size: hosts.length };
      },
    }),
    route({
      method: 'post',
      path: '/hosts',
      tag,
      summary: 'Create a host',
      response: hostObjectSchema,
      body: hostCreateInput,
      fieldCodes: hostInputCodes,
      errors: [
        'MISSING_NAME',
        'MISSING_EMAIL',
        'INVALID_EMAIL',
        'INVALID_ROLE',
        'ALREADY_EXISTS',
        'MISSING_COUNTRY_CODE',
        'INVALID_COUNTRY_CODE',
        'INVALID_PARAMETER',
      ],
      handle: async ({ caller, body }) => hostObject(await createHost(ctx, caller, body), caller.timeZone),
    }),
    route({
      method: 'get',
      path: '/hosts/directory',
      roles: roles.guestReaders,
      tag,
      summary: "The company's active hosts by name, for choosing one: id, name, position and sector only",
      query: hostDirectoryQuery,
      response: z.object({ hosts: z.array(hostDirectoryEntry), size: z.number().int() }),
      errors: ['INVALID_PARAMETER', 'INVALID_LIMIT_VALUE'],
      handle: async ({ req, caller }) => {
        const hosts = await hostDirectory(ctx, caller, req.query);
        return { hosts, size: hosts.length };
      },
    }),
    route({
      method: 'get',
      path: '/host/:id',
      roles: roles.readers,
      tag,
      summary: 'Retrieve a host',
      response: hostObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => hostObject(await getHost(ctx, caller, String(params.id)), caller.timeZone),
    }),
    route({
      method: 'patch',
      path: '/host/:id',
      tag,
      summary: 'Update a host',
      response: hostObjectSchema,
      body: hostUpdateInput,
      fieldCodes: hostInputCodes,
      errors: [
        'NOT_FOUND',
        'MISSING_ID',
        'CANNOT_CHANGE_HOST_EMAIL',
        'INVALID_ROLE',
        'INVALID_EMAIL',
        'MISSING_COUNTRY_CODE',
        'INVALID_COUNTRY_CODE',
        'INVALID_PARAMETER',
      ],
      handle: async ({ caller, params, body }) =>
        hostObject(await updateHost(ctx, caller, String(params.id), body), caller.timeZone),
    }),
    route({
      method: 'delete',
      path: '/host/:id',
      tag,
      summary: 'Delete a host',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteHost(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
    route({
      method: 'post',
      path: '/host/import',
      tag,
      summary:
        "Import hosts from a spreadsheet's rows, upserted by e-mail: a dry run answers what each row would do; an " +
        "import writes every row in one transaction, or none (INVALID_ROWS, with each row's error)",
      body: hostImportInput,
      response: hostImportAnswer,
      errors: ['INVALID_ROWS', 'INVALID_PARAMETER', 'MANAGED_BY_HUB'],
      handle: async ({ caller, body }) => await importHosts(ctx, caller, body),
    }),
  ];
}
