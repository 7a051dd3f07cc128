import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Router } from 'express';
import { createApp, v1Routes } from '../../local-api/app.ts';
import { missingId, notFound } from '../../local-api/http/error-handler.ts';
import { errorStatus } from '../../local-api/http/errors.ts';
import { apiComponents } from '../../local-api/openapi/components.ts';
import { testContext } from '../helpers/context.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

let service: TestService;
let api: ReturnType<typeof client>;
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
let document: any;

before(async () => {
  service = await startService();
  api = client(service.url, (await service.company('Conformance')).apiKey);
  const reply = await client(service.url)('GET', '/v1/openapi.json');
  assert.equal(reply.status, 200, 'served without a key');
  document = reply.body;
});
after(() => service.stop());

const methods = ['get', 'post', 'patch', 'put', 'delete'] as const;
const documented = () =>
  new Set(
    Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      methods.filter((m) => m in item).map((m) => `${m} ${path}`),
    ),
  );
const asOpenApi = (path: string) => `/v1${path.replace(/:(\w+)/g, '{$1}')}`;
const componentPrefix = '#/components/schemas/';
/** A schema with its `$ref` to a component followed. */
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
const resolved = (schema: any): any =>
  typeof schema.$ref === 'string' ? document.components.schemas[schema.$ref.slice(componentPrefix.length)] : schema;
/** Every `$ref` in a piece of the document. */
const refsIn = (json: unknown): string[] =>
  Array.isArray(json)
    ? json.flatMap(refsIn)
    : json !== null && typeof json === 'object'
      ? Object.entries(json).flatMap(([key, value]) => (key === '$ref' ? [value as string] : refsIn(value)))
      : [];

test('is an OpenAPI 3.1 document of interface version 1.15.2 that a standard validator accepts', async () => {
  assert.equal(document.openapi, '3.1.0');
  assert.equal(document.info.version, '1.15.2');
  const result = await new Validator().validate(document);
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(result.valid, true);
});

test('describes every route spec with its body, answer and error codes', async () => {
  const ctx = await testContext();
  try {
    for (const spec of v1Routes(ctx)) {
      const operation = document.paths[asOpenApi(spec.path)]?.[spec.method];
      assert.ok(operation, `${spec.method} ${spec.path} is missing`);
      assert.ok(operation.summary && operation.tags.length === 1 && operation.operationId, spec.path);
      if (spec.body) {
        assert.ok(operation.requestBody.content['application/json'].schema, `${spec.path} body`);
        assert.ok(operation.requestBody.content['application/x-www-form-urlencoded'], `${spec.path} form body`);
      }
      // A step of a browser's sign-in answers a redirect, and only that.
      if (spec.redirects) assert.ok(operation.responses['302'] && !operation.responses['200'], spec.path);
      else assert.ok(operation.responses['200'].content, `${spec.method} ${spec.path} has no answer schema`);
      for (const code of spec.errors) {
        const response = operation.responses[String(errorStatus[code])];
        assert.ok(
          response?.content['application/json'].schema.properties.type.enum.includes(code),
          `${spec.path} ${code}`,
        );
      }
      const withKey = spec.access === undefined || spec.access === 'apiKey';
      // A public route answers 401 only for what it declares itself (a sign-in's wrong password).
      const declares401 = spec.errors.some((code) => errorStatus[code] === 401);
      assert.equal(Boolean(operation.responses['401']), spec.access !== 'public' || declares401, `${spec.path} 401`);
      if (withKey) assert.equal(operation.security, undefined, `${spec.path} uses the document's security`);
    }
  } finally {
    await ctx.db.close();
  }
});

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: { stack?: Layer[] };
  match(path: string): boolean;
}

test('every route the Express app serves is in the document, and nothing else is', async () => {
  const ctx = await testContext();
  const served = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        // Routes that only answer an error (MISSING_ID for a path without its id, NOT_FOUND for OPTIONS) are
        // not endpoints.
        if (layer.route.stack.every((handler) => handler.handle === missingId || handler.handle === notFound)) continue;
        // Outside /v1 are the kiosk's page and its session (docs/kiosk.md): not API endpoints.
        if (prefix !== '/v1') continue;
        for (const method of Object.keys(layer.route.methods)) {
          served.add(`${method} ${asOpenApi(`${prefix}${layer.route.path}`.replace(/^\/v1/, ''))}`);
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, layer.match('/v1/x') && !layer.match('/x') ? '/v1' : prefix);
      }
    }
  };
  try {
    walk((createApp(ctx) as unknown as { router: Router & { stack: Layer[] } }).router.stack, '');
  } finally {
    await ctx.db.close();
  }
  assert.ok(served.size > 40, `found only ${served.size} routes`);
  assert.deepEqual([...served].sort(), [...documented()].sort());
});

test('declares the bearer key and the interface’s `Authentication: Basic` header', () => {
  const schemes = document.components.securitySchemes;
  assert.deepEqual(schemes.bearer, { ...schemes.bearer, type: 'http', scheme: 'bearer' });
  assert.deepEqual(schemes.authenticationHeader, {
    ...schemes.authenticationHeader,
    type: 'apiKey',
    in: 'header',
    name: 'Authentication',
  });
  assert.deepEqual(document.security, [{ bearer: [] }, { authenticationHeader: [] }, { basic: [] }]);
  assert.deepEqual(document.paths['/v1/openapi.json'].get.security, []);
  assert.ok(document.paths['/v1/files/{name}'].get.security.some((s: object) => Object.keys(s).length === 0));
});

test('schemas come from the zod schemas that validate requests', () => {
  const hostCreate = document.paths['/v1/hosts'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(hostCreate.required.sort(), ['email', 'name']);
  const company = document.paths['/v1/company'].patch.requestBody.content['application/json'].schema;
  assert.deepEqual(company.properties.lang.enum, ['en', 'pt-BR', 'de', 'zh-Hans']);
  assert.equal(company.properties.module.maxLength, 20);
  assert.equal(company.properties.whatsappMessageNameSource.anyOf[0].maxLength, 50);
  const visit = resolved(document.paths['/v1/visit/{id}'].get.responses['200'].content['application/json'].schema);
  for (const field of ['id', 'checkinAt', 'isInsideCompany', 'host', 'pictureUrl', 'ndaUrl', 'customFields']) {
    assert.ok(field in visit.properties, `visit object lacks ${field}`);
  }
  const invitees = document.paths['/v1/invitees'].get;
  assert.deepEqual(
    invitees.parameters.map((p: { name: string }) => p.name),
    ['limit', 'offset', 'queryKey', 'queryOp', 'queryValue'],
  );
  assert.deepEqual(document.paths['/v1/meeting/{id}'].patch.parameters[0], {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'string' },
  });
});

test('what the service answers matches the documented answer schemas', async () => {
  const ctx = await testContext();
  const specs = v1Routes(ctx);
  await ctx.db.close();
  const check = async (method: string, path: string, specPath: string, body?: unknown) => {
    const reply = await api(method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    const spec = specs.find((s) => s.method === method.toLowerCase() && s.path === specPath);
    assert.ok(spec?.response, `${method} ${specPath} has a response schema`);
    const parsed = spec.response.safeParse(reply.body);
    assert.ok(parsed.success, `${method} ${specPath}: ${parsed.error?.message}`);
    const shape = (spec.response as unknown as { shape?: Record<string, unknown> }).shape;
    if (shape && specPath !== '/openapi.json') {
      const undocumented = Object.keys(reply.body).filter((key) => !(key in shape));
      assert.deepEqual(undocumented, [], `${method} ${specPath} answers fields its schema does not list`);
    }
    return reply.body;
  };
  await check('GET', '/v1/company', '/company');
  const host = await check('POST', '/v1/hosts', '/hosts', { name: 'H', email: 'h@conformance.test' });
  await check('GET', '/v1/hosts', '/hosts');
  const meeting = await check('POST', '/v1/meetings', '/meetings', {
    title: 'M',
    guests: ['g@conformance.test'],
    start: '2026-12-01T10:00:00Z',
    end: '2026-12-01T11:00:00Z',
    location: 'Lobby',
    type: 'EVENT',
    hostId: host.id,
  });
  await check('GET', `/v1/meeting/${meeting.id}`, '/meeting/:id');
  const invitees = await check('GET', '/v1/invitees', '/invitees');
  await check('GET', `/v1/invitee/${invitees.invitees[0].id}`, '/invitee/:id');
  const field = await check('POST', '/v1/customfields', '/customfields', { name: 'Badge', type: 'Text' });
  const visit = await check('POST', '/v1/visits', '/visits', {
    visit: { id: crypto.randomUUID(), hostId: host.id, customFields: [{ customFieldId: field.id, value: 'B' }] },
    visitor: { name: 'V', email: 'v@conformance.test' },
    visitPicture: (await import('../helpers/files.ts')).pngBytes().toString('base64'),
  });
  await check('GET', '/v1/visits', '/visits');
  await check('POST', `/v1/visit/inviteeCheckin/${invitees.invitees[0].id}`, '/visit/inviteeCheckin/:inviteeId', {});
  await check('GET', `/v1/visitor/${visit.visitorId}`, '/visitor/:id');
  await check('GET', '/v1/visitors', '/visitors');
  await check('POST', '/v1/blockedlist', '/blockedlist', { cpf: '529.982.247-25', reason: 'r' });
  await check('GET', '/v1/blockedlist', '/blockedlist');
  await check('POST', '/v1/integration/notifications', '/integration/notifications', { webhookUrl: '' });
  await check('POST', '/v1/notifications', '/notifications', { type: 'visit', message: 'm', hosts: [host.id] });
  await check('GET', '/v1/notifications', '/notifications');
  await check('POST', '/v1/integration/access', '/integration/access', { enabled: true });
  await check('GET', '/v1/integration/access/status', '/integration/access/status');
  const webhook = await check('POST', '/v1/webhooks', '/webhooks', { url: 'http://127.0.0.1:9/hook' });
  await check('GET', `/v1/webhook/${webhook.id}`, '/webhook/:id');
  await check('GET', '/v1/webhooks/status', '/webhooks/status');
  await check('DELETE', `/v1/host/${host.id}`, '/host/:id');
  await check('GET', '/v1/openapi.json', '/openapi.json');
});

test('declares what every operation may answer: the key, the lockout, the body; typed list parameters; servers', () => {
  for (const path of Object.keys(document.paths)) {
    for (const method of Object.keys(document.paths[path])) {
      const operation = document.paths[path][method];
      const keyed = !(operation.security?.length === 0);
      const enumOf = (status: number) =>
        operation.responses[String(status)]?.content['application/json'].schema.properties.type.enum ?? [];
      // Every keyed operation may meet the wrong-key lockout and a role it lacks; a public one only what it declares
      // itself (a sign-in's own limit, the first administrator's machine rule).
      if (keyed) assert.ok(enumOf(429).includes('TOO_MANY_REQUESTS'), `${method} ${path} 429`);
      if (keyed) assert.ok(enumOf(403).includes('FORBIDDEN'), `${method} ${path} 403`);
      assert.equal(enumOf(415).includes('UNSUPPORTED_MEDIA_TYPE'), keyed, `${method} ${path} 415`);
      assert.ok(enumOf(400).includes('BAD_REQUEST') && enumOf(500).includes('INTERNAL'), `${method} ${path}`);
      for (const parameter of operation.parameters) {
        if (parameter.name === 'limit' || parameter.name === 'offset') {
          assert.equal(parameter.schema.type, 'integer', `${method} ${path} ${parameter.name}`);
          assert.equal(parameter.schema.minimum, parameter.name === 'limit' ? 1 : 0);
        }
      }
    }
  }
  assert.equal(
    document.paths['/v1/hosts'].get.parameters.find((p: { name: string }) => p.name === 'limit').schema.maximum,
    1000,
  );
  assert.deepEqual(
    document.servers.map((s: { url: string }) => s.url),
    ['/', 'http://127.0.0.1:{port}'],
  );
});

test('POST /v1/invitees says it needs an e-mail, a phone or a document; card numbers are int32', () => {
  const invitee = document.paths['/v1/invitees'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(
    invitee.anyOf.map((branch: { required: string[] }) => branch.required),
    [['email'], ['phone'], ['document']],
  );
  interface Branch {
    type?: string;
    minimum?: number;
    maximum?: number;
    anyOf?: Branch[];
  }
  const bounded = (schema: Branch): (number | undefined)[][] =>
    schema.type === 'integer' ? [[schema.minimum, schema.maximum]] : (schema.anyOf ?? []).flatMap(bounded);
  assert.deepEqual(bounded(invitee.properties.cardNumber), [[-(2 ** 31), 2 ** 31 - 1]]);
  const visit = document.paths['/v1/visits'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(bounded(visit.properties.visit.properties.cardNumber), [[-(2 ** 31), 2 ** 31 - 1]]);
});

test('names the interface’s objects and their lists as components, and refers to them by $ref wherever they are used', async () => {
  const names = Object.keys(document.components.schemas);
  for (const name of ['Host', 'Visit', 'Invitee', 'Meeting', 'VisitorType', 'CustomField', 'Company', 'Error']) {
    assert.ok(names.includes(name), `${name} is a component`);
  }
  for (const name of ['BlockedPerson', 'Webhook', 'HostList', 'VisitList', 'InviteeList', 'BlockedPersonList']) {
    assert.ok(names.includes(name), `${name} is a component`);
  }
  const answerOf = (path: string, method: string) =>
    document.paths[path][method].responses['200'].content['application/json'].schema;
  const ref = (name: string) => ({ $ref: `${componentPrefix}${name}` });
  assert.deepEqual(answerOf('/v1/host/{id}', 'get'), ref('Host'));
  assert.deepEqual(answerOf('/v1/hosts', 'get'), ref('HostList'));
  assert.deepEqual(document.components.schemas.HostList.properties.hosts.items, ref('Host'));
  assert.deepEqual(answerOf('/v1/invitee/{id}', 'get'), ref('Invitee'));
  assert.deepEqual(answerOf('/v1/meeting/{id}', 'get'), ref('Meeting'));
  assert.deepEqual(answerOf('/v1/visits', 'get'), ref('VisitList'));
  assert.deepEqual(answerOf('/v1/blockedlist/{id}', 'get'), ref('BlockedPerson'));
  assert.deepEqual(answerOf('/v1/webhook/{id}', 'get'), ref('Webhook'));
  assert.deepEqual(document.components.schemas.Visit.properties.host.anyOf[0], ref('HostSummary'));
  assert.deepEqual(document.paths['/v1/hosts'].get.responses['401'].content['application/json'].schema.allOf, [
    ref('Error'),
  ]);

  // Every route whose body or answer is a named schema refers to it; no named schema is written out anywhere else.
  const ctx = await testContext();
  try {
    for (const spec of v1Routes(ctx)) {
      const operation = document.paths[asOpenApi(spec.path)][spec.method];
      for (const [name, schema] of Object.entries(apiComponents)) {
        if (spec.response === schema) assert.deepEqual(answerOf(asOpenApi(spec.path), spec.method), ref(name));
        if (spec.body === schema) {
          assert.deepEqual(operation.requestBody.content['application/json'].schema, ref(name), spec.path);
        }
      }
    }
  } finally {
    await ctx.db.close();
  }
  const { schemas, ...outsideSchemas } = document.components;
  const elsewhere = JSON.stringify({ ...document, components: outsideSchemas });
  for (const [name, schema] of Object.entries(schemas)) {
    if (name === 'Error' || name === 'Success') continue;
    assert.ok(!elsewhere.includes(JSON.stringify(schema)), `${name} is written out in an operation`);
  }
  for (const target of refsIn(document)) {
    assert.ok(target.startsWith(componentPrefix) && target.slice(componentPrefix.length) in schemas, target);
  }
});
