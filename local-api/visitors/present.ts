import { rowToObject } from '../store/rows.ts';
import { type VisitorRow, visitorColumns } from './contract.ts';

/** Stored columns the visitor object does not show: the company, and the keys the person is recognized by. */
const hiddenVisitorColumns = ['companyId', 'emailKey', 'cpfKey', 'documentKey', 'phoneKey', 'phoneTail'];

/** The visitor object (docs/api.md, "Visitors") of a stored row, its times in the caller's zone. */
export function visitorObject(row: VisitorRow, timeZone: string): Record<string, unknown> {
  return { ...rowToObject(row, visitorColumns, timeZone, hiddenVisitorColumns), type: 'visitor' };
}
