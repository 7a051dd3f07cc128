import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { bodyLimits } from '../../local-api/http/limits.ts';
import type { RouteSpec } from '../../local-api/http/routes.ts';
import { parseResponses, rawExchange } from '../helpers/raw-http.ts';
import {
  type BodyField,
  bodyFields,
  fillPath,
  pathParams,
  percentEncode,
  setPath,
  specRoutes,
} from '../helpers/routes.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

/*
 * Every route of v1Routes is fed generated bad input. Properties: no 5xx, an answer within the time-out, the
 * process alive at the end, and every answer JSON with a string `type` (or the endpoint's success shape).
 * FUZZ_CASES sets the generated cases shared by the routes (default 3000, at least 20 a route); the seed is
 * printed, and FUZZ_SEED replays it.
 */

const routes = await specRoutes();
const bodyLimit = bodyLimits.maxBytes;
const runsPerRoute = Math.max(20, Math.ceil(Number(process.env.FUZZ_CASES ?? 3000) / routes.length));
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const answerTimeoutMs = 10_000;

/** fast-check's report, with each line cut short: a counterexample may hold strings of 150,000 characters. */
function shortReport<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? 'property failed';
  throw new Error(
    report
      .split('\n')
      .map((line) => (line.length > 2000 ? `${line.slice(0, 2000)}… (${line.length} characters)` : line))
      .join('\n'),
  );
}

let service: TestService;
let port: number;
let apiKey: string;
const realIds: string[] = [];
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const counts = { cases: 0, raw: 0, tooLarge: 0, tooMany: 0, statuses: new Map<number, number>() };

before(async () => {
  service = await startService();
  port = Number(new URL(service.url).port);
  apiKey = (await service.company('Fuzz Co')).apiKey;
  const api = client(service.url, apiKey);
  const host = (await api('POST', '/v1/hosts', { name: 'Fuzz Host', email: 'host@fuzz.test' })).body;
  const invitee = (
    await api('POST', '/v1/invitees', {
      name: 'Fuzz Invitee',
      email: 'inv@fuzz.test',
      hostId: host.id,
      expectedAt: '2026-11-22T10:00',
    })
  ).body;
  const visit = (
    await api('POST', '/v1/visits', { visit: { id: randomUUID(), hostId: host.id }, visitor: { name: 'V' } })
  ).body;
  realIds.push(host.id, invitee.id, visit.id);
  for (const id of realIds) assert.equal(typeof id, 'string');
});

after(async () => {
  agent.destroy();
  await service.stop();
  const statuses = [...counts.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(
    `fuzz: ${counts.cases} generated cases over ${routes.length} routes + ${counts.raw} raw-socket cases ` +
      `(seed ${seed}); 413 PAYLOAD_TOO_LARGE ×${counts.tooLarge}, 429 TOO_MANY_REQUESTS ×${counts.tooMany}; ` +
      `statuses ${statuses.join(' ')}`,
  );
});

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  // Node's client sends a GET's body without a length unless told: the server would read it as the next request.
  const sent = body ? { ...headers, 'content-length': String(body.length) } : headers;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: sent, agent, signal: AbortSignal.timeout(answerTimeoutMs) },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '');
        // An event stream (GET /v1/sync/pokes) never ends: its status and headers are the answer.
        if (contentType.startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, text: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error) => reject(new Error(`${method} ${path.slice(0, 120)}: ${error.message}`)));
    req.end(body);
  });
}

function count(status: number): void {
  counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
  if (status === 413) counts.tooLarge++;
  if (status === 429) counts.tooMany++;
}

/** The properties every answer must have. */
function checkAnswer(
  what: string,
  status: number,
  text: string,
  method = 'GET',
  produces: readonly string[] = [],
  redirects = false,
) {
  count(status);
  assert.ok(status < 500, `${what}: ${status} ${text.slice(0, 300)}`);
  if (method === 'HEAD') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (status === 200 && produces.length > 0) return; // an image, as the route says it may answer
    if (status === 302 && redirects) return; // a step of a browser's sign-in, as the route says it answers
    assert.fail(`${what}: answer is not JSON: ${status} ${text.slice(0, 300)}`);
  }
  assert.ok(parsed !== null && typeof parsed === 'object', `${what}: ${text.slice(0, 300)}`);
  if (status !== 200) assert.equal(typeof (parsed as { type?: unknown }).type, 'string', `${what}: ${text}`);
}

/** Checks every response read off a raw connection (none at all is allowed: a reset needs no answer). */
function checkRaw(what: string, received: Buffer): [number, string][] {
  counts.raw++;
  const responses = parseResponses(received);
  for (const response of responses) checkAnswer(what, response.status, response.body);
  return responses.map((r) => [r.status, JSON.parse(r.body).type]);
}

// ---------------------------------------------------------------------------------------------------------------
// Generators

const tricks = [
  "' OR '1'='1",
  '1; DROP TABLE visits; --',
  '" OR 1=1 --',
  "') OR ('a'='a",
  "%' OR 1=1 --",
  "1' UNION SELECT keyHash FROM api_keys --",
  '*',
  '%',
  '_',
  '\\',
  '../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f',
  '....//',
  '.',
  '..',
  '\u0000',
  '%00',
  '$' + '{jndi:ldap://127.0.0.1/x}', // log4shell's pattern
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  '\u202e\u0646\ud83d\ude00',
  '\ud800',
  '\udfff\ud800',
  '\uffff',
  'NaN',
  'Infinity',
  '-0',
  '',
  ' ',
];
const invalidDates = [
  '2024-02-30',
  '2023-02-29T10:00',
  '2024-13-01',
  '2024-00-10',
  '2024-01-01T24:00:00',
  '2024-01-01T23:60',
  '2024-01-01T10:00:00+25:00',
  '0000-01-01',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01',
  'Invalid Date',
  'yesterday',
  '1e400',
  '-1e400',
  '99999999999999999999',
  '-99999999999999999999.5',
  '2024-06-01T10:00:00.1234567891Z',
  '2024-W01',
  '20240101',
  ' 2024-01-01 ',
];

const hugeString = fc
  .tuple(fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }), fc.integer({ min: 1_000, max: 150_000 }))
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length));

const strings = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...tricks, ...invalidDates) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', '1', '0', '-1', '2147483648', '1.5', '2026-11-22T10:00') },
);

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 5e-324, 1e21, 8.64e12 + 1, 1.5),
);

const scalars = fc.oneof(strings, numbers, fc.boolean(), fc.constant(null));
const keys = fc.oneof(fc.constantFrom(...tricks), fc.string({ maxLength: 12 }));

const { value: anyValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalars,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(keys, tie('value'), { maxKeys: 4 }),
  ),
}));

/** A value of the type the field expects (still nasty inside), or of any type. */
function fieldValue(field: BodyField): fc.Arbitrary<unknown> {
  const typed: fc.Arbitrary<unknown>[] = [];
  if (field.types.includes('string')) typed.push(strings);
  if (field.types.includes('number') || field.types.includes('integer')) typed.push(numbers);
  if (field.types.includes('boolean')) typed.push(fc.boolean());
  if (field.types.includes('array')) typed.push(fc.array(anyValue, { maxLength: 5 }));
  if (field.types.includes('object')) typed.push(fc.dictionary(keys, anyValue, { maxKeys: 5 }));
  return typed.length > 0 ? fc.oneof(...typed, anyValue) : anyValue;
}

function bodyArbitrary(spec: RouteSpec): fc.Arbitrary<unknown> {
  const fields = bodyFields(spec);
  const fieldBody =
    fields.length === 0
      ? fc.dictionary(keys, anyValue, { maxKeys: 4 })
      : fc.subarray(fields, { minLength: 1, maxLength: Math.min(8, fields.length) }).chain((chosen) =>
          fc.tuple(...chosen.map(fieldValue)).map((values) => {
            const body: Record<string, unknown> = {};
            chosen.forEach((field, i) => {
              setPath(body, field.path, values[i]);
            });
            return body;
          }),
        );
  return fc.oneof({ weight: 8, arbitrary: fieldBody }, { weight: 1, arbitrary: anyValue });
}

const ids = () => fc.oneof(fc.constantFrom(...realIds), strings, fc.uuid({ version: 4 }));

const queryKeys = fc.constantFrom(
  'limit',
  'offset',
  'queryKey',
  'queryOp',
  'queryValue',
  'queryKey[]',
  'limit[a]',
  'x',
);
const queryValues = fc.oneof(
  strings,
  fc.constantFrom('==', '<', '<=', '>', '>=', 'like', '!=', '0', '1', '1000', '2001', '-1', '1e3', '00010'),
  fc.constantFrom('name', 'email', 'checkinAt', 'isInsideCompany', 'cardNumber', 'hostName', 'status', 'id', 'rowid'),
);
const query = fc.array(fc.tuple(queryKeys, queryValues), { maxLength: 6 });

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-99',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-16',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';;;',
];

const printable = fc.stringMatching(/^[\x20-\x7e]{0,80}$/);
const extraHeaders = fc.dictionary(
  fc.constantFrom('accept', 'accept-charset', 'x-forwarded-for', 'cookie', 'x-http-method-override', 'range', 'origin'),
  printable,
  { maxKeys: 3 },
);

/** qs-style form encoding of a body: `visit[id]=...&visitor[name]=...`. */
function formEncode(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') {
    return [`${percentEncode(prefix || 'value')}=${percentEncode(String(value))}`];
  }
  return Object.entries(value).flatMap(([key, child]) => formEncode(child, prefix ? `${prefix}[${key}]` : key));
}

type Encoding = 'json' | 'form' | 'duplicateKeys' | 'gzip' | 'gzipLie' | 'none';

function encodeBody(body: unknown, encoding: Encoding): { bytes?: Buffer; contentType?: string; extra?: object } {
  const json = JSON.stringify(body) ?? 'null';
  switch (encoding) {
    case 'json':
      return { bytes: Buffer.from(json), contentType: 'application/json' };
    case 'form':
      return { bytes: Buffer.from(formEncode(body).join('&')), contentType: 'application/x-www-form-urlencoded' };
    case 'duplicateKeys': {
      // The same keys again with other values: JSON.parse keeps the last, nothing may break on it.
      const doubled = json.startsWith('{') && json !== '{}' ? `${json.slice(0, -1)},${json.slice(1, -1)},"a":1}` : json;
      return { bytes: Buffer.from(doubled), contentType: 'application/json' };
    }
    case 'gzip':
      return {
        bytes: gzipSync(json),
        contentType: 'application/json',
        extra: { 'content-encoding': 'gzip' },
      };
    case 'gzipLie':
      return { bytes: Buffer.from(json), contentType: 'application/json', extra: { 'content-encoding': 'gzip' } };
    case 'none':
      return {};
  }
}

const otherMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

function requestArbitrary(spec: RouteSpec) {
  const params = pathParams(spec.path);
  return fc.record({
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constant(spec.method.toUpperCase()) },
      fc.constantFrom(...otherMethods),
    ),
    params: fc.tuple(...params.map(ids)),
    rawPath: fc.boolean(),
    query: spec.method === 'get' ? query : fc.constant([] as [string, string][]),
    body: spec.body ? bodyArbitrary(spec) : fc.option(anyValue, { freq: 3 }),
    encoding: fc.constantFrom<Encoding>('json', 'json', 'json', 'form', 'duplicateKeys', 'gzip', 'gzipLie', 'none'),
    contentType: fc.option(fc.constantFrom(...contentTypes), { freq: 4 }),
    headers: extraHeaders,
  });
}

/** A path parameter sent with only the bytes a request line cannot carry escaped: `../`, `%`, `?` and all. */
const rawSegment = (text: string): string =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) => (byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`))
    .join('');

// ---------------------------------------------------------------------------------------------------------------
// Generated cases, route by route

test('every route answers generated bad input with JSON, never a 5xx, never a hang', async () => {
  for (const spec of routes) {
    await fc.assert(
      fc.asyncProperty(requestArbitrary(spec), async (input) => {
        counts.cases++;
        const params = input.params as string[];
        let path = fillPath(spec.path, (_, i) => (input.rawPath ? rawSegment : percentEncode)(params[i] ?? ''));
        if (input.query.length > 0) {
          path += `?${input.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}`;
        }
        const encoded = input.body === null ? {} : encodeBody(input.body, input.encoding);
        const headers: Record<string, string> = { ...input.headers, authorization: `Bearer ${apiKey}` };
        const contentType = input.contentType ?? encoded.contentType;
        if (encoded.bytes && contentType) headers['content-type'] = contentType;
        Object.assign(headers, encoded.extra);
        const answer = await send(input.method, path, headers, encoded.bytes);
        const what = `${input.method} ${path.slice(0, 150)} ${input.encoding}`;
        checkAnswer(what, answer.status, answer.text, input.method, spec.produces, spec.redirects !== undefined);
      }),
      { numRuns: runsPerRoute, seed, endOnFailure: true, includeErrorInReport: true, reporter: shortReport },
    );
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Raw-socket cases: what an HTTP client library would refuse to send

const bodyRoutes = routes.filter((spec) => spec.body !== undefined);
const pathOf = (spec: RouteSpec) => fillPath(spec.path, (_, i) => realIds[i % realIds.length] ?? 'x');

function head(method: string, path: string, lines: string[]): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${apiKey}`, ...lines, '', ''].join(
    '\r\n',
  );
}

test('truncated, oversized, deeply nested and duplicate-key bodies on every route that takes a body', async () => {
  const deepArrays = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
  const deepObjects = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  for (const spec of bodyRoutes) {
    const method = spec.method.toUpperCase();
    const path = pathOf(spec);
    const json = ['Content-Type: application/json'];
    const what = (kind: string) => `${method} ${path} ${kind}`;

    // Cut short: the client promised 100 bytes, sent 10 and ended its side; or sent 10 and vanished.
    const cut = `${head(method, path, [...json, 'Content-Length: 100'])}{"name":"a`;
    checkRaw(what('truncated'), await rawExchange(port, cut, { afterWrite: 'half' }));
    await rawExchange(port, cut, { afterWrite: 'destroy' });
    counts.raw++;

    // Declared one byte over the limit: refused before a byte of the body is read.
    const over = head(method, path, [...json, `Content-Length: ${bodyLimit + 1}`, 'Connection: close']);
    assert.deepEqual(checkRaw(what('over the limit'), await rawExchange(port, over, { untilAnswer: true })), [
      [413, 'PAYLOAD_TOO_LARGE'],
    ]);

    for (const [kind, text] of [
      ['10,000 nested arrays', deepArrays],
      ['10,000 nested objects', deepObjects],
      ['10,000 nested arrays in every field', fieldsSetTo(spec, deepArrays)],
      ['duplicate keys', fieldsSetTo(spec, '1').replace(/^\{/, `{${fieldsSetTo(spec, '"x"').slice(1, -1)},`)],
      ['form nested 10,000 levels', `${'a'}${'[a]'.repeat(10_000)}=1`],
    ] as const) {
      const type = kind.startsWith('form') ? 'application/x-www-form-urlencoded' : 'application/json';
      const bytes = Buffer.from(text);
      const request = `${head(method, path, [`Content-Type: ${type}`, `Content-Length: ${bytes.length}`, 'Connection: close'])}`;
      checkRaw(what(kind), await rawExchange(port, Buffer.concat([Buffer.from(request), bytes])));
    }
  }
});

/** A JSON object with every top-level field of the route's body set to the given JSON text. */
function fieldsSetTo(spec: RouteSpec, jsonText: string): string {
  const top = [...new Set(bodyFields(spec).map((f) => f.path[0]))];
  return `{${top.map((key) => `${JSON.stringify(key)}:${jsonText}`).join(',')}}`;
}

test('bodies just over the limit are refused with 413 PAYLOAD_TOO_LARGE, however they are sent', async () => {
  const spec = bodyRoutes.find((r) => r.method === 'post') ?? bodyRoutes[0];
  assert.ok(spec);
  const path = pathOf(spec);
  const json = (size: number) => Buffer.from(`{"name":"${'x'.repeat(size - 11)}"}`);
  const sent = async (kind: string, headers: string[], body: Buffer) => {
    const request = Buffer.from(head('POST', path, ['Content-Type: application/json', ...headers]));
    return checkRaw(kind, await rawExchange(port, Buffer.concat([request, body]), { untilAnswer: true }));
  };
  const tooLarge = [[413, 'PAYLOAD_TOO_LARGE']];
  const justOver = json(bodyLimit + 1);
  assert.deepEqual(await sent('over', [`Content-Length: ${justOver.length}`], justOver), tooLarge);
  const atLimit = json(bodyLimit);
  const [[atLimitStatus] = []] = await sent('at the limit', [`Content-Length: ${atLimit.length}`], atLimit);
  assert.notEqual(atLimitStatus, 413, 'a body of exactly bodyLimit bytes is read');
  const size = Buffer.from(`${justOver.length.toString(16)}\r\n`);
  const chunked = Buffer.concat([size, justOver, Buffer.from('\r\n0\r\n\r\n')]);
  assert.deepEqual(await sent('over, chunked', ['Transfer-Encoding: chunked'], chunked), tooLarge);
  // A body limit of spaces compresses to a few kB: the limit counts the inflated bytes.
  const bomb = gzipSync(Buffer.concat([Buffer.from('{"name":"'), Buffer.alloc(bodyLimit, 0x20), Buffer.from('"}')]));
  assert.deepEqual(
    await sent('gzip bomb', ['Content-Encoding: gzip', `Content-Length: ${bomb.length}`], bomb),
    tooLarge,
  );
});

test('malformed requests and headers are answered with JSON or closed, and never break the service', async () => {
  const path = '/v1/hosts';
  const auth = `Authorization: Bearer ${apiKey}`;
  const cases: [string, string | Buffer][] = [
    [
      'two Content-Lengths',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    ],
    [
      'Content-Length and chunked',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      'chunked, identity',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`,
    ],
    [
      'bad chunk size',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ],
    ['negative Content-Length', `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Length: -1\r\n\r\n`],
    [
      'huge Content-Length',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Length: 99999999999999999999999\r\n\r\n`,
    ],
    ['invalid header name', `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nBad Header: 1\r\n\r\n`],
    ['header folded', `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nX-A: 1\r\n  continued\r\n\r\n`],
    ['header too large', `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['URL too long', `GET ${path}?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`],
    ['unknown method', `BREW ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`],
    ['garbage', '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http at all\r\n\r\n'],
    ['NUL in the URL', `GET /v1/host/a\x00b HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`],
    [
      'raw UTF-8 in the path',
      Buffer.concat([
        Buffer.from('GET /v1/host/'),
        Buffer.from('ç\u00ff😀', 'utf8'),
        Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\n`),
      ]),
    ],
    [
      'bad percent-encoding in the path',
      `GET /v1/host/%E0%A4%A HTTP/1.1\r\nHost: x\r\n${auth}\r\nConnection: close\r\n\r\n`,
    ],
    [
      'bad percent-encoding in the query',
      `GET /v1/hosts?limit=%E0%A4%A&queryKey=%ZZ HTTP/1.1\r\nHost: x\r\n${auth}\r\nConnection: close\r\n\r\n`,
    ],
    ['absolute-form URL', `GET http://evil.test/v1/hosts HTTP/1.1\r\nHost: x\r\n${auth}\r\nConnection: close\r\n\r\n`],
    ['HTTP/1.0 without Host', `GET ${path} HTTP/1.0\r\n${auth}\r\n\r\n`],
    ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['LF line endings', `GET ${path} HTTP/1.1\nHost: x\n${auth}\nConnection: close\n\n`],
    [
      'pipelined requests',
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\n\r\nGET /v1/nothing HTTP/1.1\r\nHost: x\r\n${auth}\r\nConnection: close\r\n\r\n`,
    ],
    [
      'Expect: 100-continue refused',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ],
    [
      'unsupported Content-Encoding',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Encoding: compress\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ],
    [
      'two Content-Types',
      `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    ],
    [
      'a body on GET',
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n[1,2]`,
    ],
    [
      'invalid UTF-8 in a JSON body',
      Buffer.concat([
        Buffer.from(
          `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 14\r\nConnection: close\r\n\r\n{"name":"`,
        ),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from('"}'),
      ]),
    ],
    [
      'UTF-16 JSON body',
      Buffer.concat([
        Buffer.from(
          `POST ${path} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n`,
        ),
        Buffer.from('{}', 'utf16le'),
      ]),
    ],
  ];
  for (const [what, bytes] of cases) {
    checkRaw(what, await rawExchange(port, bytes, { afterWrite: 'half' }));
  }
  const alive = await client(service.url, apiKey)('GET', '/v1/hosts?limit=1');
  assert.equal(alive.status, 200, 'the service still answers normal requests');
  assert.equal(service.process.exitCode, null);
  assert.equal(service.process.signalCode, null);
  assert.doesNotMatch(service.stderr(), /"level":50|internal error/, 'nothing reached the internal-error handler');
});

// ---------------------------------------------------------------------------------------------------------------
// Credentials last: wrong keys lock this client's address (429) for the rest of the minute.

test('bad, duplicated and non-ASCII credentials answer 401 or 429, as JSON', async () => {
  const wrongKeys = fc.oneof(
    printable,
    fc.constantFrom('Bearer', 'Basic', 'Bearer ', 'Basic !!!', `Bearer ${apiKey}x`, `Bearer  ${apiKey.slice(1)}`),
    printable.map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
    printable.map((s) => `Bearer ${s}`),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('authorization', 'authentication'), wrongKeys, async (header, value) => {
      counts.cases++;
      const answer = await send('GET', '/v1/hosts', { [header]: value });
      checkAnswer(`${header}: ${value}`, answer.status, answer.text);
      assert.ok([401, 429].includes(answer.status), `${header}: ${value} → ${answer.status}`);
    }),
    { numRuns: 60, seed, includeErrorInReport: true, reporter: shortReport },
  );
  assert.ok(counts.tooMany > 0, 'wrong keys from one address end in 429 TOO_MANY_REQUESTS');

  const auth = (value: string) => `Authorization: ${value}`;
  for (const [what, lines] of [
    ['wrong then right Authorization', [auth('Bearer wrong'), auth(`Bearer ${apiKey}`)]],
    ['right then wrong Authorization', [auth(`Bearer ${apiKey}`), auth('Bearer wrong')]],
    ['Latin-1 bytes in the key', [auth('Bearer \u00e9\u00ff\u00e0')]],
    ['15 kB key', [auth(`Bearer ${'k'.repeat(15_000)}`)]],
  ] as const) {
    const bytes = Buffer.from(
      `GET /v1/hosts HTTP/1.1\r\nHost: x\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`,
      'latin1',
    );
    checkRaw(what, await rawExchange(port, bytes));
  }
  assert.equal(service.process.exitCode, null, 'the service is alive');
});
