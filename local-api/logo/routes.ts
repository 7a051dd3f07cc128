import { z } from 'zod';
import { companyObjectSchema } from '../companies/schema.ts';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { base64Upload } from '../files/schema.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { type CompanyPicture, companyPictures, deleteLogo, openLogo, saveLogo } from './store.ts';

const tag = 'Company';

export const logoUploadInput = z.object({
  picture: base64Upload('the logo: JPEG or PNG, up to 5 MB').unwrap(),
});

/** Where each of the company's public pictures is uploaded, and what it is called in the summaries. */
const picturePaths: Readonly<Record<CompanyPicture, { path: string; what: string }>> = {
  logo: { path: '/company/logo', what: "the company's logo" },
  welcome: { path: '/company/welcome', what: "the kiosk's welcome picture" },
};

/** PUT (upload) and DELETE of one of the company's public pictures. */
function pictureRoutes(ctx: Context, which: CompanyPicture): RouteSpec[] {
  const { path, what } = picturePaths[which];
  return [
    route({
      method: 'put',
      path,
      roles: roles.staff,
      tag,
      summary: `Upload ${what}; its ${companyPictures[which].column} becomes the picture's address under /v1/logo`,
      body: logoUploadInput,
      fieldCodes: { picture: { missing: 'INVALID_PICTURE', invalid: 'INVALID_PICTURE' } },
      response: companyObjectSchema,
      errors: ['INVALID_PICTURE', 'PAYLOAD_TOO_LARGE'],
      handle: async ({ caller, body }) => await saveLogo(ctx, caller, body.picture, which),
    }),
    route({
      method: 'delete',
      path,
      roles: roles.staff,
      tag,
      summary: `Remove ${what} (an uploaded one is deleted)`,
      response: companyObjectSchema,
      errors: [],
      handle: async ({ caller }) => await deleteLogo(ctx, caller, which),
    }),
  ];
}

export function logoRoutes(ctx: Context): RouteSpec[] {
  return [
    ...pictureRoutes(ctx, 'logo'),
    ...pictureRoutes(ctx, 'welcome'),
    route({
      method: 'get',
      path: '/logo/:name',
      access: 'public',
      tag,
      summary: "An uploaded logo or welcome picture (no key: it is the company's public face, shown in the lobby)",
      produces: ['image/jpeg', 'image/png'],
      errors: ['NOT_FOUND'],
      handle: async ({ res, params }) => {
        const file = await openLogo(ctx, String(params.name));
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
