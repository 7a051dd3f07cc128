import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { basename } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import type { RouteSpec } from '../../local-api/http/routes.ts';
import { pngBytes } from '../helpers/files.ts';
import { bodyFields, fillPath, pathParams, percentEncode, setPath, specRoutes } from '../helpers/routes.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

/*
 * The contract: every answer of every operation is declared by the OpenAPI document the service serves: its
 * status among the operation's responses, its error `type` in that status's enum. Each operation (read from the
 * route specs, so routes added later are covered) gets requests that reach past validation: a body that satisfies
 * its schema's required fields, with one or two fields given a probing value (empty, blank, out of range, of
 * another type, a real id of another resource…), real and unknown ids in the path, list parameters in and out of
 * range; plus a body of another media type, an array body and no key. CONTRACT_RUNS sets the requests per
 * operation (default 20); CONTRACT_SEED replays a run.
 */

const routes = await specRoutes();
const runsPerOperation = Number(process.env.CONTRACT_RUNS ?? 20);
const seed = Number(process.env.CONTRACT_SEED ?? Date.now() % 2 ** 31);

let service: TestService;
let apiKey: string;
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
let document: any;
const realIds: string[] = [];
let fileName = '';

before(async () => {
  service = await startService();
  apiKey = (await service.company('Contract Co')).apiKey;
  const api = client(service.url, apiKey);
  document = (await api('GET', '/v1/openapi.json')).body;
  const host = (await api('POST', '/v1/hosts', { name: 'Contract Host', email: 'host@contract.test' })).body;
  const meeting = (
    await api('POST', '/v1/meetings', {
      title: 'Contract',
      guests: ['guest@contract.test'],
      start: '2026-12-01T10:00:00Z',
      end: '2026-12-01T11:00:00Z',
      location: 'Room',
      type: 'MEETING',
      hostId: host.id,
    })
  ).body;
  const invitee = (
    await api('POST', '/v1/invitees', {
      name: 'Contract Invitee',
      email: 'invitee@contract.test',
      hostId: host.id,
      expectedAt: '2026-12-01T10:00',
    })
  ).body;
  const visit = (
    await api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: host.id },
      visitor: { name: 'Contract Visitor', email: 'visitor@contract.test' },
      visitPicture: pngBytes().toString('base64'),
    })
  ).body;
  const field = (await api('POST', '/v1/customfields', { name: 'Badge', type: 'Text' })).body;
  const entry = (await api('POST', '/v1/blockedlist', { cpf: '529.982.247-25', reason: 'contract' })).body;
  const webhook = (await api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/contract' })).body;
  for (const made of [host, meeting, invitee, visit, field, entry, webhook]) {
    assert.equal(typeof made.id, 'string', JSON.stringify(made));
    realIds.push(made.id);
  }
  realIds.push(visit.visitorId);
  fileName = basename(visit.pictureUrl);
});
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
after(async () => {
  agent.destroy();
  await service.stop();
});

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
}

/** A value the schema accepts, as plain as can be (`name` of an id field: a real id). */
function plainValue(schema: JsonSchema, name: string, pickId: () => string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.properties) {
    // An object; an `anyOf` beside its properties lists required alternatives (one of email, phone…): the first.
    const required = [...(schema.required ?? []), ...(schema.anyOf?.[0]?.required ?? [])];
    return Object.fromEntries(required.map((key) => [key, plainValue(schema.properties?.[key] ?? {}, key, pickId)]));
  }
  if (schema.anyOf) {
    const branch = schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0];
    return branch ? plainValue(branch, name, pickId) : null;
  }
  const type = [schema.type ?? 'string'].flat().find((t) => t !== 'null');
  switch (type) {
    case 'object':
      return {};
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      if (schema.format === 'email') return 'probe@contract.test';
      if (/id$/i.test(name)) return pickId();
      if (/at$|start|end/i.test(name)) return '2026-12-01T10:00:00Z';
      if (/url/i.test(name)) return 'http://127.0.0.1:9/probe';
      return 'probe';
  }
}

const probes: readonly unknown[] = [
  '',
  ' ',
  'x',
  'yesterday',
  '2024-02-30',
  '2026-11-22T10:00',
  -1,
  0,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  1e308,
  true,
  null,
  [],
  {},
  ['not an email'],
  'a'.repeat(6000),
  'bm90IGEgcGljdHVyZQ==',
  'not-an-email',
  '+55',
  '529.982.247-25',
  '111.111.111-11',
  'ftp://x',
  'http://127.0.0.1:9/probe',
  '*',
  'BOGUS',
  '__proto__',
];

const probe = (ids: () => string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...probes) },
    { weight: 2, arbitrary: fc.constantFrom(...ids()) },
    { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

const listProbes = ['0', '1', '2', '1000', '2001', '-1', 'x', '1.5', '', 'name', 'createdAt', '==', '<', 'like'];

function requestArbitrary(spec: RouteSpec) {
  const ids = () => [...realIds, fileName];
  const bodySchema = spec.body
    ? (z.toJSONSchema(spec.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema)
    : undefined;
  const fields = bodyFields(spec);
  const queryNames = spec.query ? Object.keys(z.toJSONSchema(spec.query).properties ?? {}) : [];
  return fc
    .record({
      params: fc.tuple(
        ...pathParams(spec.path).map(() => fc.oneof(fc.constantFrom(...ids()), fc.uuid({ version: 4 }))),
      ),
      idChoice: fc.nat(),
      mutations:
        fields.length === 0
          ? fc.constant([])
          : fc.array(fc.tuple(fc.constantFrom(...fields), probe(ids)), { minLength: 0, maxLength: 2 }),
      query: fc.array(
        fc.tuple(
          fc.constantFrom(...queryNames, 'limit', 'queryKey'),
          fc.oneof(fc.constantFrom(...listProbes), probe(ids)),
        ),
        { maxLength: 4 },
      ),
    })
    .map((input) => {
      let body: unknown;
      if (bodySchema) {
        const pickId = () => ids()[input.idChoice % realIds.length] as string;
        body = plainValue(bodySchema, '', pickId);
        for (const [field, value] of input.mutations) setPath(body as Record<string, unknown>, field.path, value);
      }
      const query = input.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(String(v))}`).join('&');
      const path = fillPath(spec.path, (_, i) => percentEncode(input.params[i] ?? ''));
      return { path: query ? `${path}?${query}` : path, body };
    });
}

const asOpenApi = (path: string) => `/v1${path.replace(/:(\w+)/g, '{$1}')}`;

test('every status and error type any operation answers is declared in the OpenAPI document', async () => {
  /** `operation → status type`, with the first request that got it. */
  const violations = new Map<string, string>();
  const answered = new Map<string, number>();
  let requests = 0;
  const check = (spec: RouteSpec, status: number, body: unknown, sent: string) => {
    requests++;
    const operation = document.paths[asOpenApi(spec.path)]?.[spec.method];
    const name = `${spec.method.toUpperCase()} ${asOpenApi(spec.path)}`;
    const response = operation?.responses[String(status)];
    const type = (body as { type?: unknown } | null)?.type;
    answered.set(`${status}`, (answered.get(`${status}`) ?? 0) + 1);
    const what = `${name} → ${status} ${String(type)}`;
    if (!response) {
      if (!violations.has(what)) violations.set(what, `undeclared status, e.g. ${sent.slice(0, 200)}`);
    } else if (
      status >= 400 &&
      !response.content?.['application/json']?.schema?.properties?.type?.enum?.includes(type)
    ) {
      if (!violations.has(what)) violations.set(what, `undeclared type, e.g. ${sent.slice(0, 200)}`);
    }
  };
  // node:http rather than fetch: a GET may carry a body too, and must be answered as declared.
  const send = (
    spec: RouteSpec,
    path: string,
    headers: Record<string, string>,
    body?: string | Buffer,
    retried = false,
  ) =>
    new Promise<void>((resolve, reject) => {
      const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = request(
        `${service.url}${path}`,
        { method: spec.method.toUpperCase(), headers: sent, agent },
        (res) => {
          // An event stream (GET /v1/sync/pokes) never ends: its status is the answer, its body is not JSON.
          if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            res.destroy();
            check(spec, res.statusCode ?? 0, undefined, `${path} (event stream)`);
            resolve();
            return;
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
            check(
              spec,
              res.statusCode ?? 0,
              parsed,
              `${path} ${typeof body === 'string' ? body : `<${body?.length} bytes>`}`,
            );
            resolve();
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the service closed just as the request left: it was not received, send it again.
        if (error.code === 'ECONNRESET' && !retried) send(spec, path, headers, body, true).then(resolve, reject);
        else reject(new Error(`${spec.method} ${path}: ${error.message}`));
      });
      req.end(body);
    });
  const auth = { authorization: `Bearer ${apiKey}` };
  for (const spec of routes) {
    const inputs = fc.sample(requestArbitrary(spec), { numRuns: runsPerOperation, seed });
    for (const input of inputs) {
      if (input.body === undefined) await send(spec, input.path, auth);
      else await send(spec, input.path, { ...auth, 'content-type': 'application/json' }, JSON.stringify(input.body));
    }
    const path = (inputs[0]?.path ?? '').split('?')[0] ?? '';
    for (const type of spec.upload?.mediaTypes ?? []) {
      // A file sent as itself: a picture (right or wrong for the type) and bytes that are no file at all.
      await send(spec, path, { ...auth, 'content-type': type }, pngBytes());
      await send(spec, path, { ...auth, 'content-type': type }, 'not a file');
    }
    // A conditional GET: `*` matches any current representation (RFC 9110), which the service may answer 304.
    if (spec.method === 'get') await send(spec, path, { ...auth, 'if-none-match': '*' });
    await send(spec, path, { ...auth, 'content-type': 'text/plain' }, 'text');
    await send(spec, path, { ...auth, 'content-type': 'application/json' }, '[1]');
    if (spec.access !== 'public') await send(spec, path, {});
  }
  console.log(
    `contract: ${requests} requests over ${routes.length} operations (seed ${seed}); statuses ` +
      [...answered].map(([status, n]) => `${status}×${n}`).join(' '),
  );
  assert.deepEqual(
    [...violations].map(([what, example]) => `${what} (${example})`).sort(),
    [],
    `undeclared answers (seed ${seed})`,
  );
});
