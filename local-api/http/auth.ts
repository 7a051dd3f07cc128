import type { Request, RequestHandler } from 'express';
import type { Caller } from '../companies/store.ts';
import { ApiError } from './errors.ts';

declare global {
  namespace Express {
    interface Request {
      caller?: Caller;
    }
  }
}

/**
 * The credentials a request may carry, in every form the interface states: `Authorization: Bearer <key>`,
 * `Authentication: Basic <key>`, `Authorization: Basic <key>`; and, for HTTP clients that build Basic themselves,
 * Base64 of `<key>:` or `:<key>`.
 */
export function presentedKeys(headers: Request['headers']): string[] {
  const keys: string[] = [];
  for (const header of [headers.authorization, headers.authentication]) {
    if (typeof header !== 'string') continue;
    const match = /^\s*(Bearer|Basic)\s+(\S+)\s*$/i.exec(header);
    if (!match?.[2]) continue;
    const token = match[2];
    keys.push(token);
    if (match[1]?.toLowerCase() === 'basic') {
      const decoded = Buffer.from(token, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        const user = decoded.slice(0, colon);
        const password = decoded.slice(colon + 1);
        if (user && !password) keys.push(user);
        if (password && !user) keys.push(password);
      }
    }
  }
  return keys;
}

/** A request that presents a signed link (`?expires=…&signature=…`) instead of a key. */
export const carriesSignedLink = (req: Request): boolean =>
  typeof req.query.signature === 'string' && typeof req.query.expires === 'string';

/**
 * Sets the request's caller from its key. Without a valid key, only a request carrying a signed link goes on,
 * without a caller: routes of `signedLink` access check the signature, every other route refuses it.
 */
export function authenticate(findCaller: (key: string) => Caller | undefined): RequestHandler {
  return (req, _res, next) => {
    for (const key of presentedKeys(req.headers)) {
      const caller = findCaller(key);
      if (caller) {
        req.caller = caller;
        next();
        return;
      }
    }
    if (carriesSignedLink(req)) {
      next();
      return;
    }
    throw new ApiError('UNAUTHORIZED');
  };
}

export function callerOf(req: Request): Caller {
  if (!req.caller) throw new ApiError('UNAUTHORIZED');
  return req.caller;
}
