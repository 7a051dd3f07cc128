/**
 * How a resource's columns are stored, where that differs from plain text or numbers. Apart from store/rows.ts,
 * which converts by it, so that schemas (which the kiosk page imports) need nothing of the database.
 */
export interface ColumnKinds {
  booleans: readonly string[];
  json: readonly string[];
  times: readonly string[];
}
