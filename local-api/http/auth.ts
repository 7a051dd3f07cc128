import type { Request, RequestHandler } from 'express';
import type { Principal } from '../credentials/caller.ts';
import { ApiError } from './errors.ts';
import type { KeyGuessLimiter } from './key-guessing.ts';

declare global {
  namespace Express {
    interface Request {
      principal?: Principal;
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

/**
 * Finds who makes a request (a company's credential, or the device owner) by its credentials. Wrong keys are counted by `limiter` (per client address and
 * per target); a locked address is answered 429 TOO_MANY_REQUESTS with `Retry-After`, whatever it presents, so
 * a guess made while locked says nothing. A right key does not clear the count: a client holding one company's
 * key could otherwise interleave it to keep guessing another's. A request without credentials guesses nothing
 * and is not counted.
 */
export function authenticate(
  findPrincipal: (key: string) => Principal | undefined,
  limiter: KeyGuessLimiter,
  onLocked: (address: string) => void = () => {},
): RequestHandler {
  return (req, res, next) => {
    const address = req.socket.remoteAddress ?? 'unknown';
    const retryAfterMs = limiter.retryAfter(address);
    if (retryAfterMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
      throw new ApiError('TOO_MANY_REQUESTS');
    }
    const keys = presentedKeys(req.headers);
    for (const key of keys) {
      const principal = findPrincipal(key);
      if (principal) {
        limiter.recordRightKey(address);
        req.principal = principal;
        next();
        return;
      }
    }
    if (keys.length > 0) {
      limiter.recordWrongKey(address);
      if (limiter.retryAfter(address) > 0) onLocked(address);
    }
    throw new ApiError('UNAUTHORIZED');
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new ApiError('UNAUTHORIZED');
  return req.principal;
}
