import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import type { Caller } from '../companies/store.ts';
import { callerOf } from './auth.ts';
import { type ErrorCode, missingId } from './errors.ts';
import { type FieldCodes, validate } from './fields.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteInput<Body> {
  req: Request;
  res: Response;
  caller: Caller;
  body: Body;
  params: Record<string, string>;
}

/**
 * One endpoint, described once: the same description validates the request, types the handler and produces the
 * endpoint's entry in the OpenAPI document (`GET /v1/openapi.json`).
 */
export interface RouteSpec<BodySchema extends z.ZodType | undefined = z.ZodType | undefined> {
  method: Method;
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
  handle(input: RouteInput<BodySchema extends z.ZodType ? z.output<BodySchema> : undefined>): unknown;
}

/** Declares a route with its body type inferred from its schema. */
export function route<BodySchema extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<BodySchema>,
): RouteSpec<z.ZodType | undefined> {
  return spec as unknown as RouteSpec<z.ZodType | undefined>;
}

/**
 * Mounts routes on a router (authentication is done upstream, so every route has a caller). A path whose last
 * segment is a parameter, called without it (`/host/`), answers MISSING_ID: registered first, so that
 * `/visit/allow/` is not taken for the visit whose id is "allow".
 */
export function routerOf(routes: readonly RouteSpec[]): Router {
  const router = Router();
  const withoutId = [...new Set(routes.map((r) => r.path).filter((p) => /\/:\w+$/.test(p)))].map((p) =>
    p.replace(/\/:\w+$/, ''),
  );
  if (withoutId.length > 0) router.all(withoutId, missingId);
  for (const spec of routes) {
    // Async so a handler may await (a QR picture is rendered asynchronously); Express 5 passes rejections on.
    router[spec.method](spec.path, async (req, res) => {
      const caller = callerOf(req);
      const body = spec.body ? validate(spec.body, req.body, spec.fieldCodes) : undefined;
      const answer = await spec.handle({ req, res, caller, body, params: req.params as Record<string, string> });
      if (answer !== undefined) res.json(answer);
    });
  }
  return router;
}
