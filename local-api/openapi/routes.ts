import { z } from 'zod';
import { type RouteSpec, route } from '../http/routes.ts';
import { openApiDocument } from './document.ts';

/**
 * GET /v1/openapi.json, served without a key: the interface's description is public (clients and code
 * generators fetch it before they have one) and says nothing about any company. Built once, on first request.
 */
export function openApiRoutes(allRoutes: () => readonly RouteSpec[]): RouteSpec[] {
  let document: Record<string, unknown> | undefined;
  return [
    route({
      method: 'get',
      path: '/openapi.json',
      access: 'public',
      tag: 'Interface',
      summary: 'The OpenAPI 3.1 description of this interface',
      response: z.looseObject({ openapi: z.string(), info: z.looseObject({ version: z.string() }) }),
      errors: [],
      handle: () => {
        document ??= openApiDocument(allRoutes());
        return document;
      },
    }),
  ];
}
