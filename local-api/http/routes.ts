import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { Caller } from '../companies/store.ts';
import { callerOf } from './auth.ts';
import { type ErrorCode, missingId } from './errors.ts';
import { type FieldCodes, validate } from './fields.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * Who may call a route: the company's API key (the default); anyone (`public`: the OpenAPI document); or the key
 * or a signed link (`signedLink`: files, whose short-lived links work in an <img> tag without the key).
 */
export type Access = 'apiKey' | 'public' | 'signedLink';

export interface RouteInput<Body, A extends Access = 'apiKey'> {
  req: Request;
  res: Response;
  /** The authenticated company; absent only where the route's access lets a request in without a key. */
  caller: A extends 'apiKey' ? Caller : Caller | undefined;
  body: Body;
  params: Record<string, string>;
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
  /** Other media types the endpoint may answer with (an image), for the document. */
  produces?: readonly string[];
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

function answer(spec: RouteSpec, req: Request, res: Response, caller: Caller | undefined): void | Promise<void> {
  const body = spec.body ? validate(spec.body, req.body, spec.fieldCodes) : undefined;
  const result = spec.handle({ req, res, caller, body, params: req.params as Record<string, string> });
  // A handler may await (a QR picture is rendered asynchronously): Express 5 passes its rejection on. The others
  // answer in the same turn, without a promise and a microtask per request.
  if (result instanceof Promise) return result.then((value) => send(res, value));
  send(res, result);
}

function send(res: Response, answer: unknown): void {
  if (answer !== undefined) res.json(answer);
}

/**
 * Mounts the routes of a company's key, behind authentication (every request here has a caller). A path whose
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
    router[spec.method](spec.path, (req, res) => answer(spec, req, res, callerOf(req)));
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

/**
 * Mounts the routes answered without a key, before authentication (and before any body is read: they take none):
 * `public` ones, and `signedLink` ones when the request carries a signed link. Without one, a request for a
 * `signedLink` route goes on to authentication and the router of `routerOf`.
 */
export function keylessRouterOf(routes: readonly RouteSpec[]): Router {
  const router = Router();
  for (const spec of routes) {
    if (spec.access !== 'public' && spec.access !== 'signedLink') continue;
    router[spec.method](spec.path, (req, res, next) => {
      if (spec.access === 'signedLink' && !carriesSignedLink(req)) return next();
      return answer(spec, req, res, undefined);
    });
  }
  return router;
}
