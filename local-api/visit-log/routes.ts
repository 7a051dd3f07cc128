import { auditRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { visitHistorySchema, visitLogQuery } from './schema.ts';
import { visitHistory, visitLogCsv } from './store.ts';

const tag = 'Front desk';

/** The front desk's log of visits: a span of days, searched, read page by page or exported. */
export function visitLogRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/visits/history',
      roles: roles.guestReaders,
      tag,
      summary: 'Visits checked in on the given days (today by default), newest first, optionally searched',
      query: visitLogQuery,
      response: visitHistorySchema,
      errors: ['INVALID_PARAMETER', 'INVALID_LIMIT_VALUE', 'INVALID_OFFSET_VALUE'],
      handle: async ({ req, caller }) => {
        const history = await visitHistory(ctx, caller, req.query);
        auditRead(ctx, caller, { action: 'visits.history.read', objectType: 'visit', size: history.size });
        return history;
      },
    }),
    route({
      method: 'get',
      path: '/visits/export',
      roles: roles.guestReaders,
      tag,
      summary: 'The same visits as a CSV file (every cell quoted; cells that would start a formula are defused)',
      query: visitLogQuery,
      produces: ['text/csv'],
      errors: ['INVALID_PARAMETER'],
      handle: async ({ req, res, caller }) => {
        const csv = await visitLogCsv(ctx, caller, req.query);
        auditRead(ctx, caller, { action: 'visits.exported', objectType: 'visit' });
        const from = typeof req.query.from === 'string' ? req.query.from : 'today';
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .set({
            'content-disposition': `attachment; filename="visits-${from.replace(/[^\d-]/g, '') || 'today'}.csv"`,
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          })
          // A byte-order mark: spreadsheets then read the names' accents and scripts as UTF-8.
          .send(`\uFEFF${csv}`);
        return undefined;
      },
    }),
  ];
}
