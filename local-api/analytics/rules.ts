import type { Analytics, AnalyticsChart, TopHosts } from './schema.ts';

/**
 * Each chart's numbers as a table: the rows the page shows under the chart and the CSV export holds, so the two
 * never differ. Pure (the console's page imports it); the CSV's English headers are here, the page has its own.
 */

export type Cell = string | number | null;

export interface ChartTable {
  columns: readonly string[];
  rows: Cell[][];
}

export const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Seconds as minutes with one decimal, as a spreadsheet sums them. */
export const minutesOf = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 6) / 10);

const ranked = (label: string, rows: TopHosts['hosts']): ChartTable => ({
  columns: [label, `${label} id`, 'Visits'],
  rows: rows.map((row) => [row.name ?? '', row.id ?? '', row.visits]),
});

/** A chart's table; the hosts' ranking comes from its own answer. */
export function chartTable(report: Analytics & Pick<TopHosts, 'hosts'>, chart: AnalyticsChart): ChartTable {
  switch (chart) {
    case 'days':
      return { columns: ['Day', 'Visits'], rows: report.days.map((d) => [d.day, d.visits]) };
    case 'weeks':
      return {
        columns: ['Week (Monday)', 'Days in the span', 'Visits'],
        rows: report.weeks.map((w) => [w.week, w.days, w.visits]),
      };
    case 'visitors':
      return {
        columns: ['Day', 'First-time', 'Returning'],
        rows: report.days.map((d) => [d.day, d.firstTime, d.returning]),
      };
    case 'stay':
      return {
        columns: ['Day', 'Average stay (minutes)'],
        rows: report.days.map((d) => [d.day, minutesOf(d.averageStaySeconds)]),
      };
    case 'noShows':
      return {
        columns: ['Day', 'Expected', 'No-shows'],
        rows: report.days.map((d) => [d.day, d.expected, d.noShows]),
      };
    case 'visitorTypes':
      return ranked('Visitor type', report.visitorTypes);
    case 'hosts':
      return ranked('Host', report.hosts);
    case 'kiosks':
      return ranked('Kiosk', report.kiosks);
    case 'peakHours':
      return {
        columns: ['Weekday', ...Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`)],
        rows: report.peakHours.map((hours, i) => [weekdays[i] ?? '', ...hours]),
      };
  }
}
