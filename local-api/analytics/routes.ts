import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { csvLine } from '../visit-log/csv.ts';
import { chartTable } from './rules.ts';
import {
  type AnalyticsChart,
  analyticsCharts,
  analyticsExportQuery,
  analyticsQuery,
  analyticsSchema,
  topHostsQuery,
  topHostsSchema,
} from './schema.ts';
import { analytics, topHosts } from './store.ts';

const tag = 'Analytics';
const errors = ['INVALID_PARAMETER'] as const;

/** The console's analytics (docs/console.md, "Analytics"): a span's visits counted, and each chart as CSV. */
export function analyticsRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/analytics',
      roles: roles.analysts,
      tag,
      summary:
        'Visits of a span of days (company zone) by day, week, visitor type, kiosk and hour; average stay, ' +
        'no-shows, first-time and returning visitors',
      query: analyticsQuery,
      response: analyticsSchema,
      errors,
      handle: async ({ req, caller }) => await analytics(ctx, caller, req.query),
    }),
    route({
      method: 'get',
      path: '/analytics/hosts',
      roles: roles.analysts,
      tag,
      summary: 'The hosts who received the most visits in a span of days (company zone)',
      query: topHostsQuery,
      response: topHostsSchema,
      errors,
      handle: async ({ req, caller }) => await topHosts(ctx, caller, req.query),
    }),
    route({
      method: 'get',
      path: '/analytics/export',
      roles: roles.analysts,
      tag,
      summary: "One chart's numbers as a CSV file, as the analytics page's table shows them",
      query: analyticsExportQuery,
      produces: ['text/csv'],
      errors,
      handle: async ({ req, res, caller }) => {
        const chart = req.query.chart;
        if (!analyticsCharts.includes(chart as AnalyticsChart)) {
          throw new ApiError('INVALID_PARAMETER', { field: 'chart' });
        }
        const report = await analytics(ctx, caller, req.query);
        const { hosts } = chart === 'hosts' ? await topHosts(ctx, caller, req.query) : { hosts: [] };
        const table = chartTable({ ...report, hosts }, chart as AnalyticsChart);
        res
          .status(200)
          .type('text/csv; charset=utf-8')
          .set({
            'content-disposition': `attachment; filename="${chart}-${report.from}-${report.to}.csv"`,
            'cache-control': 'no-store',
            'x-content-type-options': 'nosniff',
          })
          // A byte-order mark: spreadsheets then read names' accents and scripts as UTF-8.
          .send(`\uFEFF${[table.columns, ...table.rows].map(csvLine).join('')}`);
        return undefined;
      },
    }),
  ];
}
