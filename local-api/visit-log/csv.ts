/*
 * CSV as spreadsheets open it (RFC 4180, CRLF lines, every cell quoted) and safe to open: a cell that a spreadsheet
 * would read as a formula (it starts with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, so a
 * visitor named `=HYPERLINK(…)` is shown as text and never run (OWASP, "CSV injection").
 */

const formulaStart = /^[=+\-@\t\r]/;

/** One cell: formula starts defused, quotes doubled, the whole cell quoted. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = formulaStart.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export const csvLine = (cells: readonly (string | number | boolean | null | undefined)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
