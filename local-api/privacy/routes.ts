import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { exportPerson } from './export.ts';
import {
  erasureInput,
  erasureInputCodes,
  erasureOutput,
  retentionInput,
  retentionOutput,
  subjectAccessOutput,
} from './schema.ts';
import { eraseVisitor, findRetention, retentionObject, saveRetention } from './store.ts';

const tag = 'Privacy';

export function privacyRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/privacy/retention',
      roles: roles.readers,
      tag,
      summary: "Retrieve the company's retention of visitor data",
      response: retentionOutput,
      errors: [],
      handle: async ({ caller }) => retentionObject(await findRetention(ctx, caller.companyId), caller),
    }),
    route({
      method: 'put',
      path: '/privacy/retention',
      tag,
      summary: 'Set the days visitor data is kept (null: until erased); applied at once, then daily',
      body: retentionInput,
      response: retentionOutput,
      errors: ['INVALID_PARAMETER'],
      handle: async ({ caller, body }) => retentionObject(await saveRetention(ctx, caller, body.retentionDays), caller),
    }),
    route({
      method: 'post',
      path: '/privacy/erasure',
      tag,
      summary:
        "Erase a person's data everywhere (records, files, meetings, notifications, deliveries, kiosks) by e-mail, CPF, document, or name with phone",
      body: erasureInput,
      fieldCodes: erasureInputCodes,
      response: erasureOutput,
      errors: ['MISSING_IDENTIFIER', 'INVALID_EMAIL', 'INVALID_CPF', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) => ({ type: 'erasure', ...(await eraseVisitor(ctx, caller, body)) }),
    }),
    route({
      method: 'post',
      path: '/privacy/export',
      tag,
      summary: "Everything held about a person (subject access), files included, by the erasure's identifiers",
      body: erasureInput,
      fieldCodes: erasureInputCodes,
      response: subjectAccessOutput,
      errors: ['MISSING_IDENTIFIER', 'INVALID_EMAIL', 'INVALID_CPF', 'INVALID_PARAMETER'],
      handle: async ({ caller, body }) => await exportPerson(ctx, caller, body),
    }),
  ];
}
