import {
  credentialObject,
  insertCredential,
  ownerTokens,
  revokeOwnerToken,
} from '../../local-api/credentials/store.ts';
import { command } from './command.ts';
import { databaseOption, dataOption } from './inputs.ts';
import { onDataFolder } from './kiosk.ts';

/** An owner token as `portaria owner list` lists it, as company credentials are (times in UTC): never the key. */
const listed = (row: Awaited<ReturnType<typeof ownerTokens>>[number]) => credentialObject(row, 'UTC');

/**
 * `portaria owner token`: a device-owner token, printed once (only its hash is kept). Whoever can run the command
 * line on the data folder is the device owner already; the token lets them act as such over HTTP.
 */
export const ownerToken = command({
  name: 'owner token',
  summary: 'A device-owner token for remote administration, printed once as JSON (only its hash is kept).',
  options: {
    data: dataOption,
    database: databaseOption,
    label: { type: 'string', value: '<text>', help: 'what the token is for (default: Device owner)' },
  },
  run: (values) =>
    onDataFolder(values, async (ctx) => {
      const { id, key } = await insertCredential(ctx, {
        companyId: null,
        role: 'owner',
        label: values.label ?? 'Device owner',
      });
      return { id, token: key };
    }),
});

export const ownerTokensList = command({
  name: 'owner list',
  summary: 'Lists the device-owner tokens as JSON (label, prefix, created, last used, revoked; never the token).',
  options: { data: dataOption, database: databaseOption },
  run: (values) => onDataFolder(values, async (ctx) => ({ tokens: (await ownerTokens(ctx)).map(listed) })),
});

export const ownerRevoke = command({
  name: 'owner revoke',
  summary: 'Revokes a device-owner token: its next request is refused, also while the service runs.',
  options: {
    data: dataOption,
    database: databaseOption,
    id: { type: 'string', value: '<id>', help: "the token's id (see portaria owner list)", required: true },
  },
  run: (values) =>
    onDataFolder(
      values,
      async (ctx) => listed(await revokeOwnerToken(ctx, values.id)),
      'no such device-owner token in this data folder (see portaria owner list)',
    ),
});
