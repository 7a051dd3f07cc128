import { auditActor, recordRead } from '../audit/store.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { signedLinkQuery } from './schema.ts';
import { openFile } from './store.ts';

export function fileRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/files/:name',
      roles: roles.guestReaders,
      access: 'signedLink',
      tag: 'Files',
      summary: 'Download a visit picture, signed NDA or invitee picture (with the API key, or a signed link)',
      query: signedLinkQuery,
      produces: ['image/jpeg', 'image/png', 'application/pdf'],
      errors: ['NOT_FOUND', 'MISSING_ID', 'LINK_EXPIRED'],
      handle: async ({ req, res, caller, params }) => {
        const file = await openFile(ctx, caller, String(params.name), req.query);
        // A signed link names no credential: the read of the visit or invitee that handed it out is audited too.
        const actor = caller
          ? auditActor(caller)
          : { companyId: file.companyId, credentialId: null, role: 'signedLink' };
        recordRead(ctx, actor, { action: 'file.read', objectType: file.purpose, objectId: file.id });
        res
          .status(200)
          .type(file.mediaType)
          .set({
            'cache-control': 'private, max-age=300',
            'x-content-type-options': 'nosniff',
            'content-disposition': `inline; filename="${params.name}"`,
          })
          .send(file.bytes);
        return undefined;
      },
    }),
  ];
}
