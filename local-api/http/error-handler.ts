import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ApiError, errorStatus } from './errors.ts';
import { isStorageFull, type StorageFullEpisodes } from './storage-full.ts';

/*
 * The Express end of the error codes (errors.ts, which the kiosk page also uses, holds the codes and ApiError):
 * the handlers that answer a request with one.
 */

export const notFound: RequestHandler = () => {
  throw new ApiError('NOT_FOUND');
};

export const missingId: RequestHandler = () => {
  throw new ApiError('MISSING_ID');
};

interface HttpError {
  type?: string;
  status?: number;
  expose?: boolean;
  /** body-parser's limit, on `entity.too.large`. */
  limit?: number;
}

/**
 * Translates the errors Express's own parts raise into our codes: body-parser's carry a `type` string; the others
 * (a body that does not inflate, a path parameter that is not valid percent-encoding) only a 4xx status.
 */
export function fromHttpError(error: HttpError): ApiError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE', typeof error.limit === 'number' ? { maxBytes: error.limit } : {});
    case 'entity.parse.failed':
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('INVALID_BODY');
    case 'parameters.too.many':
      return new ApiError('PAYLOAD_TOO_LARGE');
  }
  if (error instanceof URIError) return new ApiError('INVALID_ID');
  if (error.expose === true && error.status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (error.expose === true && error.status !== undefined && error.status >= 400 && error.status < 500) {
    return new ApiError('INVALID_BODY');
  }
  return undefined;
}

export function errorHandler(
  log: (message: string, error: unknown) => void,
  storage: StorageFullEpisodes,
): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const known = error instanceof ApiError ? error : fromHttpError(error as HttpError);
    if (known) {
      res.status(known.status).json({ type: known.type, ...known.extra });
      return;
    }
    if (isStorageFull(error)) {
      storage.refused(error);
      res.status(errorStatus.STORAGE_FULL).json({ type: 'STORAGE_FULL' });
      return;
    }
    log('internal error', error);
    res.status(500).json({ type: 'INTERNAL' });
  };
}
