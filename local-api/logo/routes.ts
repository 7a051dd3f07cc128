import { z } from 'zod';
import { companyObjectSchema } from '../companies/schema.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { base64Upload } from '../files/schema.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { deleteLogo, openLogo, saveLogo } from './store.ts';

const tag = 'Company';

export const logoUploadInput = z.object({
  picture: base64Upload('the logo: JPEG or PNG, up to 5 MB').unwrap(),
});

export function logoRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'put',
      path: '/company/logo',
      roles: roles.staff,
      tag,
      summary: "Upload the company's logo; its pictureUrl becomes the logo's address under /v1/logo",
      body: logoUploadInput,
      fieldCodes: { picture: { missing: 'INVALID_PICTURE', invalid: 'INVALID_PICTURE' } },
      response: companyObjectSchema,
      errors: ['INVALID_PICTURE', 'PAYLOAD_TOO_LARGE'],
      handle: ({ caller, body }) => saveLogo(ctx, caller, body.picture),
    }),
    route({
      method: 'delete',
      path: '/company/logo',
      roles: roles.staff,
      tag,
      summary: "Remove the company's logo (an uploaded one is deleted)",
      response: companyObjectSchema,
      errors: [],
      handle: ({ caller }) => deleteLogo(ctx, caller),
    }),
    route({
      method: 'get',
      path: '/logo/:name',
      access: 'public',
      tag,
      summary: "An uploaded logo (no key: it is the company's public face, shown in the lobby)",
      produces: ['image/jpeg', 'image/png'],
      errors: ['NOT_FOUND'],
      handle: ({ res, params }) => {
        const file = openLogo(ctx, String(params.name));
        res
          .status(200)
          .type(file.mediaType)
          .set({ 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
          .send(file.bytes);
        return undefined;
      },
    }),
  ];
}
