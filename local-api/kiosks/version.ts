import type { Context } from '../context.ts';

/** The service's own version (`ServiceOptions.appVersion`): a kiosk reports it to its hub, the Kiosks page shows it. */
export const appVersionOf = (ctx: Pick<Context, 'runtime'>): string | undefined =>
  ctx.runtime.parts.get('service.appVersion') as string | undefined;

export function setAppVersion(ctx: Pick<Context, 'runtime'>, version: string | undefined): void {
  if (version !== undefined) ctx.runtime.parts.set('service.appVersion', version);
}
