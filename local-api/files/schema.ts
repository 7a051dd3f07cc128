import { z } from 'zod';

export const pictureMaxBytes = 5 * 1024 * 1024;
export const ndaMaxBytes = 10 * 1024 * 1024;

/** Binary uploads (`PUT /v1/visit/:id/picture`…): the file sent as itself, in one of its media types. */
export const pictureUpload = { mediaTypes: ['image/jpeg', 'image/png'], maxBytes: pictureMaxBytes } as const;
export const ndaUpload = { mediaTypes: ['application/pdf'], maxBytes: ndaMaxBytes } as const;

/** A Base64 upload (plain or as a `data:` URL); its bytes are checked by the store, which knows the limits. */
export const base64Upload = (what: string) =>
  z.string().describe(`${what}, Base64 (a data: URL prefix is accepted)`).nullable();

/** The query of a signed file link. */
export const signedLinkQuery = z.object({
  expires: z.string().optional().describe('signed links: Unix seconds after which the link no longer works'),
  signature: z.string().optional().describe('signed links: the signature of the file name and expiry'),
});

/** What one file's fields look like on an object that carries it (`pictureUrl` with `pictureSignedUrl`…). */
export const fileUrl = () => z.string().nullable().describe('path under the service, opened with the API key');
export const signedFileUrl = () =>
  z.string().nullable().describe('the same path with a signature that opens it without the key for a few minutes');
