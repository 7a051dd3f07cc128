import { rowToObject } from '../store/rows.ts';
import { type HostRow, hostColumns } from './contract.ts';

/** The host object (docs/api.md, "Hosts") of a stored row, its times in the caller's zone. */
export function hostObject(row: HostRow, timeZone: string): Record<string, unknown> {
  // companyId last, beside its alias `company`.
  const object = rowToObject(row, hostColumns, timeZone, ['companyId']);
  object.companyId = row.companyId;
  object.company = row.companyId;
  object.type = 'host';
  return object;
}
