import { z } from 'zod';
import { auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { type RouteSpec, route, successSchema } from '../http/routes.ts';
import { credentialCreatedSchema, credentialCreateInput, credentialObjectSchema } from './schema.ts';
import { companyCredentials, credentialObject, credentialRow, insertCredential, revokeCredential } from './store.ts';

const tag = 'Credentials';

/** The company's credentials, the admin's to manage: create (the key shown once), list (never a key), revoke. */
export function credentialRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/credentials',
      tag,
      summary: "The company's credentials, newest first: role, label, prefix, created, last used (never a key)",
      response: z.object({ credentials: z.array(credentialObjectSchema), size: z.number().int() }),
      errors: [],
      handle: async ({ caller }) => {
        const credentials = (await companyCredentials(ctx, caller.companyId)).map((row) =>
          credentialObject(row, caller.timeZone),
        );
        return { credentials, size: credentials.length };
      },
    }),
    route({
      method: 'post',
      path: '/credentials',
      tag,
      summary: 'Create a credential (admin, readonly, kiosk or sync); its key is answered once',
      body: credentialCreateInput,
      response: credentialCreatedSchema,
      errors: ['INVALID_PARAMETER'],
      handle: async ({ caller, body }) =>
        await inTransaction(ctx, async () => {
          const { id, key } = await insertCredential(ctx, { companyId: caller.companyId, ...body });
          await recordAudit(ctx, auditActor(caller), { action: 'key.created', objectType: 'credential', objectId: id });
          return { ...credentialObject(await credentialRow(ctx, caller.companyId, id), caller.timeZone), key };
        }),
    }),
    route({
      method: 'get',
      path: '/credential/:id',
      tag,
      summary: 'Retrieve a credential (never its key)',
      response: credentialObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) =>
        credentialObject(await credentialRow(ctx, caller.companyId, String(params.id)), caller.timeZone),
    }),
    route({
      method: 'delete',
      path: '/credential/:id',
      tag,
      summary: 'Revoke a credential: its next request is refused (401)',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await inTransaction(ctx, async () => {
          const revoked = await revokeCredential(ctx, caller.companyId, String(params.id));
          await recordAudit(ctx, auditActor(caller), {
            action: 'key.revoked',
            objectType: 'credential',
            objectId: revoked.id,
          });
        });
        return { success: true };
      },
    }),
  ];
}
