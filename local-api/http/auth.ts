import type { Request, RequestHandler } from 'express';
import type { Principal } from '../credentials/caller.ts';
import { guessSource } from './client-address.ts';
import { ApiError } from './errors.ts';
import { guessSubjects, type KeyGuessCounter } from './key-guessing.ts';

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
 * Finds who makes a request (a company's credential, or the device owner) by its credentials. A valid credential is
 * always let through, whatever was guessed before it from the same address: the guess limit (`counter`,
 * docs/reliability.md "Wrong API keys") only answers requests that presented no valid key, 429 TOO_MANY_REQUESTS
 * with `Retry-After` once their source or the key prefix they aim at is locked, else 401. The source is
 * `req.ip`: the socket's peer, or the client a declared proxy forwarded (`serve --trust-proxy`). A request without
 * credentials guesses nothing and is not counted.
 */
export function authenticate(
  findPrincipal: (key: string) => Promise<Principal | undefined>,
  counter: KeyGuessCounter,
  /** Told when a wrong key locks its source (`address`, else undefined) or key prefixes (how many: never which). */
  onLocked: (address: string | undefined, keyPrefixes: number) => void = () => {},
  /**
   * The console session a request without a key carries in its cookie (accounts/sessions.ts), if any; it throws
   * what refuses the request (a missing CSRF token). A request with a key is never judged by its cookies.
   */
  findSession: (req: Request) => Promise<Principal | undefined> = async () => undefined,
): RequestHandler {
  return async (req, res, next) => {
    const keys = presentedKeys(req.headers);
    if (keys.length === 0) {
      const session = await findSession(req);
      if (session) {
        req.principal = session;
        next();
        return;
      }
    }
    for (const key of keys) {
      const principal = await findPrincipal(key);
      if (principal) {
        req.principal = principal;
        next();
        return;
      }
    }
    if (keys.length === 0) throw new ApiError('UNAUTHORIZED');
    const source = guessSource(req.ip);
    const subjects = guessSubjects(source, keys);
    const verdict = await counter.recordWrongKey(subjects);
    if (verdict.lockedNow.length > 0) {
      const sourceLocked = verdict.lockedNow.includes(subjects[0] as string);
      onLocked(sourceLocked ? source : undefined, verdict.lockedNow.length - (sourceLocked ? 1 : 0));
    }
    if (verdict.retryAfterMs > 0) {
      res.setHeader('Retry-After', String(Math.ceil(verdict.retryAfterMs / 1000)));
      throw new ApiError('TOO_MANY_REQUESTS');
    }
    throw new ApiError('UNAUTHORIZED');
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new ApiError('UNAUTHORIZED');
  return req.principal;
}
