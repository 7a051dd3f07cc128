import { z } from 'zod';
import { type ErrorCode, errorStatus } from '../http/errors.ts';
import { type RouteSpec, rolesOf } from '../http/routes.ts';
import { apiComponents } from './components.ts';

/** The version of the API this service is compatible with (its clients' label; docs/api.md, "OpenAPI document"). */
export const interfaceVersion = '1.15.2';

type JsonSchema = Record<string, unknown>;

const componentRef = (name: string): string => `#/components/schemas/${name}`;

/** The prefix of the key a route's own (unnamed) schema is converted under: no component's name starts with it. */
const ownKey = '__route';

/** The name of a list answer of a named object, `{ <items>: [Object], size }`: `<Object>List`. */
function listName(schema: z.ZodType | undefined, registry: z.core.$ZodRegistry<{ id: string }>): string | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  const fields = Object.entries(schema.shape as Record<string, z.ZodType>);
  const items = fields.find(([key]) => key !== 'size')?.[1];
  if (fields.length !== 2 || !('size' in schema.shape) || !(items instanceof z.ZodArray)) return undefined;
  const item = registry.get(items.element as z.ZodType)?.id;
  return item ? `${item}List` : undefined;
}

/**
 * Every zod schema of the document as the JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a client sends or
 * receives.
 */
interface DocumentSchemas {
  /** The schema where an operation uses it: a named one by `$ref`, any other written out. */
  use(schema: z.ZodType): JsonSchema;
  /** The schema written out (a named one too), with a `$ref` wherever a named one appears inside it. */
  whole(schema: z.ZodType): JsonSchema;
  /** The named schemas written out, by name (`components.schemas`). */
  components: Record<string, JsonSchema>;
}

/**
 * Converts the schemas of the document in one pass (zod's registry form): the interface's objects (components.ts)
 * and the list answers of them under their names, each route's own body, query and answer under a key of its own,
 * so that zod writes a `$ref` wherever a named schema appears. A route's own schema met inside another is written
 * out in its place: only named schemas are referred to.
 */
function documentSchemas(routes: readonly RouteSpec[]): DocumentSchemas {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(apiComponents)) registry.add(schema, { id: name });
  for (const spec of routes) {
    const list = listName(spec.response, registry);
    if (list && spec.response && !registry.has(spec.response)) registry.add(spec.response, { id: list });
  }
  let own = 0;
  for (const spec of routes) {
    for (const schema of [spec.body, spec.query, spec.response]) {
      if (schema && !registry.has(schema)) registry.add(schema, { id: `${ownKey}${own++}` });
    }
  }
  const { schemas } = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: componentRef });
  const written = new Map(Object.entries(schemas).map(([id, { $id: _id, $schema: _dialect, ...rest }]) => [id, rest]));
  const ownRef = componentRef(ownKey);
  const inlined = (json: unknown): unknown => {
    if (Array.isArray(json)) return json.map(inlined);
    if (json === null || typeof json !== 'object') return json;
    const { $ref, ...rest } = json as JsonSchema;
    if (typeof $ref === 'string' && $ref.startsWith(ownRef)) {
      return { ...(inlined(written.get($ref.slice(componentRef('').length))) as JsonSchema), ...rest };
    }
    return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, inlined(value)]));
  };
  const idOf = (schema: z.ZodType): string => registry.get(schema)?.id as string;
  const whole = (schema: z.ZodType): JsonSchema => inlined(written.get(idOf(schema))) as JsonSchema;
  return {
    use: (schema) => (idOf(schema).startsWith(ownKey) ? whole(schema) : { $ref: componentRef(idOf(schema)) }),
    whole,
    components: Object.fromEntries(
      [...written.keys()]
        .filter((id) => !id.startsWith(ownKey))
        .sort()
        .map((id) => [id, inlined(written.get(id)) as JsonSchema]),
    ),
  };
}

/** What Node and the error handler answer before (or whatever) the route: every operation may meet them. */
const transportErrors: readonly ErrorCode[] = ['BAD_REQUEST', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'INTERNAL'];

/**
 * What every operation behind a key may answer before its own code runs: authentication (a missing or wrong key,
 * a role that may not call it, the lockout of key guessing) and the reading of a body, which any request may
 * carry, a GET's included (docs/api.md, "Request bodies").
 */
const keyedErrors: readonly ErrorCode[] = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'TOO_MANY_REQUESTS',
  'INVALID_BODY',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
];

/**
 * Errors a route may answer besides those it lists, derived from its description so that a route added later is
 * declared as exactly: the generic ones above; a path parameter that is not valid percent-encoding; and for a
 * body, any field's problem (INVALID_PARAMETER, or the field's own codes).
 */
function commonErrors(spec: RouteSpec): ErrorCode[] {
  const codes: ErrorCode[] = [...transportErrors];
  if (spec.access !== 'public') codes.push(...keyedErrors);
  // A write meets a full disk (docs/reliability.md); reads go on.
  if (spec.method !== 'get') codes.push('STORAGE_FULL');
  if (spec.path.includes(':')) codes.push('INVALID_ID');
  if (spec.body) {
    codes.push('INVALID_PARAMETER');
    for (const field of Object.values(spec.fieldCodes ?? {})) {
      if (field.missing) codes.push(field.missing);
      if (field.invalid) codes.push(field.invalid);
    }
  }
  return codes;
}

/** The error answers of a route, one response per HTTP status listing the codes answered with it. */
function errorResponses(spec: RouteSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...spec.errors, ...commonErrors(spec)])) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        {
          description: codes.join(', '),
          content: {
            'application/json': {
              schema: {
                allOf: [{ $ref: componentRef('Error') }],
                properties: { type: { type: 'string', enum: codes } },
              },
            },
          },
        },
      ]),
  );
}

/** `/host/:id` → `/host/{id}` and its path parameters. */
function pathOf(path: string): { path: string; parameters: Record<string, unknown>[] } {
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  return {
    path: `/v1${path.replace(/:(\w+)/g, '{$1}')}`,
    parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
  };
}

function queryParameters(query: z.ZodType | undefined, schemas: DocumentSchemas): Record<string, unknown>[] {
  if (!query) return [];
  const schema = schemas.whole(query) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBody(spec: RouteSpec, schemas: DocumentSchemas): Record<string, unknown> | undefined {
  const { body, upload } = spec;
  if (upload) {
    const file = { type: 'string', description: `the file itself, up to ${upload.maxBytes} bytes` };
    return {
      required: true,
      content: Object.fromEntries(
        upload.mediaTypes.map((type) => [type, { schema: { ...file, contentMediaType: type } }]),
      ),
    };
  }
  if (!body) return undefined;
  const { required } = schemas.whole(body);
  const schema = schemas.use(body);
  return {
    required: Array.isArray(required) && required.length > 0,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

const keySchemes: Record<string, string[]>[] = [{ bearer: [] }, { authenticationHeader: [] }, { basic: [] }];

function security(spec: RouteSpec): Record<string, string[]>[] | undefined {
  if (spec.access === 'public') return [];
  // `{}`: the operation may also be called without credentials (a signed link carries its own proof).
  if (spec.access === 'signedLink') return [...keySchemes, {}];
  return undefined;
}

/** Who may call the operation, in words (the `x-roles` extension lists the same roles for programs). */
function rolesDescription(spec: RouteSpec): string {
  if (spec.access === 'public') return 'Needs no credential.';
  if (spec.access === 'owner') return "The device owner's (an owner token); a company's credential gets 403 FORBIDDEN.";
  return `Roles: ${rolesOf(spec).join(', ')}. Any other credential gets 403 FORBIDDEN.`;
}

/**
 * A GET with `If-None-Match: *` is answered 304 without a body when it would have been answered 200: `*` matches
 * any current representation (RFC 9110, 13.1.2). The service sends no validators (no ETag, no Last-Modified), so
 * no other condition is ever met.
 */
const notModified = {
  description: 'Not Modified: the request asked `If-None-Match: *` and there is a current representation; no body',
};

function operation(spec: RouteSpec, schemas: DocumentSchemas): Record<string, unknown> {
  const { path, parameters } = pathOf(spec.path);
  const body = requestBody(spec, schemas);
  const answers: Record<string, unknown> = {
    ...(spec.response ? { 'application/json': { schema: schemas.use(spec.response) } } : {}),
    ...Object.fromEntries((spec.produces ?? []).map((type) => [type, { schema: {} }])),
  };
  const scheme = security(spec);
  return {
    operationId: `${spec.method}${path
      .replace(/^\/v1/, '')
      .split(/[/{}]+/)
      .filter(Boolean)
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')}`,
    summary: spec.summary,
    description: rolesDescription(spec),
    'x-roles': rolesOf(spec),
    tags: [spec.tag],
    ...(scheme ? { security: scheme } : {}),
    parameters: [...parameters, ...queryParameters(spec.query, schemas)],
    ...(body ? { requestBody: body } : {}),
    responses: {
      ...(spec.redirects
        ? { '302': { description: `Found: ${spec.redirects}`, headers: { Location: { schema: { type: 'string' } } } } }
        : {
            '200': { description: 'OK', ...(Object.keys(answers).length > 0 ? { content: answers } : {}) },
            ...(spec.method === 'get' ? { '304': notModified } : {}),
          }),
      ...errorResponses(spec),
    },
  };
}

/**
 * The OpenAPI 3.1 document of the /v1 interface, made from the same route descriptions that validate requests:
 * every route with its parameters, body, answer and error codes.
 */
export function openApiDocument(routes: readonly RouteSpec[]): Record<string, unknown> {
  const schemas = documentSchemas(routes);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) {
    const { path } = pathOf(spec.path);
    paths[path] = { ...paths[path], [spec.method]: operation(spec, schemas) };
  }
  return {
    openapi: '3.1.0',
    servers: [
      { url: '/', description: 'the service that served this document' },
      {
        url: 'http://127.0.0.1:{port}',
        description: 'a kiosk on this machine (the service binds loopback unless started with --host)',
        variables: { port: { default: '4780' } },
      },
    ],
    info: {
      title: 'Portaria visitor-management service',
      version: interfaceVersion,
      description:
        'The kiosk’s /v1 REST interface: companies, hosts, meetings, invitees, visits, visitors, blocklist, ' +
        'notifications, custom fields, files and the access-control integration. Bodies are JSON or form-encoded; ' +
        'errors are `{ "type": CODE }`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    security: keySchemes,
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A credential: the company API key (role admin), another of its credentials, or the device owner’s ' +
            'token: `Authorization: Bearer <key>`. Each operation lists the roles it accepts (`x-roles`).',
        },
        authenticationHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'Authentication',
          description: 'The interface’s header form: `Authentication: Basic <key>`',
        },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'HTTP Basic with the key as user name (empty password) or as password (empty user name)',
        },
      },
      schemas: schemas.components,
    },
  };
}
