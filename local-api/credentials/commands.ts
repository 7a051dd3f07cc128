import { parseArgs } from 'node:util';
import { openService } from '../server.ts';
import { insertCredential } from './store.ts';

/** How a command reports a usage error (the CLI prints it with the usage and exits). */
export type Fail = (message: string) => never;

export const credentialsUsage = `  portaria owner token --data <dir> [--label <text>]   a device-owner token, for remote administration`;

/**
 * `portaria owner token`: a device-owner token, printed once (only its hash is kept). Whoever can run the CLI on
 * the data folder is the device owner already; the token lets them act as such over HTTP.
 */
export function ownerTokenCommand(args: string[], fail: Fail): void {
  const { values } = parseArgs({ args, options: { data: { type: 'string' }, label: { type: 'string' } } });
  if (!values.data) fail('owner token needs --data');
  const ctx = openService({ dataDir: values.data, logLevel: 'warn' });
  try {
    const { id, key } = insertCredential(ctx, {
      companyId: null,
      role: 'owner',
      label: values.label ?? 'Device owner',
    });
    process.stdout.write(`${JSON.stringify({ id, token: key })}\n`);
  } finally {
    ctx.db.close();
  }
}
