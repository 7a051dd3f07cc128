import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCompany } from './companies/store.ts';
import type { Context } from './context.ts';
import { createFileDurably } from './store/durable-file.ts';

export interface DeviceCredential {
  companyId: string;
  apiKey: string;
}

/**
 * The kiosk's own credential: the key its screens use to call the service. Kept in `<data>/device.json`, its
 * key sealed with the device key. On a first start a company is created for it, so the kiosk can be tried at once.
 */
export function deviceCredential(
  ctx: Context,
  companyName: string,
): { credential: DeviceCredential; created: boolean } {
  const file = join(ctx.dataDir, 'device.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { companyId: string; apiKey: string };
    return { credential: { companyId: stored.companyId, apiKey: ctx.secrets.open(stored.apiKey) }, created: false };
  }
  const company = createCompany(ctx, { name: companyName });
  const credential = { companyId: company.id, apiKey: company.apiKey };
  createFileDurably(file, JSON.stringify({ companyId: company.id, apiKey: ctx.secrets.seal(company.apiKey) }));
  return { credential, created: true };
}
