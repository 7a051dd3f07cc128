import { secretMask } from '../companies/schema.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { requireAllowedDestination } from '../outgoing/policy.ts';
import { formatInZone } from '../rules/time.ts';
import { insertRow, objectToRow, prepared } from '../store/rows.ts';
import { type AccessConfigInput, accessConfigSecrets } from './schema.ts';

export interface AccessConfig {
  enabled: boolean;
  aesKey: string;
  qrcodeDuration: number;
  url: string;
  username: string;
  password: string;
  totpEnabled: boolean;
  staticVisitorQRCode: boolean;
  createdAt: number;
  updatedAt: number;
}

const booleans = ['enabled', 'totpEnabled', 'staticVisitorQRCode'] as const;
const columnKinds = { booleans, json: [], times: [] };

/** The company's configuration with its secrets opened, or undefined when none was ever saved. */
export async function findAccessConfig(ctx: Context, companyId: string): Promise<AccessConfig | undefined> {
  const row = (await prepared(ctx.db, 'SELECT * FROM access_configs WHERE companyId = ?').get(companyId)) as
    | Record<string, unknown>
    | undefined;
  if (!row) return undefined;
  const config = { ...row } as Record<string, unknown>;
  for (const key of booleans) config[key] = row[key] === 1;
  for (const key of accessConfigSecrets) config[key] = ctx.secrets.open(String(row[key]));
  delete config.companyId;
  return config as unknown as AccessConfig;
}

/**
 * The configuration as the API answers it. Its secrets are the admin's to read: any other role sees them masked
 * (write-only: a form that sends the mask back keeps them, see `saveAccessConfig`).
 */
export function accessConfigObject(config: AccessConfig, caller: Caller) {
  const masked =
    caller.role === 'admin' ? {} : Object.fromEntries(accessConfigSecrets.map((k) => [k, config[k] ? secretMask : '']));
  return {
    ...config,
    ...masked,
    createdAt: formatInZone(config.createdAt, caller.timeZone),
    updatedAt: formatInZone(config.updatedAt, caller.timeZone),
  };
}

export async function getAccessConfig(ctx: Context, caller: Caller): Promise<AccessConfig> {
  const config = await findAccessConfig(ctx, caller.companyId);
  if (!config) throw new ApiError('NOT_FOUND');
  return config;
}

/** A partial upsert; the gate's address is judged by the device's destination policy as it is saved. */
export async function saveAccessConfig(ctx: Context, caller: Caller, input: AccessConfigInput): Promise<AccessConfig> {
  if (input.url) await requireAllowedDestination(ctx, 'url', { url: input.url });
  const sealed: Record<string, unknown> = { ...input };
  for (const key of accessConfigSecrets) {
    const value = input[key];
    if (value === secretMask) delete sealed[key];
    else if (value !== undefined) sealed[key] = ctx.secrets.seal(value);
  }
  const row = objectToRow(sealed, columnKinds);
  const now = ctx.clock.now();
  return await inTransaction(ctx, async () => {
    await ctx.events.decide('access.updated', caller);
    if (await findAccessConfig(ctx, caller.companyId)) {
      await updateConfigRow(ctx, caller.companyId, { ...row, updatedAt: now });
    } else {
      await insertRow(ctx.db, 'access_configs', {
        ...row,
        companyId: caller.companyId,
        createdAt: now,
        updatedAt: now,
      });
    }
    const config = await getAccessConfig(ctx, caller);
    await ctx.events.publish('access.updated', caller, () => publicAccessConfig(config, caller));
    return config;
  });
}

/** The configuration as events carry it: listeners (webhooks, the audit log) never see its secrets. */
function publicAccessConfig(config: AccessConfig, caller: Caller): Record<string, unknown> {
  const shown: Record<string, unknown> = { type: 'accessConfig', ...accessConfigObject(config, caller) };
  for (const key of accessConfigSecrets) delete shown[key];
  return shown;
}

async function updateConfigRow(ctx: Context, companyId: string, row: Record<string, unknown>): Promise<void> {
  const columns = Object.keys(row);
  await prepared(
    ctx.db,
    `UPDATE access_configs SET ${columns.map((c) => `${c} = :${c}`).join(', ')} WHERE companyId = :companyId`,
  ).run({ ...row, companyId });
}

export async function deleteAccessConfig(ctx: Context, caller: Caller): Promise<void> {
  await inTransaction(ctx, async () => {
    await ctx.events.decide('access.deleted', caller);
    const deleted = (await prepared(ctx.db, 'DELETE FROM access_configs WHERE companyId = ?').run(caller.companyId))
      .changes;
    if (deleted > 0) await ctx.events.publish('access.deleted', caller, () => ({ type: 'accessConfig' }));
  });
}
