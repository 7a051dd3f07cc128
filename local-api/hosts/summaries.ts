import type { Caller } from '../companies/store.ts';
import type { Context } from '../context.ts';
import { prepared } from '../store/rows.ts';

export interface HostSummary {
  id: string;
  name: string;
  email: string;
  type: 'host';
}

/**
 * The short host objects (id, name, email, type) that visits and invitees embed, fetched in one query for a whole
 * page. Deleted hosts still appear: a visit keeps saying whom it was for.
 */
export function hostSummaries(ctx: Context, caller: Caller, ids: Iterable<unknown>): Map<string, HostSummary> {
  const unique = [...new Set([...ids].filter((id): id is string => typeof id === 'string'))];
  const found = new Map<string, HostSummary>();
  for (let start = 0; start < unique.length; start += 500) {
    const chunk = unique.slice(start, start + 500);
    // Found by primary key; `+companyId` only checks the company (the unary + keeps SQLite from walking the
    // company's index instead, every host of it, which it otherwise prefers for more than one id).
    const rows = prepared(
      ctx.db,
      `SELECT id, name, email FROM hosts WHERE +companyId = ? AND id IN (${chunk.map(() => '?').join(', ')})`,
    ).all(caller.companyId, ...chunk) as { id: string; name: string; email: string }[];
    for (const row of rows) found.set(row.id, { ...row, type: 'host' });
  }
  return found;
}
