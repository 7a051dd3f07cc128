/** The run's figures as one table (terminal and Markdown), the section of docs/benchmarks.md, and one JSON line. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Row {
  measure: string;
  portaria: string;
  reference: string;
  ratio?: number;
  /** The target the ratio must meet, and whether it did. */
  target?: { text: string; met: boolean };
}

export interface Section {
  title: string;
  rows: Row[];
}

export const targets = {
  atLeast: (ratio: number, minimum: number) => ({ text: `≥ ${minimum}`, met: ratio >= minimum }),
  atMost: (ratio: number, maximum: number) => ({ text: `≤ ${maximum}`, met: ratio <= maximum }),
};

/** Numbers as the table shows them: whole above 100, two significant decimals below. */
export function shown(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

const headers = ['Measure', 'Portaria', 'Reference', 'Ratio', 'Target'];

function cells(row: Row): string[] {
  const verdict = row.target ? `${row.target.text} ${row.target.met ? 'met' : 'MISSED'}` : '';
  return [row.measure, row.portaria, row.reference, row.ratio === undefined ? '' : shown(row.ratio), verdict];
}

/** The table for the terminal: one header, each section's title as a separator line. */
export function terminalTable(sections: Section[]): string {
  const all = sections.flatMap((s) => s.rows.map(cells));
  const widths = headers.map((h, i) => Math.max(h.length, ...all.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) => c.map((text, i) => text.padEnd(widths[i] ?? 0)).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  const out = [line(headers), rule];
  for (const section of sections) {
    out.push(`── ${section.title} `.padEnd(rule.length, '─'));
    for (const row of section.rows) out.push(line(cells(row)));
  }
  return out.join('\n');
}

export function markdownTable(sections: Section[]): string {
  const escaped = (text: string) => text.replaceAll('|', '\\|');
  const out = [`| ${headers.join(' | ')} |`, `|${headers.map(() => ' --- ').join('|')}|`];
  for (const section of sections) {
    out.push(`| **${escaped(section.title)}** | | | | |`);
    for (const row of section.rows) out.push(`| ${cells(row).map(escaped).join(' | ')} |`);
  }
  return out.join('\n');
}

export const markers = { start: '<!-- bench:start -->', end: '<!-- bench:end -->' };

/**
 * Writes the generated part between the markers of docs/benchmarks.md, leaving every other section as it is.
 * Without markers yet, the part goes right under the document's title, under its own heading.
 */
export function writeGeneratedSection(file: string, heading: string, generated: string): void {
  const block = `${markers.start}\n${generated.trim()}\n${markers.end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(markers.start);
  const end = current.indexOf(markers.end);
  let next: string;
  if (start >= 0 && end > start) {
    next = current.slice(0, start) + block + current.slice(end + markers.end.length);
  } else {
    const title = /^# .*\n/.exec(current);
    const at = title ? title[0].length : 0;
    next = `${current.slice(0, at)}\n${heading}\n\n${block}\n\n${current.slice(at).replace(/^\n+/, '')}`;
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}
