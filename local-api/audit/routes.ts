import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { listQueryErrors, listQueryInput, parseListQuery } from '../http/list-query.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { auditEntrySchema } from './schema.ts';
import { type AuditReading, auditQueryFields, listAudit } from './store.ts';

export const auditPaging = { defaultLimit: 500, maxLimit: 1000 };

const auditReadingInput = listQueryInput(auditPaging).extend({
  order: z.enum(['oldest', 'newest']).optional().describe('default oldest'),
  before: z.int().min(1).optional().describe('only entries numbered below this id: the next page, newest first'),
  action: z.string().optional().describe('only this action'),
  actor: z.string().optional().describe('only entries of this credential id or host id'),
});

/** One query parameter given once as text, or nothing: repeated or nested parameters are refused, not ignored. */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new ApiError('INVALID_PARAMETER', { parameter: name });
  return value;
}

/** The page's order, cursor and narrowing (docs/reliability.md, "Audit log"). */
function auditReadingOf(query: Record<string, unknown>): AuditReading {
  const order = single(query, 'order') ?? 'oldest';
  if (order !== 'oldest' && order !== 'newest') throw new ApiError('INVALID_PARAMETER', { parameter: 'order' });
  const before = single(query, 'before');
  if (before !== undefined && !/^[1-9]\d{0,15}$/.test(before)) {
    throw new ApiError('INVALID_PARAMETER', { parameter: 'before' });
  }
  return {
    order,
    before: before === undefined ? undefined : Number(before),
    action: single(query, 'action'),
    actor: single(query, 'actor'),
  };
}

export function auditRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/audit',
      roles: roles.reviewers,
      tag: 'Privacy',
      summary: 'List the audit log of staff and admin actions and reads of personal data, oldest or newest first',
      query: auditReadingInput,
      response: z.object({ entries: z.array(auditEntrySchema), size: z.number().int() }),
      errors: [...listQueryErrors, 'INVALID_PARAMETER'],
      handle: async ({ req, caller }) => {
        const reading = auditReadingOf(req.query);
        // Entries are numbered as they are written (id): the log's order of creation on both engines.
        const query = parseListQuery(req.query, auditPaging, auditQueryFields, 'id');
        const entries = await listAudit(ctx, caller, query, reading);
        return { entries, size: entries.length };
      },
    }),
  ];
}
