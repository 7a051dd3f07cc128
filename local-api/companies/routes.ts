import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { companyInputCodes, companyObjectSchema, companyUpdateInput } from './schema.ts';
import { companyObject, updateCompany } from './store.ts';

const tag = 'Company';

export function companyRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/company',
      roles: roles.guestReaders,
      tag,
      summary: "Retrieve the caller's company",
      response: companyObjectSchema,
      errors: [],
      handle: async ({ caller }) => await companyObject(ctx, caller),
    }),
    route({
      method: 'patch',
      path: '/company',
      roles: roles.staff,
      tag,
      summary: "Update the caller's company (plan, planIsActive and trialUntil are read-only)",
      body: companyUpdateInput,
      fieldCodes: companyInputCodes,
      response: companyObjectSchema,
      errors: ['READ_ONLY_FIELD', 'INVALID_EMAIL', 'INVALID_COUNTRY_CODE', 'INVALID_PARAMETER', 'BRAND_COLOR_CONTRAST'],
      handle: async ({ caller, body }) => await updateCompany(ctx, caller, body),
    }),
  ];
}
