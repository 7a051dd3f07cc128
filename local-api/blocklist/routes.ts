import { z } from 'zod';
import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { blocklistDeleteInput, blocklistInput, blocklistInputCodes, blocklistObjectSchema } from './schema.ts';
import {
  blocklistObject,
  blocklistQueryFields,
  createBlocklistEntry,
  deleteBlocklistEntry,
  getBlocklistEntry,
  listBlocklist,
  updateBlocklistEntry,
} from './store.ts';

export const blocklistPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Blocklist';
const inputErrors = [
  'MISSING_IDENTIFIER',
  'INVALID_CPF',
  'INVALID_EMAIL',
  'INVALID_PARAMETER',
  'HOST_NOT_FOUND',
] as const;

/** At `/blockedlist`, the path the vendor's public API gives this resource; `:id` on the same path. */
export function blocklistRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/blockedlist',
      roles: roles.readers,
      tag,
      summary: 'List blocklist entries',
      query: listQueryInput(blocklistPaging),
      response: z.object({ blockedlist: z.array(blocklistObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const query = parseListQuery(req.query, blocklistPaging, blocklistQueryFields);
        const blockedlist = (await listBlocklist(ctx, caller, query)).map((row) => blocklistObject(row, caller));
        auditRead(ctx, caller, { action: 'blocklist.listed', objectType: 'blocklist', size: blockedlist.length });
        return { blockedlist, size: blockedlist.length };
      },
    }),
    route({
      method: 'post',
      path: '/blockedlist',
      roles: roles.desk,
      tag,
      summary: 'Block a person (at least one of cpf, rg, document, email, phone)',
      body: blocklistInput,
      fieldCodes: blocklistInputCodes,
      response: blocklistObjectSchema,
      errors: inputErrors,
      handle: async ({ caller, body }) => blocklistObject(await createBlocklistEntry(ctx, caller, body), caller),
    }),
    route({
      method: 'get',
      path: '/blockedlist/:id',
      roles: roles.readers,
      tag,
      summary: 'Retrieve a blocklist entry',
      response: blocklistObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        const entry = await getBlocklistEntry(ctx, caller, String(params.id));
        auditRead(ctx, caller, { action: 'blocklist.read', objectType: 'blocklist', objectId: entry.id });
        return blocklistObject(entry, caller);
      },
    }),
    route({
      method: 'patch',
      path: '/blockedlist/:id',
      roles: roles.desk,
      tag,
      summary: 'Update a blocklist entry',
      body: blocklistInput,
      fieldCodes: blocklistInputCodes,
      response: blocklistObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', ...inputErrors],
      handle: async ({ caller, params, body }) =>
        blocklistObject(await updateBlocklistEntry(ctx, caller, String(params.id), body), caller),
    }),
    route({
      method: 'delete',
      path: '/blockedlist/:id',
      roles: roles.desk,
      tag,
      summary: 'Remove a blocklist entry',
      body: blocklistDeleteInput,
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', 'INVALID_PARAMETER', 'HOST_NOT_FOUND'],
      handle: async ({ caller, params, body }) => {
        await deleteBlocklistEntry(ctx, caller, String(params.id), body.deletedById ?? null);
        return { success: true };
      },
    }),
  ];
}
