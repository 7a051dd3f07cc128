import { z } from 'zod';

/** The charts of the analytics page, each downloadable as CSV (GET /v1/analytics/export?chart=…). */
export const analyticsCharts = [
  'days',
  'weeks',
  'visitors',
  'stay',
  'noShows',
  'visitorTypes',
  'hosts',
  'kiosks',
  'peakHours',
] as const;
export type AnalyticsChart = (typeof analyticsCharts)[number];

export const analyticsLimits = { defaultDays: 30, defaultTop: 10, maxTop: 50 };

const day = (what: string) => z.string().optional().describe(`${what}, YYYY-MM-DD, in the company zone`);

/** The query of GET /v1/analytics. */
export const analyticsQuery = z.object({
  from: day(`the first day (default: ${analyticsLimits.defaultDays} days before \`to\`, that day included)`),
  to: day('the last day, included (default: today)'),
});

/** The query of GET /v1/analytics/hosts. */
export const topHostsQuery = analyticsQuery.extend({
  top: z
    .int()
    .min(1)
    .max(analyticsLimits.maxTop)
    .optional()
    .describe(`how many hosts the host ranking lists (default ${analyticsLimits.defaultTop})`),
});

export const analyticsExportQuery = topHostsQuery.extend({
  chart: z.enum(analyticsCharts).describe("the chart whose numbers the file holds, as the page's table shows them"),
});

const count = (what: string) => z.number().int().min(0).describe(what);
const averageStay = z
  .number()
  .int()
  .min(0)
  .nullable()
  .describe('average stay in seconds of the visits checked out (null: none was)');

const perDay = z.object({
  day: z.string().describe('YYYY-MM-DD in the company zone'),
  visits: count('check-ins that day'),
  firstTime: count("of which the visitor's first visit"),
  returning: count('of which by a visitor who had visited before'),
  averageStaySeconds: averageStay,
  expected: count('invitees expected that day, not canceled'),
  noShows: count('of which never arrived (counted once their expected time has passed)'),
});

const ranked = (what: string) =>
  z.object({
    id: z.string().nullable().describe(`the ${what}'s id (null: visits without one)`),
    name: z.string().nullable().describe(`the ${what}'s name (null: none, or no longer known)`),
    visits: count('check-ins'),
  });

/** GET /v1/analytics: a span's visits counted by the service (docs/console.md, "Analytics"). */
export const analyticsSchema = z.object({
  from: z.string().describe('the first day, YYYY-MM-DD, in the company zone'),
  to: z.string().describe('the last day, included'),
  timeZone: z.string().describe('the zone the days, weekdays and hours are counted in'),
  totals: z.object({
    visits: count('check-ins in the span (every visit the visit log shows for these days)'),
    firstTime: count("visits that were the visitor's first"),
    returning: count('visits by a visitor who had visited before'),
    averageStaySeconds: averageStay,
    expected: count('invitees expected in the span, not canceled'),
    noShows: count('of which never arrived, their expected time past'),
  }),
  days: z.array(perDay).describe('every day of the span, oldest first, days without visits included'),
  weeks: z
    .array(
      z.object({
        week: z.string().describe("the week's Monday, YYYY-MM-DD"),
        days: z.number().int().min(1).max(7).describe('how many of its days are in the span'),
        visits: count('check-ins on those days'),
      }),
    )
    .describe('the weeks the span touches, Monday first'),
  visitorTypes: z.array(ranked('visitor type')).describe('visits by visitor type, most first'),
  kiosks: z
    .array(ranked('kiosk'))
    .describe("visits by the kiosk that checked them in (its credential's label); id null: checked in elsewhere"),
  peakHours: z
    .array(z.array(z.number().int().min(0)).length(24))
    .length(7)
    .describe('check-ins by weekday (Monday first) and hour of the day (0 to 23), in the company zone'),
});

export type Analytics = z.output<typeof analyticsSchema>;

/** GET /v1/analytics/hosts: the span's hosts ranked, apart from the rest (it reads every visit of the span). */
export const topHostsSchema = z.object({
  from: z.string().describe('the first day, YYYY-MM-DD, in the company zone'),
  to: z.string().describe('the last day, included'),
  hosts: z.array(ranked('host')).describe('the hosts who received the most visits (`top` of them), most first'),
});

export type TopHosts = z.output<typeof topHostsSchema>;
