import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import type { RouteSpec } from '../../local-api/http/routes.ts';
import { pngBytes } from '../helpers/files.ts';
import { bodyFields, fillPath, pathParams, percentEncode, setPath, specRoutes } from '../helpers/routes.ts';
import { allowLoopback, client, type Reply, startService, type TestService } from '../helpers/service.ts';

/*
 * Company B walks every route of v1Routes against company A's ids, replays A's own writes, and queries A's values.
 * Nothing of A may be read (B's answers hold none of A's ids or values it did not send itself), changed or deleted
 * (every row A owns in the database is byte-identical afterwards).
 */

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

interface Company {
  id: string;
  api: ReturnType<typeof client>;
  /** Every write it made, to be replayed by the other company. */
  writes: Sent[];
  /** Every id its answers carried. */
  ids: Set<string>;
}

const run = randomBytes(4).toString('hex');
/** A value only this company's data holds: `a<run>hostname` and the like, found again in any answer by a regex. */
const token = (letter: string, field: string) => `${letter}${run}${field}`;
const tokensOf = (letter: string) => new RegExp(`${letter}${run}[a-z]+`, 'g');

const routes = await specRoutes();
let service: TestService;
let a: Company;
let b: Company;

/** Ids have 9 characters at least (custom fields'); shorter values of `…Id` fields are names (`default`). */
const isIdLike = (value: unknown): value is string => typeof value === 'string' && value.length >= 9;

function collectIds(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectIds(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if ((key === 'id' || key.endsWith('Id')) && isIdLike(child)) into.add(child);
      else collectIds(child, into);
    }
  }
}

async function call(company: Company, method: string, path: string, body?: unknown): Promise<Reply> {
  const reply = await company.api(method, path, body);
  if (method !== 'GET') company.writes.push({ method, path, body });
  collectIds(reply.body, company.ids);
  return reply;
}

/** One of each resource, through the API, every text field carrying the company's tokens. */
async function populate(company: Company, letter: string): Promise<void> {
  const t = (field: string) => token(letter, field);
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await call(company, method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const host = await ok('POST', '/v1/hosts', {
    name: t('hostname'),
    email: `${t('hostmail')}@iso.test`,
    position: t('hostposition'),
    phone: '11 98765-4321',
    countryCode: '+55',
  });
  const invitee = await ok('POST', '/v1/invitees', {
    name: t('inviteename'),
    email: `${t('inviteemail')}@iso.test`,
    document: t('inviteedoc'),
    notes: t('inviteenotes'),
    hostId: host.id,
    expectedAt: '2030-01-01T10:00',
    requiresAuthorization: true,
  });
  const arriving = await ok('POST', '/v1/invitees', {
    name: t('arrivingname'),
    email: `${t('arrivingmail')}@iso.test`,
    hostId: host.id,
    expectedAt: '2030-01-01T11:00',
  });
  const checkin = await ok('POST', `/v1/visit/inviteeCheckin/${arriving.id}`, {
    id: randomUUID(),
    notes: t('checkinnotes'),
  });
  await ok('PATCH', `/v1/visit/allow/${checkin.id}`, { authorizedById: host.id });
  const walkIn = {
    visit: { id: randomUUID(), hostId: host.id, notes: t('walknotes') },
    visitor: { name: t('walkname'), email: `${t('walkmail')}@iso.test`, document: t('walkdoc'), company: t('walkco') },
  };
  const visit = await ok('POST', '/v1/visits', walkIn);
  await ok('PATCH', `/v1/visit/${visit.id}`, { visit: { notes: t('updatednotes') } });
  const leaving = await ok('POST', '/v1/visits', { ...walkIn, visit: { ...walkIn.visit, id: randomUUID() } });
  await ok('PATCH', `/v1/visit/checkout/${leaving.id}`, { checkoutByHostId: host.id });
  const field = await ok('POST', '/v1/customfields', { name: t('fieldname'), type: 'Text' });
  const pictured = await ok('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId: host.id, customFields: [{ customFieldId: field.id, value: t('answer') }] },
    visitor: { name: t('picturedname'), email: `${t('walkmail')}@iso.test` },
    visitPicture: pngBytes().toString('base64'),
  });
  // A's file, by the name its URL gives: B must not open it either.
  company.ids.add(basename(pictured.pictureUrl));
  await ok('POST', '/v1/meetings', {
    title: t('meetingtitle'),
    guests: [`${t('guestmail')}@iso.test`],
    start: '2030-01-02T10:00',
    end: '2030-01-02T11:00',
    location: t('meetinglocation'),
    type: 'MEETING',
    hostId: host.id,
  });
  await ok('POST', '/v1/blockedlist', { name: t('blockedname'), email: `${t('blockedmail')}@iso.test` });
  await ok('POST', '/v1/notifications', { type: 'visit', message: t('message'), hosts: [host.id] });
  // Inactive: its deliveries would be retried (and their rows changed by the worker) while B walks.
  await ok('POST', '/v1/webhooks', {
    url: `http://127.0.0.1:9/${t('hookurl')}`,
    events: ['visit.checkout'],
    secret: t('webhooksecret'),
    isActive: false,
  });
  // Last, so that no check-in before it queued a gate callback.
  await ok('POST', '/v1/integration/access', {
    enabled: true,
    aesKey: t('aeskey'),
    username: t('gateuser'),
    password: t('gatepassword'),
    url: 'http://127.0.0.1:9/gate',
  });
  await ok('PUT', '/v1/privacy/retention', { retentionDays: 3650 });
  await ok('POST', '/v1/privacy/erasure', { email: `${t('nobody')}@iso.test` });
  assert.ok(invitee.id);
}

before(async () => {
  // The tenants' webhooks and gate point at loopback, which the device owner allows here.
  service = await startService({ args: allowLoopback });
  const company = async (name: string): Promise<Company> => {
    const { id, apiKey } = await service.company(name);
    return { id, api: client(service.url, apiKey), writes: [], ids: new Set() };
  };
  a = await company('Alpha');
  b = await company('Bravo');
  await populate(a, 'a');
  await populate(b, 'b');
  a.ids.delete(a.id);
});
after(() => service.stop());

type Snapshot = Map<string, Set<string>>;

/** What the job worker changes on its own (attempts, retries): not B's doing, so left out of the comparison. */
const workerColumns: Readonly<Record<string, readonly string[]>> = {
  jobs: ['status', 'attempts', 'nextAttemptAt', 'lastError', 'updatedAt'],
};

/** Every row of every table, as JSON, read beside the running service. */
function snapshot(): Snapshot {
  const db = new Database(join(service.dataDir, 'portaria.db'), { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as {
      name: string;
    }[];
    return new Map(
      tables.map(({ name }) => [
        name,
        new Set(
          (db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]).map((row) => {
            for (const column of workerColumns[name] ?? []) delete row[column];
            return JSON.stringify(row);
          }),
        ),
      ]),
    );
  } finally {
    db.close();
  }
}

/** Who a row belongs to: its companyId, or for a company its own id. */
function ownerOf(table: string, json: string): string | undefined {
  const row = JSON.parse(json) as { companyId?: string; id?: string };
  return table === 'companies' ? row.id : row.companyId;
}

const counts = { requests: 0, refused: 0, statuses: new Map<number, number>() };

/** The bodies of B's writes that were accepted: what B stored may come back later (its own company object). */
const storedByB: string[] = [];

/**
 * What B may see: no object of A (by id or company), and no token of A's data or id of A's that B's own request
 * did not carry (a write may echo what it was sent), or that an accepted write of B's stored before.
 */
function checkAnswer(sent: Sent, reply: Reply, strictTokens: boolean): void {
  counts.requests++;
  counts.statuses.set(reply.status, (counts.statuses.get(reply.status) ?? 0) + 1);
  const what = `${sent.method} ${sent.path} ${JSON.stringify(sent.body ?? '').slice(0, 200)}`;
  assert.ok(reply.status < 500, `${what}: ${reply.status}`);
  const objectsOf = (value: unknown): Record<string, unknown>[] => {
    if (Array.isArray(value)) return value.flatMap(objectsOf);
    if (value === null || typeof value !== 'object') return [];
    return [value as Record<string, unknown>, ...Object.values(value).flatMap(objectsOf)];
  };
  for (const object of objectsOf(reply.body)) {
    assert.ok(!(typeof object.id === 'string' && a.ids.has(object.id)), `${what} answered A's object ${object.id}`);
    assert.notEqual(object.companyId, a.id, `${what} answered an object of company A`);
    assert.notEqual(object.company, a.id, `${what} answered an object of company A`);
  }
  if (!strictTokens) return;
  const request = `${sent.path} ${JSON.stringify(sent.body ?? null)}\n${storedByB.join('\n')}`;
  if (sent.method !== 'GET' && reply.status === 200) storedByB.push(JSON.stringify(sent.body ?? null));
  const answer = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  for (const found of answer.match(tokensOf('a')) ?? []) {
    assert.ok(request.includes(found), `${what} answered A's value ${found}`);
  }
  for (const id of [...a.ids, a.id]) {
    assert.ok(!answer.includes(id) || request.includes(id), `${what} answered A's id ${id}`);
  }
}

const routeOf = (method: string, path: string): RouteSpec | undefined =>
  routes.find(
    (spec) =>
      spec.method.toUpperCase() === method &&
      new RegExp(`^/v1${spec.path.replace(/:\w+/g, '[^/]+')}$`).test(path.split('?')[0] ?? ''),
  );

/** The requests B makes on one route: A's ids in every parameter, A's ids in every id field of the body. */
function attacksOn(spec: RouteSpec): Sent[] {
  const method = spec.method.toUpperCase();
  const params = pathParams(spec.path);
  const paths =
    params.length === 0 ? [fillPath(spec.path, () => '')] : [...a.ids].map((id) => fillPath(spec.path, () => id));
  if (method === 'GET') {
    if (params.length > 0) return paths.map((path) => ({ method, path }));
    const values = [
      ...a.ids,
      a.id,
      `${token('a', 'walkmail')}@iso.test`,
      token('a', 'walkname'),
      token('a', 'hostname'),
    ];
    const keys = ['id', 'name', 'email', 'hostId', 'inviteeId', 'company', 'companyId', 'objectId', 'document'];
    const queries = keys.flatMap((key) =>
      values.map((value) => `?queryKey=${key}&queryOp===&queryValue=${percentEncode(value)}`),
    );
    return ['', '?limit=1000', ...queries].map((query) => ({ method, path: `${paths[0]}${query}` }));
  }
  if (params.length > 0) return paths.map((path) => ({ method, path, body: spec.body ? {} : undefined }));
  // A's own body for this route, with fresh ids of its own, then each id-like field set to each of A's ids.
  const own = a.writes.find((w) => routeOf(w.method, w.path) === spec)?.body;
  const base = JSON.parse(JSON.stringify(own ?? {}).replace(/"id":"[^"]*"/g, () => `"id":"${randomUUID()}"`));
  const idFields = bodyFields(spec).filter(
    (f) => /id$/i.test(f.path[f.path.length - 1] ?? '') && f.types.includes('string'),
  );
  const bodies = [{}, base];
  for (const field of idFields) {
    for (const id of [...a.ids, a.id]) {
      const body = structuredClone(base);
      setPath(body, field.path, id);
      bodies.push(body);
    }
  }
  return bodies.map((body) => ({ method, path: paths[0] ?? '', body }));
}

test("company B reads, changes and deletes nothing of company A's, on every route", async () => {
  assert.ok(a.ids.size >= 6, `A has objects of every kind: ${a.ids.size} ids`);
  const before = snapshot();
  const reads = routes.filter((spec) => spec.method === 'get');
  const writes = routes.filter((spec) => spec.method !== 'get');

  const attempt = async (sent: Sent, strictTokens: boolean, paramsOfA: boolean) => {
    const reply = await b.api(sent.method, sent.path, sent.body);
    checkAnswer(sent, reply, strictTokens);
    if (paramsOfA) {
      assert.ok(reply.status >= 400, `${sent.method} ${sent.path}: B got ${reply.status} on A's id`);
      counts.refused++;
      if (sent.method === 'GET') assert.deepEqual([reply.status, reply.body], [404, { type: 'NOT_FOUND' }]);
    }
  };

  // Reads first, while B's data holds nothing copied from A: every token of A in an answer would be a leak.
  for (const spec of reads) {
    for (const sent of attacksOn(spec)) await attempt(sent, true, pathParams(spec.path).length > 0);
  }
  // Writes: every route with A's ids, then A's own writes replayed word for word.
  for (const spec of writes) {
    for (const sent of attacksOn(spec)) await attempt(sent, true, pathParams(spec.path).length > 0);
  }
  for (const sent of a.writes) {
    const params = routeOf(sent.method, sent.path);
    await attempt(sent, true, params !== undefined && pathParams(params.path).length > 0);
  }
  // Reads again: B now holds copies of A's values it sent, but still no object of A's.
  for (const spec of reads) {
    for (const sent of attacksOn(spec)) await attempt(sent, false, pathParams(spec.path).length > 0);
  }

  const seesOwn = await b.api('GET', '/v1/hosts');
  assert.ok(JSON.stringify(seesOwn.body).includes(token('b', 'hostname')), 'B still sees its own data');

  const afterwards = snapshot();
  for (const [table, rows] of before) {
    const now = afterwards.get(table) ?? new Set<string>();
    for (const row of rows) {
      if (!now.has(row)) assert.equal(ownerOf(table, row), b.id, `${table}: a row not B's changed or went: ${row}`);
    }
    for (const row of now) {
      if (!rows.has(row)) assert.equal(ownerOf(table, row), b.id, `${table}: a row not B's appeared: ${row}`);
    }
  }

  const statuses = [...counts.statuses].sort(([x], [y]) => x - y).map(([s, n]) => `${s}×${n}`);
  console.log(
    `isolation: ${counts.requests} requests by company B over ${routes.length} routes against ${a.ids.size} ids of ` +
      `company A (${counts.refused} on A's ids, all refused); A's rows unchanged; statuses ${statuses.join(' ')}`,
  );
});
