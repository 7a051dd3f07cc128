import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { frontDeskSession, insertCredential } from '../../local-api/credentials/store.ts';
import { rolesOf } from '../../local-api/http/routes.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { fillPath, specRoutes } from '../helpers/routes.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

/**
 * The role matrix, written out: every route a role other than admin may call. Admin may call every company
 * route; the device owner only its own. A route added without roles is the admin's alone, so this list changes
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
  'GET /visits/history',
  'GET /visits/export',
  'GET /visitortypes',
  'GET /visitortype/:id',
];

const expected: Record<string, readonly string[]> = {
  readonly: [...reads, 'GET /audit'],
  frontdesk: [
    ...reads,
    'PATCH /company',
    'POST /visits',
    'POST /visits/screen',
    'PATCH /visit/allow/:id',
    'PATCH /visit/deny/:id',
    'PATCH /visit/checkout/:id',
    'POST /visit/inviteeCheckin/:inviteeId',
    'POST /visit/inviteeCheckout/:inviteeId',
    'GET /visit/:id/qrcode',
    'POST /customfields',
    'PATCH /customfield/:id',
    'DELETE /customfield/:id',
    'POST /blockedlist',
    'PATCH /blockedlist/:id',
    'DELETE /blockedlist/:id',
    'POST /visitortypes',
    'PATCH /visitortype/:id',
    'DELETE /visitortype/:id',
    'PUT /company/logo',
    'DELETE /company/logo',
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
  ],
  kiosk: [
    'GET /sync/status',
    'GET /kiosk/settings',
    'POST /kiosk/pin/verify',
    'GET /visitortypes',
    'GET /visitortype/:id',
  ],
  sync: ['GET /sync/changes', 'POST /sync/push'],
  owner: ['GET /sync/upstream', 'PUT /sync/upstream'],
};

const routes = specRoutes().filter((spec) => spec.access !== 'public');
const name = (spec: { method: string; path: string }) => `${spec.method.toUpperCase()} ${spec.path}`;

let service: RunningService;
const keys: Record<string, string> = {};

before(async () => {
  service = await startService({
    port: 0,
    dataDir: tempDir(),
    logLevel: 'silent',
    backups: { intervalMs: 0, keep: 1 },
  });
  const { ctx } = service;
  const company = createCompany(ctx, { name: 'Acme', timezone: 'UTC' });
  keys.admin = company.apiKey;
  for (const role of ['readonly', 'kiosk', 'sync'] as const) {
    keys[role] = insertCredential(ctx, { companyId: company.id, role, label: role }).key;
  }
  keys.frontdesk = insertCredential(ctx, {
    companyId: company.id,
    role: 'frontdesk',
    label: 'Front desk',
    expiresAt: Date.now() + frontDeskSession.maxMs,
  }).key;
  keys.owner = insertCredential(ctx, { companyId: null, role: 'owner', label: 'Owner' }).key;
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
  assert.deepEqual(admin, routes.filter((spec) => spec.access !== 'owner').map(name), 'admin: every company route');
});

test('every route, called with every role, answers 403 FORBIDDEN exactly outside the role', async () => {
  let cells = 0;
  for (const [role, key] of Object.entries(keys)) {
    const call = client(service.url, key);
    const allowed = new Set(role === 'admin' ? routes.filter((s) => s.access !== 'owner').map(name) : expected[role]);
    for (const spec of routes) {
      const path = fillPath(spec.path, () => 'not-an-id');
      const reply = await call(spec.method.toUpperCase(), path, spec.method === 'get' ? undefined : {});
      const forbidden = reply.status === 403 && reply.body?.type === 'FORBIDDEN';
      assert.equal(
        forbidden,
        !allowed.has(name(spec)),
        `${role}: ${name(spec)} answered ${reply.status} ${JSON.stringify(reply.body)}`,
      );
      cells++;
    }
  }
  assert.equal(cells, routes.length * 6);
});

test('the OpenAPI document shows who may call each operation', async () => {
  const document = (await client(service.url)('GET', '/v1/openapi.json')).body;
  for (const spec of specRoutes()) {
    const operation = document.paths[fillPath(spec.path, (param) => `{${param}}`)][spec.method];
    assert.deepEqual(operation['x-roles'], rolesOf(spec), name(spec));
    assert.match(operation.description, spec.access === 'public' ? /no credential/ : /Roles: |device owner/);
  }
});
