import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deleteAccessConfig, saveAccessConfig } from '../../local-api/access/store.ts';
import { updateCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { eventNames } from '../../local-api/events.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost, deleteHost, updateHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { validate } from '../../local-api/http/fields.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee, deleteInvitee, updateInvitee } from '../../local-api/invitees/store.ts';
import { deleteNotificationSettings } from '../../local-api/notifications/settings.ts';
import { eraseVisitor, saveRetention } from '../../local-api/privacy/store.ts';
import { hubManagedRefusal } from '../../local-api/sync/listener.ts';
import { isKioskWrite } from '../../local-api/sync/mutations.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import {
  authorizeVisit,
  checkinWalkIn,
  checkoutVisit,
  deleteVisit,
  updateVisit,
} from '../../local-api/visits/store.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * On a kiosk, a write to data its hub owns is refused before it runs (docs/sync.md, "Who writes what"):
 * the decision is `hubManagedRefusal`, asked by every write through `ctx.events.decide` once its input is checked.
 */

const rejectsWith = (type: string) => (error: unknown) => error instanceof ApiError && error.type === type;

test("the rule: a kiosk makes its own check-ins, check-outs and decisions; every other write of its hub's company is the hub's", () => {
  const kiosk = { upstreamUrl: 'http://hub.test', companyId: 'acme' };
  assert.deepEqual(eventNames.filter(isKioskWrite), [
    'visit.checkin',
    'visit.checkout',
    'visit.allowed',
    'visit.denied',
    'invitee.arrived',
    'visitor.deleted',
    'privacy.retention.swept',
  ]);
  for (const name of eventNames) {
    assert.equal(hubManagedRefusal(name, 'acme', kiosk), isKioskWrite(name) ? null : 'MANAGED_BY_HUB', name);
    assert.equal(hubManagedRefusal(name, 'front-desk', kiosk), null, `${name}: a company of the kiosk's own`);
    assert.equal(hubManagedRefusal(name, 'acme', { upstreamUrl: null, companyId: null }), null, `${name}: a hub`);
  }
});

/** SQLite's count of rows written since the database opened, rolled-back ones included. */
const rowsWritten = async (ctx: Context) =>
  ((await ctx.db.prepare('SELECT total_changes() AS n').get()) as { n: number }).n;

test('a write the hub owns is refused on a kiosk before it changes anything, with 409 MANAGED_BY_HUB', async () => {
  const fixture = await syncFixture();
  const { hub, hubCaller, company } = fixture;
  const ana = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  const invitee = await createInvitee(
    hub,
    hubCaller,
    validate(inviteeCreateInput, { name: 'Ivo', email: 'ivo@x.test', hostId: ana.id, expectedAt: 1_800_000_000 }),
  );
  const kiosk = fixture.kiosks[0]?.ctx as Context;
  await fixture.pull(kiosk);
  const caller = await kioskAdminOf(kiosk, company.id);
  const visitId = '00000000-0000-4000-8000-000000000001';
  await checkinWalkIn(kiosk, caller, validate(visitCreateInput, { visit: { id: visitId }, visitor: { name: 'Erin' } }));

  const refused: [string, () => Promise<unknown>][] = [
    [
      'host.created',
      async () => await createHost(kiosk, caller, validate(hostCreateInput, { name: 'B', email: 'b@acme.test' })),
    ],
    ['host.updated', async () => await updateHost(kiosk, caller, ana.id, { name: 'Ana Souza' })],
    ['host.deleted', async () => await deleteHost(kiosk, caller, ana.id)],
    ['invitee.updated', async () => await updateInvitee(kiosk, caller, invitee.id, { name: 'Ivo Lima' })],
    ['invitee.deleted', async () => await deleteInvitee(kiosk, caller, invitee.id)],
    ['visit.updated', async () => await updateVisit(kiosk, caller, visitId, { visit: { notes: 'changed' } })],
    ['visit.deleted', async () => await deleteVisit(kiosk, caller, visitId)],
    ['company.updated', async () => await updateCompany(kiosk, caller, { name: 'Acme Ltd' })],
    ['access.updated', async () => await saveAccessConfig(kiosk, caller, { enabled: true })],
    ['access.deleted', async () => await deleteAccessConfig(kiosk, caller)],
    ['notifications.settings.deleted', async () => await deleteNotificationSettings(kiosk, caller)],
    ['privacy.retention.updated', async () => await saveRetention(kiosk, caller, 30)],
    ['privacy.erased', async () => await eraseVisitor(kiosk, caller, { name: 'Erin', email: 'erin@x.test' })],
  ];
  for (const [name, write] of refused) {
    const before = await rowsWritten(kiosk);
    await assert.rejects(write, rejectsWith('MANAGED_BY_HUB'), name);
    assert.equal(await rowsWritten(kiosk), before, `${name}: refused before its first change, not rolled back after`);
  }

  // The kiosk's own writes still run, and still reach the hub as mutations.
  await checkoutVisit(kiosk, caller, visitId, {});
  await authorizeVisit(kiosk, caller, visitId, 'ALLOWED', {});
  assert.deepEqual(
    (await fixture.push(kiosk))?.results.map((outcome) => outcome.result),
    ['applied', 'applied', 'applied'],
  );
});

test('a write that skipped the rule fails on a kiosk instead of going unrecorded', async () => {
  const fixture = await syncFixture();
  const kiosk = fixture.kiosks[0]?.ctx as Context;
  await fixture.pull(kiosk);
  const caller = await kioskAdminOf(kiosk, fixture.company.id);
  await assert.rejects(
    async () => await kiosk.events.publish('host.created', caller, () => ({ id: 'h' })),
    (error: unknown) =>
      error instanceof Error && !(error instanceof ApiError) && /ctx\.events\.decide/.test(error.message),
  );
});
