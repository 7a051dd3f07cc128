import { type Context, runtimePart } from '../context.ts';
import { prepared } from '../store/rows.ts';
import { isKioskOfCompany } from '../sync/role.ts';

/** This service's own public address (`portaria serve --public-url`), as the runtime keeps it. */
const ownAddress = (ctx: Pick<Context, 'runtime'>) =>
  runtimePart<{ url: string | undefined }>(ctx, 'public.address', () => ({ url: undefined }));

/**
 * Sets the address people outside reach this service at (`--public-url`: the hub's, or a kiosk's on the company's
 * network), without a trailing slash. Not stored: it belongs to how the service is deployed.
 */
export function setPublicAddress(ctx: Pick<Context, 'runtime'>, url: string | undefined): void {
  ownAddress(ctx).url = url?.replace(/\/+$/, '');
}

/** This service's own public address, if it was given one; a hub tells its kiosks with each page of its feed. */
export const ownPublicAddress = (ctx: Pick<Context, 'runtime'>): string | undefined => ownAddress(ctx).url;

/**
 * Where links in the company's messages point: this service's own public address, else, on a kiosk of the
 * company's hub, the hub's (as its feed last said). Undefined when neither exists: messages then carry no link,
 * and the kiosk asks at the desk what a link would have asked before.
 */
export async function publicAddress(
  ctx: Pick<Context, 'db' | 'runtime'>,
  companyId: string,
): Promise<string | undefined> {
  const own = ownPublicAddress(ctx);
  if (own !== undefined) return own;
  if (!(await isKioskOfCompany(ctx, companyId))) return undefined;
  return await hubPublicAddress(ctx);
}

/** The public address of the hub this kiosk follows, as its feed last said; undefined when it said none. */
export async function hubPublicAddress(ctx: Pick<Context, 'db'>): Promise<string | undefined> {
  const row = (await prepared(ctx.db, 'SELECT hubPublicUrl FROM sync_state WHERE id = 1').get()) as
    | { hubPublicUrl: string | null }
    | undefined;
  return row?.hubPublicUrl ?? undefined;
}
