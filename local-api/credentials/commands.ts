import { parseArgs } from 'node:util';
import type { Context } from '../context.ts';
import { enrolDevice, setFirstPin } from '../device.ts';
import { ApiError } from '../http/errors.ts';
import { openService } from '../server.ts';
import { syncState } from '../sync/state.ts';
import { issuableRoles } from './schema.ts';
import { companyCredentials, credentialObject, insertCredential, revokeCredential } from './store.ts';

/** How a command reports a usage error (the CLI prints it with the usage and exits). */
export type Fail = (message: string) => never;

export const credentialsUsage = `  portaria owner token --data <dir> [--label <text>]   a device-owner token, for remote administration
  portaria kiosk enrol --data <dir> --company <id>     the company this device's kiosk serves (first PIN printed once)
  portaria keys create --data <dir> --company <id> --role <admin|readonly|kiosk|sync> [--label <text>]
  portaria keys list --data <dir> --company <id>       the company's credentials (never a key)
  portaria keys revoke --data <dir> --company <id> --id <credential id>`;

/** Runs `work` on the data folder (the CLI on the machine acts as the device owner), printing its answer as JSON. */
async function onDataFolder(data: string, work: (ctx: Context) => unknown, fail: Fail): Promise<void> {
  const ctx = openService({ dataDir: data, logLevel: 'warn' });
  try {
    process.stdout.write(`${JSON.stringify(await work(ctx))}\n`);
  } catch (error) {
    if (error instanceof ApiError && error.type === 'NOT_FOUND') fail('no such company or credential here');
    throw error;
  } finally {
    ctx.db.close();
  }
}

/**
 * `portaria owner token`: a device-owner token, printed once (only its hash is kept). Whoever can run the CLI on
 * the data folder is the device owner already; the token lets them act as such over HTTP.
 */
export function ownerTokenCommand(args: string[], fail: Fail): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, label: { type: 'string' } } });
  if (!values.data) fail('owner token needs --data');
  const label = values.label ?? 'Device owner';
  return onDataFolder(
    values.data,
    (ctx) => {
      const { id, key } = insertCredential(ctx, { companyId: null, role: 'owner', label });
      return { id, token: key };
    },
    fail,
  );
}

/**
 * `portaria kiosk enrol`: the device owner chooses the company this device's kiosk serves (a data folder holding
 * several). Its page gets a new kiosk credential; a company without a PIN gets its first one, printed once. A kiosk
 * that follows a hub serves the hub's company and no other.
 */
export function kioskEnrolCommand(args: string[], fail: Fail): Promise<void> {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, company: { type: 'string' } } });
  if (!values.data || !values.company) fail('kiosk enrol needs --data and --company');
  const companyId = values.company;
  return onDataFolder(
    values.data,
    async (ctx) => {
      const followed = syncState(ctx).companyId;
      if (followed !== null && followed !== companyId) fail(`this kiosk follows a hub for company ${followed}`);
      enrolDevice(ctx, companyId);
      const pin = await setFirstPin(ctx, companyId);
      return { companyId, enrolled: true, ...(pin ? { pin } : {}) };
    },
    fail,
  );
}

/** `portaria keys create|list|revoke`: a company's credentials, from the machine itself. */
export function keysCommand(action: string, args: string[], fail: Fail): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      data: { type: 'string' },
      company: { type: 'string' },
      role: { type: 'string' },
      label: { type: 'string' },
      id: { type: 'string' },
    },
  });
  if (!values.data || !values.company) fail(`keys ${action} needs --data and --company`);
  const companyId = values.company;
  const listed = (ctx: Context) => companyCredentials(ctx, companyId).map((row) => credentialObject(row, 'UTC'));
  if (action === 'list') {
    return onDataFolder(
      values.data,
      (ctx) => {
        if (!ctx.db.prepare('SELECT 1 FROM companies WHERE id = ?').get(companyId)) throw new ApiError('NOT_FOUND');
        return { credentials: listed(ctx) };
      },
      fail,
    );
  }
  if (action === 'create') {
    const role = issuableRoles.find((r) => r === values.role);
    if (!role) fail(`--role must be one of ${issuableRoles.join(', ')}`);
    const label = values.label ?? `${role} key`;
    return onDataFolder(
      values.data,
      (ctx) => {
        if (!ctx.db.prepare('SELECT 1 FROM companies WHERE id = ?').get(companyId)) throw new ApiError('NOT_FOUND');
        const { id, key } = insertCredential(ctx, { companyId, role, label });
        return { ...listed(ctx).find((c) => c.id === id), key };
      },
      fail,
    );
  }
  if (action === 'revoke') {
    const id = values.id;
    if (!id) fail('keys revoke needs --id');
    return onDataFolder(values.data, (ctx) => credentialObject(revokeCredential(ctx, companyId, id), 'UTC'), fail);
  }
  return fail(`unknown keys command: ${action}`);
}
