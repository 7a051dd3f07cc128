import { deviceOwnerActor, recordAudit } from '../../local-api/audit/store.ts';
import type { Context } from '../../local-api/context.ts';
import { inTransaction } from '../../local-api/context.ts';
import { issuableRoles } from '../../local-api/credentials/schema.ts';
import {
  companyCredentials,
  credentialObject,
  insertCredential,
  revokeCredential,
} from '../../local-api/credentials/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { command, UsageError } from './command.ts';
import { companyOption, databaseOption, dataOption } from './inputs.ts';
import { onDataFolder } from './kiosk.ts';

async function requireCompany(ctx: Context, companyId: string): Promise<void> {
  if (!(await ctx.db.prepare('SELECT 1 FROM companies WHERE id = ? AND deletedAt IS NULL').get(companyId))) {
    throw new ApiError('NOT_FOUND');
  }
}

/** A company's credentials as `GET /v1/credentials` lists them (times in UTC): never a key. */
const listed = async (ctx: Context, companyId: string) =>
  (await companyCredentials(ctx, companyId)).map((row) => credentialObject(row, 'UTC'));

export const keysCreate = command({
  name: 'keys create',
  summary: "Creates a company's credential and prints it with its key, once, as JSON.",
  options: {
    data: dataOption,
    database: databaseOption,
    company: companyOption,
    role: { type: 'string', value: `<${issuableRoles.join('|')}>`, help: 'what it may do', required: true },
    label: { type: 'string', value: '<text>', help: 'what it is for (default: "<role> key")' },
  },
  run(values) {
    const role = issuableRoles.find((r) => r === values.role);
    if (!role) throw new UsageError(`--role ${values.role} is not a role to issue: give ${issuableRoles.join(', ')}`);
    return onDataFolder(values, async (ctx) => {
      await requireCompany(ctx, values.company);
      const { id, key } = await inTransaction(ctx, async () => {
        const made = await insertCredential(ctx, {
          companyId: values.company,
          role,
          label: values.label ?? `${role} key`,
        });
        const fact = { action: 'key.created', objectType: 'credential', objectId: made.id };
        await recordAudit(ctx, deviceOwnerActor(values.company), fact);
        return made;
      });
      return { ...(await listed(ctx, values.company)).find((c) => c.id === id), key };
    });
  },
});

export const keysList = command({
  name: 'keys list',
  summary: "Lists a company's credentials (role, label, prefix, created, last used; never a key), as JSON.",
  options: { data: dataOption, database: databaseOption, company: companyOption },
  run: (values) =>
    onDataFolder(values, async (ctx) => {
      await requireCompany(ctx, values.company);
      return { credentials: await listed(ctx, values.company) };
    }),
});

export const keysRevoke = command({
  name: 'keys revoke',
  summary: "Revokes a company's credential: its next request is refused, also while the service runs.",
  options: {
    data: dataOption,
    database: databaseOption,
    company: companyOption,
    id: { type: 'string', value: '<id>', help: "the credential's id", required: true },
  },
  run: (values) =>
    onDataFolder(
      values,
      async (ctx) =>
        await inTransaction(ctx, async () => {
          const revoked = await revokeCredential(ctx, values.company, values.id);
          const fact = { action: 'key.revoked', objectType: 'credential', objectId: revoked.id };
          await recordAudit(ctx, deviceOwnerActor(values.company), fact);
          return credentialObject(revoked, 'UTC');
        }),
    ),
});
