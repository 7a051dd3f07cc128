import express, { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import {
  type Caller,
  type DeviceOwner,
  isDeviceOwner,
  type Principal,
  personHostId,
  type Role,
  sessionOnlyRoles,
} from '../credentials/caller.ts';
import { principalOf } from './auth.ts';
import { missingId } from './error-handler.ts';
import { ApiError, type ErrorCode } from './errors.ts';
import { type FieldCodes, validate } from './fields.ts';
import { refuseDeclaredOver } from './limits.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * How a route is called: with a company's credential (`apiKey`, the default; `roles` says which); by anyone
 * (`public`: the OpenAPI document); with a company's credential or a signed link (`signedLink`: files, whose
 * short-lived links work in an <img> tag without the key); or by the device owner only (`owner`: what concerns
 * the device or the whole service).
 */
export type Access = 'apiKey' | 'public' | 'signedLink' | 'owner';

export interface RouteInput<Body, A extends Access = 'apiKey'> {
  req: Request;
  res: Response;
  /** The authenticated company; absent where the route lets a request in without a key, and on owner routes. */
  caller: A extends 'apiKey' ? Caller : A extends 'owner' ? undefined : Caller | undefined;
  /** The device owner, on owner routes. */
  owner: A extends 'owner' ? DeviceOwner : undefined;
  body: Body;
  /** The bytes of an `upload` route's body (a picture, a PDF); undefined on the others. */
  bytes: Buffer | undefined;
  params: Record<string, string>;
}

/** A route whose body is a file sent as itself, not JSON: its media types and its largest size. */
export interface Upload {
  mediaTypes: readonly string[];
  maxBytes: number;
}

/**
 * One endpoint, described once: the same description validates the request, types the handler and produces the
 * endpoint's entry in the OpenAPI document (`GET /v1/openapi.json`).
 */
export interface RouteSpec<
  BodySchema extends z.ZodType | undefined = z.ZodType | undefined,
  A extends Access = Access,
> {
  method: Method;
  /** Default `apiKey`. */
  access?: A;
  /** The company roles that may call it (default: admin only); not for owner and public routes. */
  roles?: readonly Role[];
  /** Express path under /v1, e.g. `/host/:id`. */
  path: string;
  summary: string;
  tag: string;
  body?: BodySchema;
  /** Error codes for body fields (see `validate`). */
  fieldCodes?: Readonly<Record<string, FieldCodes>>;
  /** Query parameters, for the document (lists read theirs with `parseListQuery`). */
  query?: z.ZodType;
  /** Schema of the 200 answer, for the document. */
  response?: z.ZodType;
  /** The body is a binary upload of these media types (read by `uploadRouterOf`), instead of `body`. */
  upload?: Upload;
  /** Other media types the endpoint may answer with (an image), for the document. */
  produces?: readonly string[];
  /** The endpoint answers 302 (to where this says) instead of 200: a step of a browser's sign-in, for the document. */
  redirects?: string;
  errors: readonly ErrorCode[];
  /** Answers the JSON to send (or a promise of it); or sends the response itself and returns undefined. */
  handle(input: RouteInput<BodySchema extends z.ZodType ? z.output<BodySchema> : undefined, A>): unknown;
}

/** Declares a route with its body type inferred from its schema and its caller's type from its access. */
export function route<BodySchema extends z.ZodType | undefined = undefined, A extends Access = 'apiKey'>(
  spec: RouteSpec<BodySchema, A>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

export const isPublic = (spec: RouteSpec): boolean => spec.access === 'public';

/** Who may call a route, as the OpenAPI document and the role matrix show it: company roles, `owner` or `public`. */
export function rolesOf(spec: RouteSpec): readonly (Role | 'owner' | 'public')[] {
  if (spec.access === 'public') return ['public'];
  if (spec.access === 'owner') return ['owner'];
  return spec.roles ?? ['admin'];
}

/** Whether a principal may call the route: a route outside its role answers 403 FORBIDDEN. */
export function mayCall(spec: RouteSpec, principal: Principal): boolean {
  if (spec.access === 'public') return true;
  if (isDeviceOwner(principal)) return spec.access === 'owner';
  if (sessionOnlyRoles.includes(principal.role)) personHostId(principal);
  return spec.access !== 'owner' && (spec.roles ?? ['admin']).includes(principal.role);
}

/** Routes answered by `routerOf`: those behind a key that take JSON (or nothing), not the public or upload ones. */
export const takesJson = (spec: RouteSpec): boolean => !isPublic(spec) && spec.upload === undefined;

/** The errors of every list endpoint (paging and the one-field query). */
export const listErrors = [
  'INVALID_LIMIT_VALUE',
  'INVALID_OFFSET_VALUE',
  'INVALID_QUERY_KEY',
  'INVALID_QUERY_OPERATOR',
  'INVALID_QUERY_VALUE',
] as const satisfies readonly ErrorCode[];

/** What DELETE endpoints answer. */
export const successSchema = z.object({ success: z.literal(true) });

function answer(spec: RouteSpec, req: Request, res: Response, principal: Principal | undefined): void | Promise<void> {
  const body = spec.body ? validate(spec.body, req.body, spec.fieldCodes) : undefined;
  const owner = principal && isDeviceOwner(principal) ? principal : undefined;
  const caller = principal && !isDeviceOwner(principal) ? principal : undefined;
  const bytes = spec.upload && Buffer.isBuffer(req.body) ? req.body : spec.upload ? Buffer.alloc(0) : undefined;
  const result = spec.handle({ req, res, caller, owner, body, bytes, params: req.params as Record<string, string> });
  // A handler may await (a QR picture is rendered asynchronously): Express 5 passes its rejection on. The others
  // answer in the same turn, without a promise and a microtask per request.
  if (result instanceof Promise) return result.then((value) => send(res, value));
  send(res, result);
}

function send(res: Response, answer: unknown): void {
  if (answer !== undefined) res.json(answer);
}

/**
 * Mounts the authenticated routes, behind authentication (every request here has a principal); a principal
 * outside a route's roles is answered 403 FORBIDDEN before its body is validated. A path whose
 * last segment is a parameter, called without it (`/host/`), answers MISSING_ID: registered first, so that
 * `/visit/allow/` is not taken for the visit whose id is "allow".
 */
export function routerOf(routes: readonly RouteSpec[]): Router {
  const router = Router();
  const paths = new Set(routes.map((r) => r.path));
  const withoutId = [...new Set([...paths].filter((p) => /\/:\w+$/.test(p)).map((p) => p.replace(/\/:\w+$/, '')))];
  // A path without its id that is an endpoint itself (`/blockedlist` lists, `/blockedlist/:id` reads) answers
  // MISSING_ID only for the methods it does not serve: registered after the routes.
  const first = withoutId.filter((p) => !paths.has(p));
  const last = withoutId.filter((p) => paths.has(p));
  if (first.length > 0) router.all(first, missingId);
  for (const spec of routes) {
    router[spec.method](spec.path, (req, res) => {
      const principal = principalOf(req);
      if (!mayCall(spec, principal)) throw new ApiError('FORBIDDEN');
      return answer(spec, req, res, principal);
    });
  }
  if (last.length > 0) router.all(last, missingId);
  return router;
}

/**
 * A request that presents a signed link (`?expires=…&signature=…`) instead of a key. One that presents a key as
 * well is judged by its key: another company's link does not open a file to it.
 */
const carriesSignedLink = (req: Request): boolean =>
  typeof req.query.signature === 'string' &&
  typeof req.query.expires === 'string' &&
  req.headers.authorization === undefined &&
  req.headers.authentication === undefined;

/** The largest body a public route reads (a sign-in's e-mail and password): small, for anyone may send it. */
const publicBodyBytes = 16_384;

/**
 * Mounts the routes answered without a key, before authentication: `public` ones, and `signedLink` ones when the
 * request carries a signed link. Without one, a request for a `signedLink` route goes on to authentication and the
 * router of `routerOf`. Only a public route with a body (signing in) has it read, as JSON, up to `publicBodyBytes`.
 */
export function keylessRouterOf(routes: readonly RouteSpec[]): Router {
  const router = Router();
  const readJson = express.json({ limit: publicBodyBytes, type: ['application/json', 'application/*+json'] });
  for (const spec of routes) {
    if (spec.access !== 'public' && spec.access !== 'signedLink') continue;
    if (spec.access === 'public' && spec.body)
      router[spec.method](spec.path, refuseDeclaredOver(publicBodyBytes), readJson);
    router[spec.method](spec.path, (req, res, next) => {
      if (spec.access === 'signedLink' && !carriesSignedLink(req)) return next();
      return answer(spec, req, res, undefined);
    });
  }
  return router;
}

/** The media type of a request, without its parameters, in lower case. */
const mediaTypeOf = (req: Request): string =>
  (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * Mounts the upload routes, after authentication and before the JSON and form parsers: a principal outside the
 * route's roles is refused 403 FORBIDDEN at once; the body is read as bytes,
 * up to the route's own limit (refused at once when the declared length is over it), and only in the route's
 * media types (else 415). No JSON is parsed, so a 10 MB PDF costs the event loop a copy, not a parse.
 */
export function uploadRouterOf(routes: readonly RouteSpec[]): Router {
  const router = Router();
  for (const spec of routes) {
    const upload = spec.upload;
    if (!upload) continue;
    const rawBody = express.raw({ type: () => true, limit: upload.maxBytes });
    router[spec.method](
      spec.path,
      (req, _res, next) => {
        // The role first: a credential that may not upload is refused before its bytes are read.
        if (!mayCall(spec, principalOf(req))) throw new ApiError('FORBIDDEN');
        if (!upload.mediaTypes.includes(mediaTypeOf(req))) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
        next();
      },
      refuseDeclaredOver(upload.maxBytes),
      rawBody,
      (req, res) => answer(spec, req, res, principalOf(req)),
    );
  }
  return router;
}
