import { basename } from 'node:path';
import { updateCompany } from '../companies/store.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { decodePicture, inTransactionWithFiles, readStoredFile, type StoredFile } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import { prepared } from '../store/rows.ts';

/**
 * A company's logo, uploaded through the service and served by it: the kiosk's page (whose CSP allows only its own
 * origin) can show it, and it works offline. The company's `pictureUrl` then names it as `/v1/logo/<file>`; a
 * logo is the company's public face, shown to anyone in the lobby, so it is served without a key.
 */
export const logoPath = (path: string) => `/v1/logo/${basename(path)}`;

const logoName = /^\/v1\/logo\/([0-9a-f]{32}\.(?:jpg|png))$/;

/** The stored file a `pictureUrl` names, when it is an uploaded logo. */
function uploadedLogo(pictureUrl: unknown): string | undefined {
  const name = typeof pictureUrl === 'string' ? logoName.exec(pictureUrl)?.[1] : undefined;
  return name;
}

function currentPictureUrl(ctx: Context, caller: Caller): unknown {
  return (
    prepared(ctx.db, 'SELECT pictureUrl FROM companies WHERE id = ?').get(caller.companyId) as
      | { pictureUrl: unknown }
      | undefined
  )?.pictureUrl;
}

/** Stores a JPEG or PNG as the company's logo, replacing (and deleting) an uploaded one. */
export function saveLogo(ctx: Context, caller: Caller, picture: string) {
  const upload = decodePicture(picture, 'picture', 'company-logo');
  return inTransactionWithFiles(ctx, caller, (files) => {
    files.retire(uploadedLogo(currentPictureUrl(ctx, caller)));
    return updateCompany(ctx, caller, { pictureUrl: logoPath(files.save(upload)) });
  });
}

/** Removes the logo (an uploaded one is deleted); the kiosk shows the company's name instead. */
export function deleteLogo(ctx: Context, caller: Caller) {
  return inTransactionWithFiles(ctx, caller, (files) => {
    files.retire(uploadedLogo(currentPictureUrl(ctx, caller)));
    return updateCompany(ctx, caller, { pictureUrl: null });
  });
}

interface LogoRow {
  companyId: string;
  purpose: 'company-logo';
  mediaType: string;
}

/** A logo file by name; any other file (a visitor's picture) is NOT_FOUND here, whatever its name. */
export function openLogo(ctx: Context, name: string): StoredFile {
  const [, id, extension] = /^([0-9a-f]{32})\.(jpg|png)$/.exec(name) ?? [];
  if (!id) throw new ApiError('NOT_FOUND');
  const row = prepared(
    ctx.db,
    `SELECT companyId, purpose, mediaType FROM files
         WHERE id = ? AND extension = ? AND purpose = 'company-logo' AND deletedAt IS NULL`,
  ).get(id, extension) as LogoRow | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return readStoredFile(ctx, { id, ...row }, name);
}
