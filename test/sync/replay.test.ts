import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCallbackKind, gateCallbackListener } from '../../local-api/access/gate-callback.ts';
import { saveAccessConfig } from '../../local-api/access/store.ts';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { validate } from '../../local-api/http/fields.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee, getInvitee, updateInvitee } from '../../local-api/invitees/store.ts';
import { eraseVisitor, findRetention, saveRetention, sweepCompany } from '../../local-api/privacy/store.ts';
import { queueStatus } from '../../local-api/queue/queue.ts';
import { pendingBatch, pendingSummary } from '../../local-api/sync/outbox.ts';
import { applyPush } from '../../local-api/sync/push.ts';
import { syncState } from '../../local-api/sync/state.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import {
  authorizeVisit,
  checkinInvitee,
  checkinWalkIn,
  checkoutVisit,
  deleteVisit,
  getVisit,
} from '../../local-api/visits/store.ts';
import { callerOf, kioskAdminOf, syncFixture } from '../helpers/sync.ts';

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const walkIn = (id: string, name = 'Walk In') => validate(visitCreateInput, { visit: { id }, visitor: { name } });
const rejectsWith = (type: string) => (error: unknown) => error instanceof ApiError && error.type === type;

/** A walk-in's mutation as a kiosk pushes it. */
const checkinMutation = (id: number, visit: string) => ({
  id,
  name: 'visit.checkin',
  hlc: `00${Date.UTC(2026, 0, 1)}-0000-k`,
  args: { visit: { id: visit }, visitor: { name: 'V' } } as Record<string, unknown>,
});

async function visitRows(ctx: Context) {
  return await ctx.db
    .prepare(
      `SELECT id, inviteeId, name, checkinAt, checkoutAt, isInsideCompany, authorizationStatus, authorizedAt,
         statusNote, cardNumber FROM visits ORDER BY id`,
    )
    .all();
}

/** A hub with a host and one kiosk that has pulled it. */
async function withKiosk(kiosks = 1) {
  const fixture = await syncFixture({ kiosks });
  const { hub, hubCaller } = fixture;
  const ana = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  for (const k of fixture.kiosks) await fixture.pull(k.ctx);
  const kioskCaller = async (ctx: Context) => await kioskAdminOf(ctx, fixture.company.id);
  const invite = async (email: string) =>
    await createInvitee(
      hub,
      hubCaller,
      validate(inviteeCreateInput, { name: email, email, hostId: ana.id, expectedAt: 1_800_000_000 }),
    );
  return { ...fixture, ana, kioskCaller, invite };
}

test('a check-in and its mutation commit together; a refused check-in leaves no mutation', async () => {
  const { kiosks, kioskCaller } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1)));
  assert.equal((await pendingSummary(kiosk)).pending, 1);
  const refused = validate(visitCreateInput, { visit: { id: visitId(2), hostId: 'nobody' }, visitor: { name: 'X' } });
  await assert.rejects(
    async () => await checkinWalkIn(kiosk, await kioskCaller(kiosk), refused),
    rejectsWith('HOST_NOT_FOUND'),
  );
  const batch = await pendingBatch(kiosk, (await kioskCaller(kiosk)).companyId);
  assert.deepEqual(
    batch.map((m) => [m.id, m.name]),
    [[1, 'visit.checkin']],
  );
  const args = batch[0]?.args as { visit: Record<string, unknown>; visitor: Record<string, unknown> } | undefined;
  assert.equal(args?.visit.id, visitId(1));
  assert.equal(typeof args?.visit.checkinAt, 'string', 'times travel as ISO 8601');
  assert.deepEqual(args?.visitor, { name: 'Walk In' });
});

test("a kiosk refuses changes to the hub's data for the hub company, not for a company of its own", async () => {
  const { kiosks, kioskCaller } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const input = validate(hostCreateInput, { name: 'Bruno', email: 'bruno@acme.test' });
  await assert.rejects(
    async () => await createHost(kiosk, await kioskCaller(kiosk), input),
    rejectsWith('MANAGED_BY_HUB'),
  );
  assert.deepEqual(await kiosk.db.prepare("SELECT COUNT(*) AS n FROM hosts WHERE email = 'bruno@acme.test'").get(), {
    n: 0,
  });
  const local = await createCompany(kiosk, { name: 'Front desk' });
  await createHost(kiosk, await callerOf(kiosk, local.apiKey), input);
  assert.equal((await pendingSummary(kiosk)).pending, 0);
});

test('a batch sent again after a lost answer applies nothing twice', async () => {
  const { hub, hubCaller, kiosks, kioskCaller } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1)));
  await checkoutVisit(kiosk, await kioskCaller(kiosk), visitId(1), {});
  const batch = await pendingBatch(kiosk, hubCaller.companyId);
  const clientId = (await syncState(kiosk)).clientId;
  const first = await applyPush(hub, hubCaller, clientId, batch);
  const again = await applyPush(hub, hubCaller, clientId, batch);
  assert.deepEqual(
    first.results.map((r) => r.result),
    ['applied', 'applied'],
  );
  assert.deepEqual(
    again.results.map((r) => r.result),
    ['duplicate', 'duplicate'],
  );
  assert.equal(again.lastMutationId, 2);
  assert.deepEqual(await hub.db.prepare('SELECT applied, duplicates, rejected FROM sync_clients').get(), {
    applied: 2,
    duplicates: 2,
    rejected: 0,
  });
  assert.equal((await visitRows(hub)).length, 1);
});

test('ids must follow each other; a batch past the next id answers SYNC_GAP', async () => {
  const { hub, hubCaller } = await withKiosk();
  const mutation = (id: number) => checkinMutation(id, visitId(id));
  await applyPush(hub, hubCaller, 'client-1', [mutation(7), mutation(8)]);
  await assert.rejects(
    async () => await applyPush(hub, hubCaller, 'client-1', [mutation(10)]),
    (e) => rejectsWith('SYNC_GAP')(e) && (e as ApiError).extra.lastMutationId === 8,
  );
  await assert.rejects(
    async () => await applyPush(hub, hubCaller, 'client-1', [mutation(9), mutation(11)]),
    rejectsWith('INVALID_PARAMETER'),
  );
  assert.equal(
    (await applyPush(hub, hubCaller, 'client-2', [mutation(3)])).lastMutationId,
    3,
    'a new client starts anywhere',
  );
});

test('a mutation the hub cannot apply is kept with its arguments, and the queue goes on', async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  await pull(kiosk);
  await deleteVisit(hub, hubCaller, visitId(1));
  await checkoutVisit(kiosk, await kioskCaller(kiosk), visitId(1), {});
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(2)));
  const result = await push(kiosk);
  assert.deepEqual(result?.results, [
    { id: 1, result: 'rejected', type: 'NOT_FOUND' },
    { id: 2, result: 'applied' },
  ]);
  const kept = (await hub.db.prepare('SELECT name, type, args FROM sync_rejections').get()) as Record<string, string>;
  assert.deepEqual(
    [kept.name, kept.type, JSON.parse(String(kept.args)).id],
    ['visit.checkout', 'NOT_FOUND', visitId(1)],
  );
  assert.equal((await pendingSummary(kiosk)).pending, 0);
  await pull(kiosk);
  assert.deepEqual(await visitRows(kiosk), await visitRows(hub), 'the kiosk takes the hub version of the refused row');
});

test("the pull leaves a row alone while the kiosk's change to it is pending, then brings the hub's", async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  await pull(kiosk);
  await checkoutVisit(kiosk, await kioskCaller(kiosk), visitId(1), {});
  await authorizeVisit(hub, hubCaller, visitId(1), 'ALLOWED', {});
  await pull(kiosk);
  assert.notEqual(
    (await getVisit(kiosk, await kioskCaller(kiosk), visitId(1))).checkoutAt,
    null,
    'not undone by the pull',
  );
  await push(kiosk);
  await pull(kiosk);
  const visit = await getVisit(kiosk, await kioskCaller(kiosk), visitId(1));
  assert.equal(visit.authorizationStatus, 'ALLOWED');
  assert.notEqual(visit.checkoutAt, null);
  assert.deepEqual(await visitRows(kiosk), await visitRows(hub));
});

test('allow and deny: last writer by hybrid clock, with a kiosk clock five minutes behind', async () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  const t0 = hubClock.now();
  const kioskTime = (ms: number) => clock.set(t0 - 5 * 60_000 + ms);
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  await pull(kiosk);
  // Visit 2: allowed offline 20 s into the test, denied at the hub at 10 s, neither seeing the other. The
  // kiosk's clock dates its allow 4:40 before the deny, so the deny holds, at the hub and then at the kiosk.
  kioskTime(20_000);
  await authorizeVisit(kiosk, await kioskCaller(kiosk), visitId(2), 'ALLOWED', {});
  hubClock.set(t0 + 10_000);
  await authorizeVisit(hub, hubCaller, visitId(1), 'DENIED', {});
  await authorizeVisit(hub, hubCaller, visitId(2), 'DENIED', {});
  await push(kiosk);
  assert.equal((await getVisit(hub, hubCaller, visitId(2))).authorizationStatus, 'DENIED');
  await pull(kiosk);
  assert.equal((await getVisit(kiosk, await kioskCaller(kiosk), visitId(2))).authorizationStatus, 'DENIED');
  // Visit 1: the kiosk has now seen the hub's deny, so its allow is later, whatever its clock says.
  kioskTime(30_000);
  await authorizeVisit(kiosk, await kioskCaller(kiosk), visitId(1), 'ALLOWED', {});
  await push(kiosk);
  const allowed = await getVisit(hub, hubCaller, visitId(1));
  assert.equal(allowed.authorizationStatus, 'ALLOWED');
  assert.equal(allowed.authorizedAt, t0 - 5 * 60_000 + 30_000, "the decision keeps the kiosk's time");
  await pull(kiosk);
  assert.deepEqual(await visitRows(kiosk), await visitRows(hub));
});

/** Two kiosks that both know visit 1 of the hub. */
async function twoKiosksAndAVisit() {
  const fixture = await withKiosk(2);
  const [one, two] = fixture.kiosks as { ctx: Context; clock: { set(ms: number): void } }[];
  assert.ok(one && two);
  await checkinWalkIn(fixture.hub, fixture.hubCaller, walkIn(visitId(1)));
  await fixture.pull(one.ctx);
  await fixture.pull(two.ctx);
  return { ...fixture, one, two, t0: fixture.hubClock.now() };
}

test('two kiosks deciding one visit: the later decision wins in whichever order they arrive', async () => {
  const { hub, hubCaller, kioskCaller, pull, push, one, two, t0 } = await twoKiosksAndAVisit();
  one.clock.set(t0 + 1_000);
  await authorizeVisit(one.ctx, await kioskCaller(one.ctx), visitId(1), 'ALLOWED', {});
  two.clock.set(t0 + 2_000);
  await authorizeVisit(two.ctx, await kioskCaller(two.ctx), visitId(1), 'DENIED', {});
  await push(two.ctx);
  await push(one.ctx);
  assert.equal((await getVisit(hub, hubCaller, visitId(1))).authorizationStatus, 'DENIED');
  await pull(one.ctx);
  await pull(two.ctx);
  assert.deepEqual(await visitRows(one.ctx), await visitRows(hub));
  assert.deepEqual(await visitRows(two.ctx), await visitRows(hub));
});

test('a check-out is never undone: the first to reach the hub holds', async () => {
  const { hub, hubCaller, kioskCaller, pull, push, one, two, t0 } = await twoKiosksAndAVisit();
  one.clock.set(t0 + 60_000);
  await checkoutVisit(one.ctx, await kioskCaller(one.ctx), visitId(1), {});
  two.clock.set(t0 + 120_000);
  await checkoutVisit(two.ctx, await kioskCaller(two.ctx), visitId(1), {});
  await push(two.ctx);
  await push(one.ctx);
  assert.equal((await getVisit(hub, hubCaller, visitId(1))).checkoutAt, t0 + 120_000);
  await pull(one.ctx);
  await pull(two.ctx);
  assert.deepEqual(await visitRows(one.ctx), await visitRows(hub));
  assert.deepEqual(await visitRows(two.ctx), await visitRows(hub));
});

test('an invitee canceled at the hub: an offline check-in is recorded flagged; once known, check-ins are refused', async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push, invite } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const early = await invite('early@x.test');
  const late = await invite('late@x.test');
  await pull(kiosk);
  await updateInvitee(hub, hubCaller, early.id, { status: 'canceled' });
  await updateInvitee(hub, hubCaller, late.id, { status: 'canceled' });
  // Offline: the kiosk does not know yet, and the visitor is let in.
  const visit = await checkinInvitee(kiosk, await kioskCaller(kiosk), early.id, {});
  await push(kiosk);
  const recorded = await getVisit(hub, hubCaller, visit.id);
  assert.equal(recorded.statusNote, 'INVITEE_CANCELED');
  assert.equal(recorded.authorizationStatus, 'AWAITING');
  assert.equal(recorded.isInsideCompany, 1);
  assert.equal((await getInvitee(hub, hubCaller, early.id)).status, 'canceled', 'the cancellation stands');
  await pull(kiosk);
  assert.equal((await getInvitee(kiosk, await kioskCaller(kiosk), early.id)).status, 'canceled');
  assert.deepEqual(await visitRows(kiosk), await visitRows(hub));
  await assert.rejects(
    async () => await checkinInvitee(kiosk, await kioskCaller(kiosk), late.id, {}),
    rejectsWith('INVITEE_CANCELED'),
  );
  assert.equal((await pendingSummary(kiosk)).pending, 0);
});

test('one invitation used at two offline kiosks: both entries are recorded, the second flagged', async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push, invite } = await withKiosk(2);
  const [one, two] = kiosks.map((k) => k.ctx);
  assert.ok(one && two);
  const guest = await invite('guest@x.test');
  await pull(one);
  await pull(two);
  const first = await checkinInvitee(one, await kioskCaller(one), guest.id, {});
  const second = await checkinInvitee(two, await kioskCaller(two), guest.id, {});
  assert.notEqual(first.id, second.id);
  await push(one);
  await push(two);
  assert.equal((await getVisit(hub, hubCaller, first.id)).statusNote, null);
  assert.equal((await getVisit(hub, hubCaller, second.id)).statusNote, 'ALREADY_INSIDE');
  for (const kiosk of [one, two, one, two]) {
    await push(kiosk);
    await pull(kiosk);
  }
  assert.deepEqual(await visitRows(one), await visitRows(hub));
  assert.deepEqual(await visitRows(two), await visitRows(hub));
});

test('the gate is called by the kiosk that checked the visitor in, not again by the hub replaying it', async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  for (const ctx of [hub, kiosk]) ctx.events.subscribe(gateCallbackListener(ctx));
  await saveAccessConfig(hub, hubCaller, { enabled: true, url: 'http://gate.test/' });
  await pull(kiosk);
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1)));
  await push(kiosk);
  const callbacks = async (ctx: Context) => (await queueStatus(ctx, hubCaller.companyId, gateCallbackKind)).pending;
  assert.deepEqual([await callbacks(kiosk), await callbacks(hub)], [1, 0]);
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  assert.equal(await callbacks(hub), 1, "the hub's own check-ins still call it");
});

test("a kiosk applies the hub's retention to what it holds; erasures are the hub's, and reach the kiosk", async () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  const person = validate(visitCreateInput, {
    visit: { id: visitId(1) },
    visitor: { name: 'Erin', email: 'erin@x.test' },
  });
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), person);
  await checkoutVisit(kiosk, await kioskCaller(kiosk), visitId(1), {});
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(2), 'Kept'));
  await push(kiosk);
  await pull(kiosk);
  await assert.rejects(
    async () => await eraseVisitor(kiosk, await kioskCaller(kiosk), { email: 'erin@x.test' }),
    rejectsWith('MANAGED_BY_HUB'),
  );
  // Ten days on, the hub erases Erin: her visit is older than what a new kiosk receives, and reaches this one.
  hubClock.advance(10 * 86_400_000);
  clock.set(hubClock.now());
  await eraseVisitor(hub, hubCaller, { email: 'erin@x.test' });
  await pull(kiosk);
  const erased = await kiosk.db.prepare('SELECT name, email, deletedAt FROM visits WHERE id = ?').get(visitId(1));
  assert.deepEqual(erased, { name: null, email: null, deletedAt: hubClock.now() });
  // The retention set at the hub reaches the kiosk with what the hub's sweep anonymised; the kiosk applies it at
  // once to what only the kiosk holds (here a check-in made offline eight days ago, not pushed yet).
  const eightDaysAgo = new Date(hubClock.now() - 8 * 86_400_000).toISOString();
  const offline = validate(visitCreateInput, {
    visit: { id: visitId(3), checkinAt: eightDaysAgo },
    visitor: { name: 'Offline Old' },
  });
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), offline);
  await saveRetention(hub, hubCaller, 5);
  await pull(kiosk);
  assert.equal((await findRetention(kiosk, hubCaller.companyId)).retentionDays, 5);
  assert.deepEqual(await kiosk.db.prepare('SELECT name FROM visits WHERE id = ?').get(visitId(2)), { name: null });
  assert.deepEqual(await kiosk.db.prepare('SELECT name FROM visits WHERE id = ?').get(visitId(3)), { name: null });
  assert.equal(
    (await sweepCompany(kiosk, await kioskCaller(kiosk)))?.visits,
    0,
    'the daily sweep: not refused, nothing left',
  );
});

test('a row that arrives deleted and was never at the kiosk is not stored', async () => {
  const { hub, hubCaller, kiosks, pull } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(1), 'Short Visit'));
  await deleteVisit(hub, hubCaller, visitId(1));
  await pull(kiosk);
  assert.equal(await kiosk.db.prepare('SELECT 1 FROM visits WHERE id = ?').get(visitId(1)), undefined);
});

test('a check-in the hub refuses stays at the kiosk: its copy may be the only record of the person', async () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1), 'Inside Person'));
  // Arguments the hub cannot apply (as from a kiosk of another version): the check-in is refused there.
  await kiosk.db
    .prepare("UPDATE sync_outbox SET args = json_set(args, '$.visit.checkoutAt', '2000-01-01T00:00:00Z')")
    .run();
  assert.deepEqual((await push(kiosk))?.results, [{ id: 1, result: 'rejected', type: 'CHECKOUT_AT_BEFORE_CHECKIN' }]);
  await assert.rejects(async () => await getVisit(hub, hubCaller, visitId(1)), rejectsWith('NOT_FOUND'));
  await pull(kiosk);
  const kept = await getVisit(kiosk, await kioskCaller(kiosk), visitId(1));
  assert.deepEqual([kept.name, kept.isInsideCompany], ['Inside Person', 1]);
});

test("a refused check-in whose visit id another company holds at the hub brings the kiosk none of that company's", async () => {
  const { hub, kiosks, kioskCaller, pull, push } = await withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const other = await createCompany(hub, { name: 'Other' });
  await checkinWalkIn(hub, await callerOf(hub, other.apiKey), walkIn(visitId(1), 'Someone Else'));
  await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1), 'Inside Person'));
  assert.deepEqual((await push(kiosk))?.results, [{ id: 1, result: 'rejected', type: 'ALREADY_EXISTS' }]);
  const entry = hub.db.prepare("SELECT companyId FROM sync_changes WHERE tableName = 'visits' AND rowKey = ?");
  assert.deepEqual(await entry.get(visitId(1)), { companyId: other.id }, "the other company's feed keeps its entry");
  await pull(kiosk);
  assert.equal((await getVisit(kiosk, await kioskCaller(kiosk), visitId(1))).name, 'Inside Person');
});

test('a visit stamped ahead of time by a clock running fast can still be checked out: it ends at its check-in', async () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, push } = await withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  // A kiosk whose clock jumped three hours ahead while it could not reach the hub to notice.
  clock.set(hubClock.now() + 3 * 3_600_000);
  const visit = await checkinWalkIn(kiosk, await kioskCaller(kiosk), walkIn(visitId(1)));
  await push(kiosk);
  const out = await checkoutVisit(hub, hubCaller, visitId(1), {});
  assert.equal(out.checkoutAt, visit.checkinAt);
  await assert.rejects(
    async () =>
      (await checkinWalkIn(hub, hubCaller, walkIn(visitId(2)))) &&
      (await checkoutVisit(hub, hubCaller, visitId(2), {
        checkoutAt: new Date(hubClock.now() - 60_000).toISOString(),
      })),
    rejectsWith('CHECKOUT_AT_BEFORE_CHECKIN'),
    'a check-out time given before the check-in is still refused',
  );
});

test('a hub that lost the kiosk its pushes gets them again; a decision sent again does not undo a later one', async () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = await withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  await pull(kiosk);
  const t0 = hubClock.now();
  clock.set(t0 + 1_000);
  await authorizeVisit(kiosk, await kioskCaller(kiosk), visitId(1), 'ALLOWED', {});
  await authorizeVisit(kiosk, await kioskCaller(kiosk), visitId(2), 'ALLOWED', {});
  await push(kiosk);
  // The hub is restored to before those pushes: it no longer knows the kiosk, nor its decisions.
  await hub.db.exec(`DELETE FROM sync_clients; DELETE FROM sync_registers;
    UPDATE visits SET authorizationStatus = NULL, authorizedAt = NULL`);
  // After the restore, visit 1 is denied at the hub: a later decision than the kiosk's.
  hubClock.set(t0 + 5_000);
  await authorizeVisit(hub, hubCaller, visitId(1), 'DENIED', {});
  clock.set(t0 + 6_000);
  await pull(kiosk);
  assert.ok((await pendingSummary(kiosk)).pending > 0, 'the kiosk queued its visits again');
  await push(kiosk);
  await pull(kiosk);
  assert.equal((await getVisit(hub, hubCaller, visitId(1))).authorizationStatus, 'DENIED', 'the later decision holds');
  assert.equal(
    (await getVisit(hub, hubCaller, visitId(2))).authorizationStatus,
    'ALLOWED',
    'the lost decision is back',
  );
  assert.deepEqual(await visitRows(kiosk), await visitRows(hub));
});

test('a kiosk that says the hub confirmed more than the hub knows of its client gets SYNC_GAP with what it knows', async () => {
  const { hub, hubCaller } = await withKiosk();
  const mutation = (id: number) => checkinMutation(id, visitId(id));
  await applyPush(hub, hubCaller, 'client-1', [mutation(1), mutation(2)]);
  assert.equal(
    (await applyPush(hub, hubCaller, 'client-1', [mutation(3)], { confirmedMutationId: 2 })).lastMutationId,
    3,
  );
  const gap = (lastMutationId: number | null) => (e: unknown) =>
    rejectsWith('SYNC_GAP')(e) && (e as ApiError).extra.lastMutationId === lastMutationId;
  // A hub restored from a backup taken before the client's first push: the client is new to it.
  await assert.rejects(
    async () => await applyPush(hub, hubCaller, 'client-2', [mutation(7)], { confirmedMutationId: 6 }),
    gap(null),
  );
  await assert.rejects(
    async () => await applyPush(hub, hubCaller, 'client-1', [mutation(4)], { confirmedMutationId: 5 }),
    gap(3),
  );
  assert.equal((await visitRows(hub)).length, 3, 'nothing of a refused batch is applied');
});

test('a check-out of a visit the hub never heard of answers SYNC_ROW_MISSING, until the kiosk sent everything again', async () => {
  const { hub, hubCaller } = await withKiosk();
  const checkin = checkinMutation;
  const checkout = (id: number, visit: string) => ({
    ...checkinMutation(id, visit),
    name: 'visit.checkout',
    args: { id: visit, checkout: {} },
  });
  await assert.rejects(
    async () =>
      await applyPush(hub, hubCaller, 'client-1', [checkin(1, visitId(1)), checkout(2, visitId(2))], { resent: false }),
    (e) => rejectsWith('SYNC_ROW_MISSING')(e) && (e as ApiError).extra.key === visitId(2),
  );
  assert.equal((await visitRows(hub)).length, 0, 'nothing of the batch is applied');
  assert.equal(await hub.db.prepare('SELECT COUNT(*) FROM sync_rejections').pluck().get(), 0, 'nor rejected');
  // Sent again with the visit's check-in first, the check-out applies.
  const again = await applyPush(hub, hubCaller, 'client-2', [checkin(1, visitId(2)), checkout(2, visitId(2))]);
  assert.deepEqual(
    again.results.map((r) => r.result),
    ['applied', 'applied'],
  );
  assert.notEqual((await getVisit(hub, hubCaller, visitId(2))).checkoutAt, null);
  // A visit deleted outright at the hub is known to its feed (a tombstone): its check-out is rejected.
  await hub.db.prepare('DELETE FROM visits WHERE id = ?').run(visitId(2));
  const deleted = await applyPush(hub, hubCaller, 'client-3', [checkout(1, visitId(2))], { resent: false });
  assert.deepEqual(deleted.results, [{ id: 1, result: 'rejected', type: 'NOT_FOUND' }]);
  // From a kiosk that sent again every visit it holds, a check-out of a visit still unknown is rejected; so it is
  // from a kiosk too old to say whether it did.
  for (const [clientId, kiosk] of [
    ['client-4', { resent: true }],
    ['client-5', {}],
  ] as const) {
    const refused = await applyPush(hub, hubCaller, clientId, [checkout(1, visitId(4))], kiosk);
    assert.deepEqual(refused.results, [{ id: 1, result: 'rejected', type: 'NOT_FOUND' }]);
  }
});
