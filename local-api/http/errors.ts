import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * Every error code the service answers with, and its HTTP status. The interface document fixes a few statuses
 * (400 INVALID_EMAIL and INVALID_PARAMETER, 404 NOT_FOUND / INVALID_QUERY_KEY / INVALID_QUERY_OPERATOR, 500
 * INTERNAL); the rest are our choice, listed in docs/api.md.
 */
export const errorStatus = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TOO_MANY_REQUESTS: 429,
  NOT_FOUND: 404,
  MISSING_ID: 400,
  INTERNAL: 500,
  INVALID_BODY: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_PARAMETER: 400,
  INVALID_LIMIT_VALUE: 400,
  INVALID_OFFSET_VALUE: 400,
  INVALID_QUERY_KEY: 404,
  INVALID_QUERY_OPERATOR: 404,
  INVALID_QUERY_VALUE: 400,
  MISSING_NAME: 400,
  MISSING_EMAIL: 400,
  INVALID_EMAIL: 400,
  INVALID_ROLE: 400,
  ALREADY_EXISTS: 409,
  CANNOT_CHANGE_HOST_EMAIL: 400,
  MISSING_COUNTRY_CODE: 400,
  INVALID_COUNTRY_CODE: 400,
  HOST_NOT_FOUND: 400,
  VISITOR_TYPE_NOT_FOUND: 400,
  INVALID_CPF: 400,
  INVALID_STATUS: 400,
  INVALID_CARD_NUMBER: 400,
  INVALID_EXPECTED_AT: 400,
  MISSING_EXPECTED_AT: 400,
  MISSING_HOST_ID: 400,
  INVITEE_NOT_FOUND: 404,
  INVITEE_CANCELED: 409,
  ALREADY_CHECKOUT: 409,
  CHECKOUT_AT_BEFORE_CHECKIN: 400,
  WRONG_CHECKOUT_AT_FORMAT: 400,
  WRONG_CHECKIN_AT_FORMAT: 400,
  INVALID_ID: 400,
  MANAGED_BY_HUB: 409,
  SYNC_GAP: 409,
  ACCESS_INTEGRATION_DISABLED: 409,
  ACCESS_KEY_NOT_CONFIGURED: 409,
  MISSING_ACCESS_CARD_NUMBER: 409,
  MISSING_URL: 400,
  INVALID_URL: 400,
  INVALID_EVENT: 400,
  TOO_MANY_WEBHOOKS: 409,
  MISSING_IDENTIFIER: 400,
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  INVALID_PIN: 400,
  WRONG_PIN: 403,
  PIN_NOT_SET: 409,
  NOT_ENROLLED: 409,
  INVALID_TICKET: 400,
  NOT_ALLOWED: 409,
  READ_ONLY_FIELD: 400,
  VISITOR_NOT_FOUND: 400,
  INVALID_PICTURE: 400,
  INVALID_NDA: 400,
  INVALID_CUSTOM_FIELD: 400,
  LINK_EXPIRED: 403,
  CHANNEL_NOT_CONFIGURED: 409,
  MEETING_NOT_FOUND: 400,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** An error the client caused or may act on; answered as `{ type, ...extra }`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly type: ErrorCode,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(type);
    this.status = errorStatus[type];
  }
}

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
function fromHttpError(error: HttpError): ApiError | undefined {
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

export function errorHandler(log: (message: string, error: unknown) => void): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const known = error instanceof ApiError ? error : fromHttpError(error as HttpError);
    if (known) {
      res.status(known.status).json({ type: known.type, ...known.extra });
      return;
    }
    log('internal error', error);
    res.status(500).json({ type: 'INTERNAL' });
  };
}
