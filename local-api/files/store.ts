import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { type Context, inTransaction } from '../context.ts';
import { type Caller, readsGuestsOf } from '../credentials/caller.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { newRecordId } from '../rules/ids.ts';
import { prepared } from '../store/rows.ts';
import { deleteQueuedFiles, eraseFileBytes, readFileBytes, writeFileBytes } from './bytes.ts';
import { ndaMaxBytes, pictureMaxBytes } from './schema.ts';

export type FilePurpose = 'visit-picture' | 'visit-nda' | 'invitee-picture' | 'company-logo' | 'company-welcome';

/** A decoded, checked upload, not yet written. */
export interface Upload {
  purpose: FilePurpose;
  bytes: Buffer;
  mediaType: 'image/jpeg' | 'image/png' | 'application/pdf';
  extension: 'jpg' | 'png' | 'pdf';
}

const dataUrlPrefix = /^data:[\w.+/-]+;base64,/;

/** Base64 text into bytes, refusing what is not Base64 and, before decoding, what would exceed the limit. */
function decodeBase64(text: string, field: string, maxBytes: number, invalid: ErrorCode): Buffer {
  const body = text.replace(dataUrlPrefix, '').replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(body) || body.length % 4 === 1) {
    throw new ApiError(invalid, { field });
  }
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  if (Math.floor((body.length * 3) / 4) - padding > maxBytes) {
    throw new ApiError('PAYLOAD_TOO_LARGE', { field, maxBytes });
  }
  return Buffer.from(body, 'base64');
}

/** A file format's first bytes and the marker its last 1 KiB must hold (so a truncated upload is refused). */
interface Format {
  head: Buffer;
  end: Buffer;
}

const jpeg: Format = { head: Buffer.from([0xff, 0xd8, 0xff]), end: Buffer.from([0xff, 0xd9]) };
const png: Format = { head: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), end: Buffer.from('IEND') };
const pdf: Format = { head: Buffer.from('%PDF-'), end: Buffer.from('%%EOF') };

const isWhole = (bytes: Buffer, format: Format) =>
  bytes.length > format.head.length + format.end.length &&
  bytes.subarray(0, format.head.length).equals(format.head) &&
  bytes.subarray(Math.max(0, bytes.length - 1024)).includes(format.end);

/** A JPEG or PNG picture, recognized by its bytes (whatever a data: URL or a Content-Type claims). */
export function pictureOf(bytes: Buffer, field: string, purpose: FilePurpose): Upload {
  if (isWhole(bytes, jpeg)) return { purpose, bytes, mediaType: 'image/jpeg', extension: 'jpg' };
  if (isWhole(bytes, png)) return { purpose, bytes, mediaType: 'image/png', extension: 'png' };
  throw new ApiError('INVALID_PICTURE', { field });
}

/** A PDF: it starts with `%PDF-` and ends with `%%EOF`, so it is whole. */
export function ndaOf(bytes: Buffer, field: string): Upload {
  if (!isWhole(bytes, pdf)) throw new ApiError('INVALID_NDA', { field });
  return { purpose: 'visit-nda', bytes, mediaType: 'application/pdf', extension: 'pdf' };
}

export const decodePicture = (text: string, field: string, purpose: FilePurpose): Upload =>
  pictureOf(decodeBase64(text, field, pictureMaxBytes, 'INVALID_PICTURE'), field, purpose);

export const decodeNda = (text: string, field: string): Upload =>
  ndaOf(decodeBase64(text, field, ndaMaxBytes, 'INVALID_NDA'), field);

/** A stored file's name: its id and extension (`<32 hex>.jpg`), the last part of its path and of its URL. */
const fileName = /^([0-9a-f]{32})\.(jpg|png|pdf)$/;

/** The id of the stored file a row's path names (`files/<company>/<id>.<ext>`); undefined for anything else. */
export const storedFileId = (path: unknown): string | undefined =>
  typeof path === 'string' ? fileName.exec(basename(path))?.[1] : undefined;

/**
 * Where a file lies, relative to the data folder: what the rows that carry a file hold (`visits.pictureFile`…),
 * so that erasure and retention (privacy/) find the bytes to delete.
 */
const relativePath = (companyId: string, name: string) => `files/${companyId}/${name}`;

/**
 * Forgets the file a row names (`files/<company>/<id>.<ext>`; anything else names no stored file), inside the
 * transaction that stops naming it: its bytes are erased (files/bytes.ts) and its row marked deleted. The row keeps
 * what a signed link to it is checked against (its company, its type) and loses its hash and size: they would
 * identify the picture or document of the person it showed.
 */
export async function forgetFile(
  ctx: Pick<Context, 'db'>,
  companyId: string,
  path: unknown,
  now: number,
): Promise<void> {
  const id = storedFileId(path);
  if (!id) return;
  await eraseFileBytes(ctx, { companyId, name: basename(path as string) }, now);
  await prepared(
    ctx.db,
    `UPDATE files SET deletedAt = COALESCE(deletedAt, ?), size = 0, sha256 = '' WHERE id = ? AND companyId = ?`,
  ).run(now, id, companyId);
}

/** What a write may do with files; used inside the write's transaction. */
export interface FileBatch {
  /** Records the upload and writes its bytes (files/bytes.ts: a committed row never names missing bytes). */
  save(upload: Upload): Promise<string>;
  /** Forgets a file the row no longer carries (`forgetFile`); its bytes are gone once the write has committed. */
  retire(path: string | null | undefined): Promise<void>;
}

/**
 * Runs a write that may save files in one transaction. If the write fails (it rolls back), the bytes it wrote go
 * too, so no file outlives its row. Retired files of the data folder are removed after the outermost transaction
 * has committed.
 */
export async function inTransactionWithFiles<T>(
  ctx: Context,
  caller: Caller,
  work: (files: FileBatch) => Promise<T>,
): Promise<T> {
  const undo: (() => void)[] = [];
  const batch: FileBatch = {
    async save(upload) {
      const id = newRecordId(ctx.random);
      const name = `${id}.${upload.extension}`;
      await prepared(
        ctx.db,
        `INSERT INTO files (id, companyId, createdAt, purpose, mediaType, extension, size, sha256)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        caller.companyId,
        ctx.clock.now(),
        upload.purpose,
        upload.mediaType,
        upload.extension,
        upload.bytes.length,
        createHash('sha256').update(upload.bytes).digest('hex'),
      );
      undo.push(await writeFileBytes(ctx, { companyId: caller.companyId, name }, upload.bytes));
      return relativePath(caller.companyId, name);
    },
    async retire(path) {
      await forgetFile(ctx, caller.companyId, path, ctx.clock.now());
      // Once the outermost transaction has committed: nested in a push's batch, that is the batch's.
      if (path) await ctx.db.afterCommit(() => deleteQueuedFiles(ctx));
    },
  };
  try {
    return await inTransaction(ctx, async () => await work(batch));
  } catch (error) {
    for (const undoWrite of undo) undoWrite();
    throw error;
  }
}

/** Signed links live 10 to 15 minutes: the expiry is rounded up to 5 minutes, so a link is stable for a while. */
const linkLifetimeMs = 10 * 60_000;
const linkStepMs = 5 * 60_000;
/** No link this service signs expires later than this from now: a link claiming more was not made here. */
export const maxLinkLifetimeMs = linkLifetimeMs + linkStepMs;

const linkKeys = new WeakMap<Context['secrets'], Buffer>();

/** The signature binds the file, its expiry and its company: a link opens one company's file, and only until then. */
function linkSignature(ctx: Context, companyId: string, name: string, expires: number): string {
  let key = linkKeys.get(ctx.secrets);
  if (!key) {
    key = ctx.secrets.deriveKey('file-links');
    linkKeys.set(ctx.secrets, key);
  }
  return createHmac('sha256', key).update(`${companyId}\n${name}\n${expires}`).digest('base64url');
}

/** The URL path of a stored file (its path as a row holds it → `/v1/files/<id>.<ext>`). */
export const fileUrlOf = (path: string): string => `/v1/files/${basename(path)}`;

/** The key-protected path of a stored file and its short-lived signed link; nulls when there is no file. */
export function fileUrls(
  ctx: Context,
  path: string | null | undefined,
): { url: string | null; signedUrl: string | null } {
  if (!path) return { url: null, signedUrl: null };
  const name = basename(path);
  const companyId = basename(dirname(path));
  const expires = Math.ceil((ctx.clock.now() + linkLifetimeMs) / linkStepMs) * (linkStepMs / 1000);
  const url = fileUrlOf(path);
  return { url, signedUrl: `${url}?expires=${expires}&signature=${linkSignature(ctx, companyId, name, expires)}` };
}

export interface StoredFile {
  id: string;
  companyId: string;
  purpose: FilePurpose;
  bytes: Buffer;
  mediaType: string;
}

interface FileRow {
  companyId: string;
  deletedAt: number | null;
  purpose: FilePurpose;
  mediaType: string;
  extension: string;
}

/**
 * Whether a signed link is genuine for the file's company and unexpired; one expiring beyond the longest lifetime
 * a link is given was not signed here. An unknown file is checked against a made-up company, so the time taken
 * does not tell which files exist.
 */
function checkLink(
  ctx: Context,
  row: FileRow | undefined,
  name: string,
  link: { expires?: unknown; signature?: unknown },
) {
  const expires = Number(link.expires);
  const presented = Buffer.from(String(link.signature ?? ''));
  const expected = Buffer.from(linkSignature(ctx, row?.companyId ?? '-', name, expires));
  const genuine = presented.length === expected.length && timingSafeEqual(presented, expected);
  if (!row || !Number.isInteger(expires) || !genuine || expires * 1000 > ctx.clock.now() + maxLinkLifetimeMs) {
    throw new ApiError('UNAUTHORIZED');
  }
  if (expires * 1000 < ctx.clock.now()) throw new ApiError('LINK_EXPIRED');
}

const fileSql = 'SELECT companyId, deletedAt, purpose, mediaType, extension FROM files WHERE id = :id';

/**
 * A `host` person's files: the company's pictures, and those of their own live visits and invitees, found by the
 * path their rows keep (docs/security.md, "People's roles").
 */
const guestFileSql = `${fileSql} AND (purpose IN ('company-logo', 'company-welcome')
  OR EXISTS (SELECT 1 FROM visits WHERE companyId = :companyId AND hostId = :hostId AND deletedAt IS NULL
    AND (pictureFile = :path OR ndaFile = :path))
  OR EXISTS (SELECT 1 FROM invitees WHERE companyId = :companyId AND hostId = :hostId AND deletedAt IS NULL
    AND pictureFile = :path))`;

/** The file's row, if the caller may see it: any of its company's, or a `host` person's own (`guestFileSql`). */
async function findFile(ctx: Context, caller: Caller | undefined, id: string, name: string) {
  const hostId = caller && readsGuestsOf(caller);
  if (caller && hostId !== undefined) {
    const path = relativePath(caller.companyId, name);
    return await prepared(ctx.db, guestFileSql).get({ id, companyId: caller.companyId, hostId, path });
  }
  return await prepared(ctx.db, fileSql).get({ id });
}

/**
 * A file the caller may open: its company's own (a `host` person's: those of their guests), or, without a caller,
 * one whose signed link is genuine and unexpired. Unknown, foreign and deleted files are all NOT_FOUND (without a
 * caller: UNAUTHORIZED, as a forged link is).
 */
export async function openFile(
  ctx: Context,
  caller: Caller | undefined,
  name: string,
  link: { expires?: unknown; signature?: unknown },
): Promise<StoredFile> {
  const [, id, extension] = fileName.exec(name) ?? [];
  if (!id) throw new ApiError('NOT_FOUND');
  const found = (await findFile(ctx, caller, id, name)) as FileRow | undefined;
  const row = found?.extension === extension ? found : undefined;
  if (!caller) checkLink(ctx, row, name, link);
  if (!row || row.deletedAt !== null || (caller && row.companyId !== caller.companyId)) {
    throw new ApiError('NOT_FOUND');
  }
  return await readStoredFile(
    ctx,
    { id, companyId: row.companyId, purpose: row.purpose, mediaType: row.mediaType },
    name,
  );
}

/** The bytes of a company's stored file whose row was found; bytes already deleted are NOT_FOUND. */
export async function readStoredFile(ctx: Context, file: Omit<StoredFile, 'bytes'>, name: string): Promise<StoredFile> {
  const bytes = await readFileBytes(ctx, { companyId: file.companyId, name });
  // Erasure and retention delete the bytes of a visitor's files: a link to one of them finds nothing.
  if (!bytes) throw new ApiError('NOT_FOUND');
  return { ...file, bytes };
}
