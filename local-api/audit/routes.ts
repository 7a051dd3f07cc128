import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryErrors, listQueryInput, parseListQuery } from '../http/list-query.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { auditQueryFields, listAudit } from './store.ts';

export const auditPaging = { defaultLimit: 500, maxLimit: 1000 };

const auditEntry = z.object({
  id: z.number().int(),
  type: z.literal('audit'),
  at: z.string(),
  action: z.string(),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  actorHostId: z.string().nullable(),
  actorCredentialId: z.string().nullable(),
  actorRole: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

export function auditRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/audit',
      roles: roles.reviewers,
      tag: 'Privacy',
      summary: 'List the audit log of staff and admin actions and reads of personal data, oldest first',
      query: listQueryInput(auditPaging),
      response: z.object({ entries: z.array(auditEntry), size: z.number().int() }),
      errors: listQueryErrors,
      handle: async ({ req, caller }) => {
        // Entries are numbered as they are written (id): the log's order of creation on both engines.
        const entries = await listAudit(ctx, caller, parseListQuery(req.query, auditPaging, auditQueryFields, 'id'));
        return { entries, size: entries.length };
      },
    }),
  ];
}
