import { z } from 'zod';
import { v1Routes } from '../../local-api/app.ts';
import type { RouteSpec } from '../../local-api/http/routes.ts';
import { testContext } from './context.ts';
import { removeDir } from './service.ts';

/**
 * The /v1 routes exactly as app.ts lists them. Reliability tests walk these instead of listing paths, so every
 * endpoint a branch adds is fuzzed and checked for isolation without touching the tests.
 */
export async function specRoutes(): Promise<RouteSpec[]> {
  const ctx = await testContext();
  try {
    return v1Routes(ctx);
  } finally {
    await ctx.db.close();
    removeDir(ctx.dataDir);
  }
}

export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');

/** `/v1` + the route's path with each parameter replaced (already encoded by the caller). */
export const fillPath = (path: string, value: (param: string, index: number) => string): string => {
  let index = 0;
  return `/v1${path.replace(/:(\w+)/g, (_, name: string) => value(name, index++))}`;
};

/** A field a body may carry: its path (nested objects give `visit.id`) and the JSON types its schema accepts. */
export interface BodyField {
  path: string[];
  types: string[];
}

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function typesOf(schema: JsonSchema): string[] {
  const own = schema.type === undefined ? [] : [schema.type].flat();
  return [...new Set([...own, ...(schema.anyOf ?? []).flatMap(typesOf)])];
}

function objectSchemaOf(schema: JsonSchema): JsonSchema | undefined {
  if (schema.properties) return schema;
  return schema.anyOf?.map(objectSchemaOf).find((s) => s !== undefined);
}

function walk(schema: JsonSchema, prefix: string[]): BodyField[] {
  const object = objectSchemaOf(schema);
  if (!object?.properties) return [];
  return Object.entries(object.properties).flatMap(([key, child]) => [
    { path: [...prefix, key], types: typesOf(child) },
    ...walk(child, [...prefix, key]),
  ]);
}

/** Every field of a route's body schema, read from the JSON Schema the OpenAPI document is made of. */
export function bodyFields(spec: RouteSpec): BodyField[] {
  if (!spec.body) return [];
  return walk(z.toJSONSchema(spec.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema, []);
}

/** Sets `value` at `path` in `target`, creating the objects on the way (a field set earlier may be replaced). */
export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
}

/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD, as any client would send). */
export const percentEncode = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');
