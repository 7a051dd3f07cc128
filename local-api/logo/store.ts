import { basename } from 'node:path';
import { updateCompany } from '../companies/store.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { decodePicture, inTransactionWithFiles, readStoredFile, type StoredFile } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import { prepared } from '../store/rows.ts';

/**
 * A company's logo and the kiosk's welcome picture, uploaded through the service and served by it: the kiosk's page
 * (whose CSP allows only its own origin) can show them, and they work offline. The company's `pictureUrl` (or
 * `welcomeImageUrl`) then names one as `/v1/logo/<file>`; both are the company's public face, shown to anyone in
 * the lobby, so they are served without a key.
 */
export const logoPath = (path: string) => `/v1/logo/${basename(path)}`;

const logoName = /^\/v1\/logo\/([0-9a-f]{32}\.(?:jpg|png))$/;

/** The stored file a `pictureUrl` names, when it is an uploaded logo. */
function uploadedLogo(pictureUrl: unknown): string | undefined {
  const name = typeof pictureUrl === 'string' ? logoName.exec(pictureUrl)?.[1] : undefined;
  return name;
}

/** The company's public pictures: the column that names each, and the purpose its file is stored for. */
export const companyPictures = {
  logo: { column: 'pictureUrl', purpose: 'company-logo' },
  welcome: { column: 'welcomeImageUrl', purpose: 'company-welcome' },
} as const;
export type CompanyPicture = keyof typeof companyPictures;

async function currentUrl(ctx: Context, caller: Caller, which: CompanyPicture): Promise<unknown> {
  const { column } = companyPictures[which];
  return (
    (await prepared(ctx.db, `SELECT ${column} AS url FROM companies WHERE id = ?`).get(caller.companyId)) as
      | { url: unknown }
      | undefined
  )?.url;
}

/** Stores a JPEG or PNG as the company's logo or welcome picture, replacing (and deleting) an uploaded one. */
export async function saveLogo(ctx: Context, caller: Caller, picture: string, which: CompanyPicture) {
  const { column, purpose } = companyPictures[which];
  const upload = decodePicture(picture, 'picture', purpose);
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    await files.retire(uploadedLogo(await currentUrl(ctx, caller, which)));
    return await updateCompany(ctx, caller, { [column]: logoPath(await files.save(upload)) });
  });
}

/** Removes the logo or welcome picture (an uploaded one is deleted); the kiosk shows its own look instead. */
export async function deleteLogo(ctx: Context, caller: Caller, which: CompanyPicture) {
  const { column } = companyPictures[which];
  return await inTransactionWithFiles(ctx, caller, async (files) => {
    await files.retire(uploadedLogo(await currentUrl(ctx, caller, which)));
    return await updateCompany(ctx, caller, { [column]: null });
  });
}

interface LogoRow {
  companyId: string;
  purpose: 'company-logo' | 'company-welcome';
  mediaType: string;
}

/** A logo file by name; any other file (a visitor's picture) is NOT_FOUND here, whatever its name. */
export async function openLogo(ctx: Context, name: string): Promise<StoredFile> {
  const [, id, extension] = /^([0-9a-f]{32})\.(jpg|png)$/.exec(name) ?? [];
  if (!id) throw new ApiError('NOT_FOUND');
  const row = (await prepared(
    ctx.db,
    `SELECT companyId, purpose, mediaType FROM files
         WHERE id = ? AND extension = ? AND purpose IN ('company-logo', 'company-welcome') AND deletedAt IS NULL`,
  ).get(id, extension)) as LogoRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return await readStoredFile(ctx, { id, ...row }, name);
}
