import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { rowsByIds } from '../store/rows.ts';

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
export async function hostSummaries(
  ctx: Context,
  caller: Caller,
  ids: Iterable<unknown>,
): Promise<Map<string, HostSummary>> {
  const rows = await rowsByIds<{ id: string; name: string; email: string }>(
    ctx.db,
    'hosts',
    'id, name, email',
    caller.companyId,
    ids,
  );
  return new Map(rows.map((row) => [row.id, { ...row, type: 'host' }]));
}
