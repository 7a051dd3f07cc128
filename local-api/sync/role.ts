import { type Context, memoised } from '../context.ts';
import { prepared } from '../store/rows.ts';
import type { SyncState } from './state.ts';

export type SyncRole = Pick<SyncState, 'upstreamUrl' | 'companyId'>;

/** Whether this service is a kiosk of the company's hub: it follows an upstream for that company. */
export const isKioskOf = (state: SyncRole, companyId: string) =>
  state.upstreamUrl !== null && state.companyId === companyId;

/** Whether this service follows a hub, and for which company: read once per batch of a push (`withMemo`). */
export const syncRole = (ctx: Pick<Context, 'db' | 'runtime'>): Promise<SyncRole> =>
  memoised(
    ctx,
    'sync.role',
    async () =>
      (await prepared(ctx.db, 'SELECT upstreamUrl, companyId FROM sync_state WHERE id = 1').get()) as SyncRole,
  );

/** Whether the company's data is its hub's here: this service is a kiosk of it. */
export const isKioskOfCompany = async (ctx: Pick<Context, 'db' | 'runtime'>, companyId: string) =>
  isKioskOf(await syncRole(ctx), companyId);
