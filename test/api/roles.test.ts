import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { frontDeskSession, insertCredential } from '../../local-api/credentials/store.ts';
import { rolesOf } from '../../local-api/http/routes.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { type Person, type Session, signedInPerson, signIn } from '../helpers/accounts.ts';
import { fillPath, specRoutes } from '../helpers/routes.ts';
import { client, removeDir, repoRoot, tempDir } from '../helpers/service.ts';

/**
 * The role matrix, written out: every route a role other than admin may call (docs/security.md, "People's roles"
 * for the people's roles manager, security and host). Admin may call every company
 * route but the one that ends a front-desk session (it revokes the credential making the request); the device
 * owner only its own. A route added without roles is the admin's alone, so this list changes
 * only when someone grants a role something, on purpose.
 */
const reads = [
  'GET /company',
  'GET /hosts',
  'GET /host/:id',
  'GET /meetings',
  'GET /meeting/:id',
  'GET /invitees',
  'GET /invitee/:id',
  'GET /visits',
  'GET /visit/:id',
  'GET /visitors',
  'GET /visitor/:id',
  'GET /customfields',
  'GET /customfield/:id',
  'GET /blockedlist',
  'GET /blockedlist/:id',
  'GET /notifications',
  'GET /notification/:id',
  'GET /files/:name',
  'GET /sync/rejections',
  'GET /sync/status',
  'GET /integration/access/status',
  'GET /webhooks/status',
  'GET /privacy/retention',
  'GET /kiosk/settings',
  'GET /roster',
  'GET /roster/check',
  'GET /today',
  'GET /console/events',
  'GET /visits/history',
  'GET /visits/export',
  'GET /visitortypes',
  'GET /visitortype/:id',
  'GET /kiosk/company',
  'GET /hosts/directory',
];

/** Inviting: the admin and the front desk for every host, the people's roles for themselves. */
const inviting = [
  'POST /invitees',
  'POST /invitees/bulk',
  'PATCH /invitee/:id',
  'PUT /invitee/:id/picture',
  'DELETE /invitee/:id',
  'POST /invitee/:id/resend',
  'POST /meetings',
  'PATCH /meeting/:id',
  'DELETE /meeting/:id',
];

const deciding = ['PATCH /visit/allow/:id', 'PATCH /visit/deny/:id'];

/** A person signed in to the console (docs/console.md): their own account. */
const account = [
  'POST /account/sign-out',
  'GET /account/me',
  'GET /account/sessions',
  'DELETE /account/sessions/:id',
  'DELETE /account/sessions',
  'PUT /account/password',
];

/** The desk's work on every visitor: the front desk's and security's. */
const desk = [
  ...deciding,
  'POST /visits',
  'POST /visits/screen',
  'PATCH /visit/checkout/:id',
  'POST /visit/inviteeCheckin/:inviteeId',
  'POST /visit/inviteeCheckout/:inviteeId',
  'GET /visit/:id/qrcode',
  'POST /blockedlist',
  'PATCH /blockedlist/:id',
  'DELETE /blockedlist/:id',
  'POST /roster/check',
  'PUT /roster/check/:visitId',
  'DELETE /roster/check/:visitId',
];

/** The company's figures (docs/console.md, "Analytics"): the admin and managers. */
const analytics = ['GET /analytics', 'GET /analytics/hosts', 'GET /analytics/export'];

const expected: Record<string, readonly string[]> = {
  readonly: [...reads, 'GET /audit', 'GET /accounts'],
  frontdesk: [
    ...reads,
    ...desk,
    ...inviting,
    'PATCH /company',
    'POST /customfields',
    'PATCH /customfield/:id',
    'DELETE /customfield/:id',
    'POST /visitortypes',
    'PATCH /visitortype/:id',
    'DELETE /visitortype/:id',
    'PUT /company/logo',
    'DELETE /company/logo',
    'PUT /company/welcome',
    'DELETE /company/welcome',
    'GET /integration/notifications',
    'POST /integration/notifications',
    'POST /integration/notifications/test',
    'GET /integration/notifications/deliveries',
    'GET /integration/access',
    'POST /integration/access',
    'POST /sync/run',
    'PATCH /kiosk/settings',
    'POST /kiosk/pin',
    'POST /kiosk/pin/verify',
    'DELETE /kiosk/frontdesk',
    ...account,
    'GET /accounts',
  ],
  manager: [...reads, ...account, 'GET /audit', 'GET /accounts', ...inviting, ...deciding, ...analytics],
  security: [...reads, ...account, 'GET /accounts', ...desk, ...inviting],
  host: [
    ...account,
    'GET /company',
    'GET /hosts/directory',
    'GET /customfields',
    'GET /customfield/:id',
    'GET /visitortypes',
    'GET /visitortype/:id',
    'GET /invitees',
    'GET /invitee/:id',
    'GET /meetings',
    'GET /meeting/:id',
    'GET /visits',
    'GET /visit/:id',
    'GET /files/:name',
    'GET /today',
    'GET /console/events',
    'GET /visits/history',
    'GET /visits/export',
    ...inviting,
    ...deciding,
  ],
  kiosk: [
    'GET /sync/status',
    'GET /kiosk/settings',
    'POST /kiosk/pin/verify',
    'GET /visitortypes',
    'GET /visitortype/:id',
    'GET /customfields',
    'GET /customfield/:id',
    'GET /kiosk/company',
    'POST /kiosk/frontdesk',
    'GET /kiosk/hosts',
    'POST /kiosk/walkin',
    'POST /kiosk/screen',
    'POST /kiosk/invitees/find',
    'POST /kiosk/invitee/checkin',
    'GET /kiosk/visit/:id',
    'GET /kiosk/visit/:id/qrcode',
    'POST /kiosk/checkout/find',
    'POST /kiosk/checkout',
    'POST /kiosk/returning/find',
    'POST /kiosk/returning/code',
    'POST /kiosk/returning/verify',
  ],
  sync: ['GET /sync/changes', 'GET /sync/pokes', 'POST /sync/push'],
  owner: [
    'GET /sync/upstream',
    'PUT /sync/upstream',
    'GET /companies',
    'POST /companies',
    'GET /device',
    'PUT /device/enrolment',
  ],
};

const routes = (await specRoutes()).filter((spec) => spec.access !== 'public');
const name = (spec: { method: string; path: string }) => `${spec.method.toUpperCase()} ${spec.path}`;
const adminRoutes = routes
  .filter((s) => s.access !== 'owner')
  .map(name)
  .filter((r) => r !== 'DELETE /kiosk/frontdesk');

/** Routes that answer an event stream: its body never ends, so a test reads its status only. */
const streams = new Set(routes.filter((spec) => spec.produces?.includes('text/event-stream')).map(name));

/** An event stream's status, and its JSON body when it is refused; an open stream is closed at once. */
async function streamAnswer(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: { type?: string } }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  if (response.status !== 200) return { status: response.status, body: await response.json() };
  controller.abort();
  return { status: response.status, body: {} };
}

let service: RunningService;
const keys: Record<string, string> = {};
let frontDeskKey: () => Promise<string>;

/** The people's roles exist only as console sessions: each walked by a person made once, signed in. */
const personRoles = { manager: 'MANAGER', security: 'SECURITY', host: 'HOST' } as const;
const people: Record<string, Person & { session: Session }> = {};

before(async () => {
  service = await startService({
    port: 0,
    dataDir: tempDir(),
    logLevel: 'silent',
    backups: { intervalMs: 0, keep: 1 },
  });
  const { ctx } = service;
  const company = await createCompany(ctx, { name: 'Acme', timezone: 'UTC' });
  keys.admin = company.apiKey;
  for (const role of ['readonly', 'kiosk', 'sync'] as const) {
    keys[role] = (await insertCredential(ctx, { companyId: company.id, role, label: role })).key;
  }
  frontDeskKey = async () =>
    (
      await insertCredential(ctx, {
        companyId: company.id,
        role: 'frontdesk',
        label: 'Front desk',
        expiresAt: Date.now() + frontDeskSession.maxMs,
      })
    ).key;
  keys.frontdesk = await frontDeskKey();
  keys.owner = (await insertCredential(ctx, { companyId: null, role: 'owner', label: 'Owner' })).key;
  for (const [role, personRole] of Object.entries(personRoles)) {
    people[role] = await signedInPerson(service.url, company.apiKey, { role: personRole });
  }
});
after(async () => {
  await service.close();
  removeDir(service.ctx.dataDir);
});

test('the declared matrix is the one written out here', () => {
  for (const role of Object.keys(expected)) {
    const declared = routes.filter((spec) => rolesOf(spec).includes(role as never)).map(name);
    assert.deepEqual(declared.sort(), [...(expected[role] ?? [])].sort(), `routes of ${role}`);
  }
  const admin = routes.filter((spec) => rolesOf(spec).includes('admin')).map(name);
  assert.deepEqual(admin, adminRoutes, 'admin: every company route');
});

test('every route, called with every role, answers 403 FORBIDDEN exactly outside the role', async () => {
  let cells = 0;
  for (const role of [...Object.keys(keys), ...Object.keys(people)]) {
    // A session made now: the admin's walk cleared the PIN, which ends the front desk's sessions.
    const key = role === 'frontdesk' ? await frontDeskKey() : (keys[role] as string);
    const person = people[role];
    const allowed = new Set(role === 'admin' ? adminRoutes : expected[role]);
    for (const spec of routes) {
      // Ending a front-desk session revokes the credential that asks, and signing out ends the person's session:
      // a session of its own, not the one walking.
      const ending =
        (role === 'frontdesk' && name(spec) === 'DELETE /kiosk/frontdesk') ||
        (person !== undefined && name(spec) === 'POST /account/sign-out');
      const call = person
        ? (ending ? await signIn(service.url, person.email, person.password) : person.session).call
        : client(service.url, ending ? await frontDeskKey() : key);
      const path = fillPath(spec.path, () => 'not-an-id');
      const credentials: Record<string, string> = person
        ? { cookie: person.session.cookie }
        : { authorization: `Bearer ${key}` };
      const reply = streams.has(name(spec))
        ? await streamAnswer(`${service.url}${path}`, credentials)
        : await call(spec.method.toUpperCase(), path, spec.method === 'get' ? undefined : {});
      const forbidden = reply.status === 403 && reply.body?.type === 'FORBIDDEN';
      assert.equal(
        forbidden,
        !allowed.has(name(spec)),
        `${role}: ${name(spec)} answered ${reply.status} ${JSON.stringify(reply.body)}`,
      );
      cells++;
    }
  }
  assert.equal(cells, routes.length * 9);
});

test('the OpenAPI document shows who may call each operation', async () => {
  const document = (await client(service.url)('GET', '/v1/openapi.json')).body;
  for (const spec of await specRoutes()) {
    const operation = document.paths[fillPath(spec.path, (param) => `{${param}}`)][spec.method];
    assert.deepEqual(operation['x-roles'], rolesOf(spec), name(spec));
    assert.match(operation.description, spec.access === 'public' ? /no credential/ : /Roles: |device owner/);
  }
});

test("docs/security.md's matrix is the routes' own", () => {
  const columns = ['admin', 'readonly', 'frontdesk', 'manager', 'security', 'host', 'kiosk', 'sync', 'owner'] as const;
  const table = [
    `| route | ${columns.join(' | ')} |`,
    `| --- |${columns.map(() => ' :-: |').join('')}`,
    ...routes.map((spec) => {
      const cells = columns.map((role) => (rolesOf(spec).includes(role) ? '✓' : ''));
      return `| \`${spec.method.toUpperCase()} /v1${spec.path}\` | ${cells.join(' | ')} |`;
    }),
  ].join('\n');
  const doc = readFileSync(join(repoRoot, 'docs/security.md'), 'utf8');
  const documented = /<!-- role-matrix -->\n([\s\S]*?)\n<!-- \/role-matrix -->/.exec(doc)?.[1];
  assert.equal(documented, table, `docs/security.md should read:\n${table}`);
});

test("docs/api.md's list of what the kiosk credential may call is the routes' own", () => {
  const doc = readFileSync(join(repoRoot, 'docs/api.md'), 'utf8');
  const listed = /<!-- kiosk-routes -->\n([\s\S]*?)\n<!-- \/kiosk-routes -->/.exec(doc)?.[1] ?? '';
  const documented = [...listed.matchAll(/`([A-Z]+) \/v1(\/[^`]*)`/g)].map(([, method, path]) => `${method} ${path}`);
  const declared = routes.filter((spec) => rolesOf(spec).includes('kiosk')).map(name);
  assert.deepEqual(documented.sort(), declared.sort());
});
