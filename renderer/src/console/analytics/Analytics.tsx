import './analytics.css';
import { useEffect, useId, useMemo, useState } from 'react';
import type { Analytics as Report, TopHosts } from '../../../../local-api/analytics/schema.ts';
import { useConsole } from '../context.ts';
import { useWords } from '../words.ts';
import { Chart, type ChartAxis, type ChartSeries, chartColours } from './Chart.tsx';
import { analyticsWords } from './words.ts';

type Choice = '7' | '30' | '90' | 'custom';
type Cell = string | number;

const dayMs = 86_400_000;
const maxSpanDays = 366;

/** Today in the company's zone, YYYY-MM-DD: the spans are the company's days, wherever the browser is. */
const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());

const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);

const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`));

/** The span chosen, or undefined when a custom one is not a span the service reads. */
function spanOf(choice: Choice, custom: { from: string; to: string }, today: string) {
  if (choice !== 'custom') return { from: daysBefore(today, Number(choice) - 1), to: today };
  if (!isDay(custom.from) || !isDay(custom.to)) return undefined;
  const days = (Date.parse(custom.to) - Date.parse(custom.from)) / dayMs + 1;
  return days >= 1 && days <= maxSpanDays ? custom : undefined;
}

interface ChartSpec {
  id: string;
  title: string;
  kind: 'bars' | 'lines';
  x: ChartAxis;
  series: ChartSeries[];
  columns: string[];
  rows: Cell[][];
}

/**
 * The analytics page (docs/console.md, "Analytics"): a span of the company's days, its totals, and each chart
 * followed by its numbers as a table and a link to download them as CSV.
 */
export default function Analytics() {
  const { api, lang, session } = useConsole();
  const w = useWords(analyticsWords);
  const timeZone = session.company.timeZone;
  const today = todayIn(timeZone);
  const [choice, setChoice] = useState<Choice>('30');
  const [custom, setCustom] = useState({ from: daysBefore(today, 29), to: today });
  const span = spanOf(choice, custom, today);
  const query = span ? `from=${span.from}&to=${span.to}` : undefined;
  const [report, setReport] = useState<Report | undefined>();
  const [hosts, setHosts] = useState<TopHosts | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const pickerId = useId();

  useEffect(() => {
    if (!query) return;
    let current = true;
    setProblem(undefined);
    // The ranking of the span before is not this span's: its chart waits for its own answer.
    setHosts(undefined);
    const failed = () => {
      if (current) setProblem(w.failed);
    };
    // The hosts' ranking reads every visit of the span: it comes in its own answer, after the rest if slower.
    api.get<Report>(`/v1/analytics?${query}`).then((answer) => {
      if (current) setReport(answer);
    }, failed);
    api.get<TopHosts>(`/v1/analytics/hosts?${query}`).then((answer) => {
      if (current) setHosts(answer);
    }, failed);
    return () => {
      current = false;
    };
  }, [api, query, w.failed]);

  const download = async (chart: string) => {
    if (!query) return;
    try {
      const file = await api.download(`/v1/analytics/export?chart=${chart}&${query}`);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file);
      link.download = `${chart}-${span?.from}-${span?.to}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch {
      setProblem(w.downloadFailed);
    }
  };

  const charts = useMemo(() => (report ? chartsOf(report, hosts, w, lang) : []), [report, hosts, w, lang]);
  const numbers = new Intl.NumberFormat(lang);
  const stay = (seconds: number | null) => (seconds === null ? w.noStay : w.minutesShort(Math.round(seconds / 60)));

  return (
    <div className="analytics">
      <form className="analytics-span console-card" onSubmit={(event) => event.preventDefault()}>
        <div className="analytics-field">
          <label htmlFor={`${pickerId}-span`}>{w.span}</label>
          <select id={`${pickerId}-span`} value={choice} onChange={(event) => setChoice(event.target.value as Choice)}>
            <option value="7">{w.last7}</option>
            <option value="30">{w.last30}</option>
            <option value="90">{w.last90}</option>
            <option value="custom">{w.custom}</option>
          </select>
        </div>
        {choice === 'custom' ? (
          <>
            <div className="analytics-field">
              <label htmlFor={`${pickerId}-from`}>{w.from}</label>
              <input
                id={`${pickerId}-from`}
                type="date"
                value={custom.from}
                max={today}
                onChange={(event) => setCustom({ ...custom, from: event.target.value })}
              />
            </div>
            <div className="analytics-field">
              <label htmlFor={`${pickerId}-to`}>{w.to}</label>
              <input
                id={`${pickerId}-to`}
                type="date"
                value={custom.to}
                onChange={(event) => setCustom({ ...custom, to: event.target.value })}
              />
            </div>
          </>
        ) : null}
      </form>
      {span ? null : <p role="alert">{w.invalidSpan}</p>}
      {problem ? <p role="alert">{problem}</p> : null}
      {!report ? (
        <p role="status">{w.loading}</p>
      ) : (
        <>
          <section className="console-card" aria-labelledby={`${pickerId}-totals`}>
            <h2 id={`${pickerId}-totals`}>{w.totals}</h2>
            <dl className="analytics-totals">
              {(
                [
                  [w.visits, numbers.format(report.totals.visits)],
                  [w.firstTime, numbers.format(report.totals.firstTime)],
                  [w.returning, numbers.format(report.totals.returning)],
                  [w.averageStay, stay(report.totals.averageStaySeconds)],
                  [w.expected, numbers.format(report.totals.expected)],
                  [w.noShows, numbers.format(report.totals.noShows)],
                ] as const
              ).map(([term, value]) => (
                <div key={term}>
                  <dt>{term}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            {report.totals.visits === 0 ? <p>{w.none}</p> : null}
          </section>
          {charts.map((chart) => (
            <ChartFigure key={chart.id} chart={chart} lang={lang} onDownload={() => void download(chart.id)} />
          ))}
        </>
      )}
    </div>
  );
}

function ChartFigure(props: { chart: ChartSpec; lang: string; onDownload: () => void }) {
  const w = useWords(analyticsWords);
  const { chart } = props;
  const titleId = useId();
  const numbers = new Intl.NumberFormat(props.lang, { maximumFractionDigits: 1 });
  const shown = (cell: Cell) => (typeof cell === 'number' ? numbers.format(cell) : cell);
  return (
    <section className="console-card analytics-figure" aria-labelledby={titleId} data-chart={chart.id}>
      <h2 id={titleId}>{chart.title}</h2>
      <p className="sr-only">{w.chartOf(chart.title)}</p>
      <Chart kind={chart.kind} x={chart.x} series={chart.series} lang={props.lang} />
      {chart.series.length > 1 ? (
        <ul className="analytics-legend">
          {chart.series.map((series, i) => (
            <li key={series.label}>
              <span className={`analytics-swatch analytics-swatch-${(i % chartColours) + 1}`} aria-hidden="true" />
              {series.label}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="analytics-numbers">
        <summary>{w.numbers}</summary>
        <table className="console-table">
          <caption className="sr-only">{chart.title}</caption>
          <thead>
            <tr>
              {chart.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {chart.rows.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's place is its identity (days, ranks)
              <tr key={r}>
                {row.map((cell, c) =>
                  c === 0 ? (
                    <th key={chart.columns[c]} scope="row" data-label={chart.columns[c]}>
                      {shown(cell)}
                    </th>
                  ) : (
                    <td key={chart.columns[c]} data-label={chart.columns[c]}>
                      {shown(cell)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <button type="button" className="btn btn-small" aria-label={w.downloadOf(chart.title)} onClick={props.onDownload}>
        {w.download}
      </button>
    </section>
  );
}

type W = (typeof analyticsWords)['en'];

/** Every chart of the report, with its table in the page's language. */
function chartsOf(report: Report, top: TopHosts | undefined, w: W, lang: string): ChartSpec[] {
  const dayFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const dayName = (day: string) => dayFormat.format(Date.parse(`${day}T00:00:00Z`));
  const days = report.days.map((d) => d.day);
  const daily = (
    id: string,
    title: string,
    kind: 'bars' | 'lines',
    series: { label: string; values: (number | null)[] }[],
  ): ChartSpec => ({
    id,
    title,
    kind,
    x: { days },
    series,
    columns: [w.day, ...series.map((s) => s.label)],
    rows: days.map((day, i) => [dayName(day), ...series.map((s) => s.values[i] ?? '')]),
  });
  const ranked = (
    id: string,
    title: string,
    column: string,
    rows: TopHosts['hosts'],
    unnamed: (id: string | null) => string,
  ): ChartSpec => {
    const names = rows.map((row) => row.name ?? unnamed(row.id));
    return {
      id,
      title,
      kind: 'bars',
      x: { categories: names },
      series: [{ label: w.visits, values: rows.map((row) => row.visits) }],
      columns: [column, w.visits],
      rows: rows.map((row, i) => [names[i] ?? '', row.visits]),
    };
  };
  const weekdayFormat = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' });
  // 2024-01-01 was a Monday: the report's weekdays are Monday first.
  const weekdays = report.peakHours.map((_, i) => weekdayFormat.format(Date.UTC(2024, 0, 1 + i)));
  const hours = Array.from({ length: 24 }, (_, hour) => `${String(hour).padStart(2, '0')}:00`);
  return [
    daily('days', w.perDay, 'bars', [{ label: w.visits, values: report.days.map((d) => d.visits) }]),
    {
      id: 'weeks',
      title: w.perWeek,
      kind: 'bars',
      x: { days: report.weeks.map((week) => week.week) },
      series: [{ label: w.visits, values: report.weeks.map((week) => week.visits) }],
      columns: [w.week, w.daysInSpan, w.visits],
      rows: report.weeks.map((week) => [dayName(week.week), week.days, week.visits]),
    },
    daily('visitors', w.visitors, 'lines', [
      { label: w.firstTime, values: report.days.map((d) => d.firstTime) },
      { label: w.returning, values: report.days.map((d) => d.returning) },
    ]),
    daily('stay', w.stay, 'lines', [
      {
        label: w.minutes,
        values: report.days.map((d) =>
          d.averageStaySeconds === null ? null : Math.round(d.averageStaySeconds / 6) / 10,
        ),
      },
    ]),
    daily('noShows', w.noShowsPerDay, 'lines', [
      { label: w.expected, values: report.days.map((d) => d.expected) },
      { label: w.noShows, values: report.days.map((d) => d.noShows) },
    ]),
    ranked('visitorTypes', w.visitorTypes, w.visitorType, report.visitorTypes, (id) =>
      id === null ? w.noType : w.unnamed,
    ),
    ...(top ? [ranked('hosts', w.hosts, w.host, top.hosts, () => w.unnamed)] : []),
    ranked('kiosks', w.kiosks, w.kiosk, report.kiosks, (id) => (id === null ? w.elsewhere : w.unnamed)),
    {
      id: 'peakHours',
      title: w.peakHours,
      kind: 'lines',
      x: { categories: hours },
      series: report.peakHours.map((visits, i) => ({ label: weekdays[i] ?? '', values: visits })),
      columns: [w.weekday, ...hours],
      rows: report.peakHours.map((visits, i) => [weekdays[i] ?? '', ...visits]),
    },
  ];
}
