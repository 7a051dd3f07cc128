import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

/** One line or set of bars of a chart, and its values in the order of the x axis. */
export interface ChartSeries {
  label: string;
  values: readonly (number | null)[];
}

/** The x axis: days (YYYY-MM-DD, shown in the page's language) or named categories (hosts, hours…). */
export type ChartAxis = { days: readonly string[] } | { categories: readonly string[] };

export interface ChartProps {
  kind: 'bars' | 'lines';
  x: ChartAxis;
  series: readonly ChartSeries[];
  lang: string;
}

/** The series' colours, from the page's stylesheet (--chart-1 …), so the legend's swatches are the same colours. */
export const chartColours = 7;
const colourOf = (element: Element, i: number) =>
  getComputedStyle(element)
    .getPropertyValue(`--chart-${(i % chartColours) + 1}`)
    .trim() || '#0a56c2';

const heightOf = (width: number) => (width < 500 ? 200 : 260);
/** Whole steps for the counts' axis (1, 2, 5, 10, 20, 50…): a count of visits has no half. */
const wholeSteps = Array.from({ length: 21 }, (_, i) => ([1, 2, 5][i % 3] as number) * 10 ** Math.floor(i / 3));
const dayMs = 86_400_000;

/** A day's position on the axis: its UTC midnight in seconds (the days are the company's, not the browser's). */
const daySeconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

function options(props: ChartProps, element: HTMLElement, width: number): uPlot.Options {
  const ink = getComputedStyle(element).getPropertyValue('--ink').trim() || '#0b1f44';
  const line = getComputedStyle(element).getPropertyValue('--line').trim() || '#c5cedd';
  const numbers = new Intl.NumberFormat(props.lang, { maximumFractionDigits: 1 });
  const axis = { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
  const days = 'days' in props.x;
  const dayFormat = new Intl.DateTimeFormat(props.lang, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const categories = 'categories' in props.x ? props.x.categories : [];
  const bars = props.kind === 'bars' ? uPlot.paths.bars?.({ size: [0.7, 64] }) : undefined;
  return {
    width,
    height: heightOf(width),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: days
        ? { time: true, ...(props.kind === 'bars' ? { range: (_u, min, max) => [min - 43_200, max + 43_200] } : {}) }
        : { time: false, range: () => [-0.5, categories.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(1, max) * 1.1] },
    },
    axes: [
      {
        ...axis,
        ...(days
          ? { values: (_u: uPlot, splits: number[]) => splits.map((s) => dayFormat.format(s * 1000)) }
          : {
              splits: () => categories.map((_, i) => i),
              values: (_u: uPlot, splits: number[]) =>
                splits.map((s) => {
                  const name = categories[s] ?? '';
                  return name.length > 12 ? `${name.slice(0, 11)}…` : name;
                }),
            }),
        ...(days ? { space: 60, incrs: [dayMs / 1000, (7 * dayMs) / 1000, (30 * dayMs) / 1000] } : { space: 10 }),
      },
      {
        ...axis,
        incrs: wholeSteps,
        values: (_u: uPlot, splits: number[]) => splits.map((s) => numbers.format(s)),
        size: 56,
      },
    ],
    series: [
      {},
      ...props.series.map((s, i) => ({
        label: s.label,
        stroke: colourOf(element, i),
        width: 2,
        ...(bars ? { paths: bars, fill: colourOf(element, i), points: { show: false } } : {}),
        spanGaps: false,
      })),
    ],
  };
}

function dataOf(props: ChartProps): uPlot.AlignedData {
  const xs = 'days' in props.x ? props.x.days.map(daySeconds) : props.x.categories.map((_, i) => i);
  return [xs, ...props.series.map((s) => [...s.values])] as uPlot.AlignedData;
}

/**
 * A chart drawn by uPlot on a canvas. It is a picture for the eye: the figure names it and its table holds the
 * same numbers for everyone, so the canvas is hidden from assistive technology. uPlot sets element sizes through
 * the CSSOM, which the pages' CSP (style-src 'self') allows; its stylesheet is a file of the page's chunk.
 */
export function Chart({ kind, x, series, lang }: ChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const props = { kind, x, series, lang };
    const width = () => Math.max(240, Math.floor(element.clientWidth));
    const plot = new uPlot(options(props, element, width()), dataOf(props), element);
    const resized = new ResizeObserver(() => {
      const next = width();
      if (next !== plot.width) plot.setSize({ width: next, height: heightOf(next) });
    });
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [kind, x, series, lang]);
  return <div className="analytics-chart" ref={holder} aria-hidden="true" />;
}
