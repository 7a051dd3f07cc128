import { insertCredential } from '../../local-api/credentials/store.ts';
import { openService } from '../../local-api/server.ts';
import { command } from './command.ts';
import { dataFolder } from './inputs.ts';

/**
 * `portaria owner token`: a device-owner token, printed once (only its hash is kept). Whoever can run the command
 * line on the data folder is the device owner already; the token lets them act as such over HTTP.
 */
export const ownerToken = command({
  name: 'owner token',
  summary: 'A device-owner token for remote administration, printed once as JSON (only its hash is kept).',
  options: {
    data: { type: 'string', value: '<dir>', help: 'the data folder', required: true },
    label: { type: 'string', value: '<text>', help: 'what the token is for (default: Device owner)' },
  },
  run(values) {
    const ctx = openService({ dataDir: dataFolder(values.data), logLevel: 'warn' });
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
  },
});
