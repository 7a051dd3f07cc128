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

function visitRows(ctx: Context) {
  return ctx.db
    .prepare(
      `SELECT id, inviteeId, name, checkinAt, checkoutAt, isInsideCompany, authorizationStatus, authorizedAt,
         statusNote, cardNumber FROM visits ORDER BY id`,
    )
    .all();
}

/** A hub with a host and one kiosk that has pulled it. */
function withKiosk(kiosks = 1) {
  const fixture = syncFixture({ kiosks });
  const { hub, hubCaller } = fixture;
  const ana = createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  for (const k of fixture.kiosks) fixture.pull(k.ctx);
  const kioskCaller = (ctx: Context) => kioskAdminOf(ctx, fixture.company.id);
  const invite = (email: string) =>
    createInvitee(
      hub,
      hubCaller,
      validate(inviteeCreateInput, { name: email, email, hostId: ana.id, expectedAt: 1_800_000_000 }),
    );
  return { ...fixture, ana, kioskCaller, invite };
}

test('a check-in and its mutation commit together; a refused check-in leaves no mutation', () => {
  const { kiosks, kioskCaller } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1)));
  assert.equal(pendingSummary(kiosk).pending, 1);
  const refused = validate(visitCreateInput, { visit: { id: visitId(2), hostId: 'nobody' }, visitor: { name: 'X' } });
  assert.throws(() => checkinWalkIn(kiosk, kioskCaller(kiosk), refused), rejectsWith('HOST_NOT_FOUND'));
  const batch = pendingBatch(kiosk, kioskCaller(kiosk).companyId);
  assert.deepEqual(
    batch.map((m) => [m.id, m.name]),
    [[1, 'visit.checkin']],
  );
  const args = batch[0]?.args as { visit: Record<string, unknown>; visitor: Record<string, unknown> } | undefined;
  assert.equal(args?.visit.id, visitId(1));
  assert.equal(typeof args?.visit.checkinAt, 'string', 'times travel as ISO 8601');
  assert.deepEqual(args?.visitor, { name: 'Walk In' });
});

test("a kiosk refuses changes to the hub's data for the hub company, not for a company of its own", () => {
  const { kiosks, kioskCaller } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const input = validate(hostCreateInput, { name: 'Bruno', email: 'bruno@acme.test' });
  assert.throws(() => createHost(kiosk, kioskCaller(kiosk), input), rejectsWith('MANAGED_BY_HUB'));
  assert.deepEqual(kiosk.db.prepare("SELECT COUNT(*) AS n FROM hosts WHERE email = 'bruno@acme.test'").get(), {
    n: 0,
  });
  const local = createCompany(kiosk, { name: 'Front desk' });
  createHost(kiosk, callerOf(kiosk, local.apiKey), input);
  assert.equal(pendingSummary(kiosk).pending, 0);
});

test('a batch sent again after a lost answer applies nothing twice', () => {
  const { hub, hubCaller, kiosks, kioskCaller } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1)));
  checkoutVisit(kiosk, kioskCaller(kiosk), visitId(1), {});
  const batch = pendingBatch(kiosk, hubCaller.companyId);
  const clientId = syncState(kiosk).clientId;
  const first = applyPush(hub, hubCaller, clientId, batch);
  const again = applyPush(hub, hubCaller, clientId, batch);
  assert.deepEqual(
    first.results.map((r) => r.result),
    ['applied', 'applied'],
  );
  assert.deepEqual(
    again.results.map((r) => r.result),
    ['duplicate', 'duplicate'],
  );
  assert.equal(again.lastMutationId, 2);
  assert.deepEqual(hub.db.prepare('SELECT applied, duplicates, rejected FROM sync_clients').get(), {
    applied: 2,
    duplicates: 2,
    rejected: 0,
  });
  assert.equal(visitRows(hub).length, 1);
});

test('ids must follow each other; a batch past the next id answers SYNC_GAP', () => {
  const { hub, hubCaller } = withKiosk();
  const mutation = (id: number) => checkinMutation(id, visitId(id));
  applyPush(hub, hubCaller, 'client-1', [mutation(7), mutation(8)]);
  assert.throws(
    () => applyPush(hub, hubCaller, 'client-1', [mutation(10)]),
    (e) => rejectsWith('SYNC_GAP')(e) && (e as ApiError).extra.lastMutationId === 8,
  );
  assert.throws(
    () => applyPush(hub, hubCaller, 'client-1', [mutation(9), mutation(11)]),
    rejectsWith('INVALID_PARAMETER'),
  );
  assert.equal(applyPush(hub, hubCaller, 'client-2', [mutation(3)]).lastMutationId, 3, 'a new client starts anywhere');
});

test('a mutation the hub cannot apply is kept with its arguments, and the queue goes on', () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  pull(kiosk);
  deleteVisit(hub, hubCaller, visitId(1));
  checkoutVisit(kiosk, kioskCaller(kiosk), visitId(1), {});
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(2)));
  const result = push(kiosk);
  assert.deepEqual(result?.results, [
    { id: 1, result: 'rejected', type: 'NOT_FOUND' },
    { id: 2, result: 'applied' },
  ]);
  const kept = hub.db.prepare('SELECT name, type, args FROM sync_rejections').get() as Record<string, string>;
  assert.deepEqual(
    [kept.name, kept.type, JSON.parse(String(kept.args)).id],
    ['visit.checkout', 'NOT_FOUND', visitId(1)],
  );
  assert.equal(pendingSummary(kiosk).pending, 0);
  pull(kiosk);
  assert.deepEqual(visitRows(kiosk), visitRows(hub), 'the kiosk takes the hub version of the refused row');
});

test("the pull leaves a row alone while the kiosk's change to it is pending, then brings the hub's", () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  pull(kiosk);
  checkoutVisit(kiosk, kioskCaller(kiosk), visitId(1), {});
  authorizeVisit(hub, hubCaller, visitId(1), 'ALLOWED', {});
  pull(kiosk);
  assert.notEqual(getVisit(kiosk, kioskCaller(kiosk), visitId(1)).checkoutAt, null, 'not undone by the pull');
  push(kiosk);
  pull(kiosk);
  const visit = getVisit(kiosk, kioskCaller(kiosk), visitId(1));
  assert.equal(visit.authorizationStatus, 'ALLOWED');
  assert.notEqual(visit.checkoutAt, null);
  assert.deepEqual(visitRows(kiosk), visitRows(hub));
});

test('allow and deny: last writer by hybrid clock, with a kiosk clock five minutes behind', () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  const t0 = hubClock.now();
  const kioskTime = (ms: number) => clock.set(t0 - 5 * 60_000 + ms);
  checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  pull(kiosk);
  // Visit 2: allowed offline 20 s into the test, denied at the hub at 10 s, neither seeing the other. The
  // kiosk's clock dates its allow 4:40 before the deny, so the deny holds, at the hub and then at the kiosk.
  kioskTime(20_000);
  authorizeVisit(kiosk, kioskCaller(kiosk), visitId(2), 'ALLOWED', {});
  hubClock.set(t0 + 10_000);
  authorizeVisit(hub, hubCaller, visitId(1), 'DENIED', {});
  authorizeVisit(hub, hubCaller, visitId(2), 'DENIED', {});
  push(kiosk);
  assert.equal(getVisit(hub, hubCaller, visitId(2)).authorizationStatus, 'DENIED');
  pull(kiosk);
  assert.equal(getVisit(kiosk, kioskCaller(kiosk), visitId(2)).authorizationStatus, 'DENIED');
  // Visit 1: the kiosk has now seen the hub's deny, so its allow is later, whatever its clock says.
  kioskTime(30_000);
  authorizeVisit(kiosk, kioskCaller(kiosk), visitId(1), 'ALLOWED', {});
  push(kiosk);
  const allowed = getVisit(hub, hubCaller, visitId(1));
  assert.equal(allowed.authorizationStatus, 'ALLOWED');
  assert.equal(allowed.authorizedAt, t0 - 5 * 60_000 + 30_000, "the decision keeps the kiosk's time");
  pull(kiosk);
  assert.deepEqual(visitRows(kiosk), visitRows(hub));
});

/** Two kiosks that both know visit 1 of the hub. */
function twoKiosksAndAVisit() {
  const fixture = withKiosk(2);
  const [one, two] = fixture.kiosks as { ctx: Context; clock: { set(ms: number): void } }[];
  assert.ok(one && two);
  checkinWalkIn(fixture.hub, fixture.hubCaller, walkIn(visitId(1)));
  fixture.pull(one.ctx);
  fixture.pull(two.ctx);
  return { ...fixture, one, two, t0: fixture.hubClock.now() };
}

test('two kiosks deciding one visit: the later decision wins in whichever order they arrive', () => {
  const { hub, hubCaller, kioskCaller, pull, push, one, two, t0 } = twoKiosksAndAVisit();
  one.clock.set(t0 + 1_000);
  authorizeVisit(one.ctx, kioskCaller(one.ctx), visitId(1), 'ALLOWED', {});
  two.clock.set(t0 + 2_000);
  authorizeVisit(two.ctx, kioskCaller(two.ctx), visitId(1), 'DENIED', {});
  push(two.ctx);
  push(one.ctx);
  assert.equal(getVisit(hub, hubCaller, visitId(1)).authorizationStatus, 'DENIED');
  pull(one.ctx);
  pull(two.ctx);
  assert.deepEqual(visitRows(one.ctx), visitRows(hub));
  assert.deepEqual(visitRows(two.ctx), visitRows(hub));
});

test('a check-out is never undone: the first to reach the hub holds', () => {
  const { hub, hubCaller, kioskCaller, pull, push, one, two, t0 } = twoKiosksAndAVisit();
  one.clock.set(t0 + 60_000);
  checkoutVisit(one.ctx, kioskCaller(one.ctx), visitId(1), {});
  two.clock.set(t0 + 120_000);
  checkoutVisit(two.ctx, kioskCaller(two.ctx), visitId(1), {});
  push(two.ctx);
  push(one.ctx);
  assert.equal(getVisit(hub, hubCaller, visitId(1)).checkoutAt, t0 + 120_000);
  pull(one.ctx);
  pull(two.ctx);
  assert.deepEqual(visitRows(one.ctx), visitRows(hub));
  assert.deepEqual(visitRows(two.ctx), visitRows(hub));
});

test('an invitee canceled at the hub: an offline check-in is recorded flagged; once known, check-ins are refused', () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push, invite } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const early = invite('early@x.test');
  const late = invite('late@x.test');
  pull(kiosk);
  updateInvitee(hub, hubCaller, early.id, { status: 'canceled' });
  updateInvitee(hub, hubCaller, late.id, { status: 'canceled' });
  // Offline: the kiosk does not know yet, and the visitor is let in.
  const visit = checkinInvitee(kiosk, kioskCaller(kiosk), early.id, {});
  push(kiosk);
  const recorded = getVisit(hub, hubCaller, visit.id);
  assert.equal(recorded.statusNote, 'INVITEE_CANCELED');
  assert.equal(recorded.authorizationStatus, 'AWAITING');
  assert.equal(recorded.isInsideCompany, 1);
  assert.equal(getInvitee(hub, hubCaller, early.id).status, 'canceled', 'the cancellation stands');
  pull(kiosk);
  assert.equal(getInvitee(kiosk, kioskCaller(kiosk), early.id).status, 'canceled');
  assert.deepEqual(visitRows(kiosk), visitRows(hub));
  assert.throws(() => checkinInvitee(kiosk, kioskCaller(kiosk), late.id, {}), rejectsWith('INVITEE_CANCELED'));
  assert.equal(pendingSummary(kiosk).pending, 0);
});

test('one invitation used at two offline kiosks: both entries are recorded, the second flagged', () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push, invite } = withKiosk(2);
  const [one, two] = kiosks.map((k) => k.ctx);
  assert.ok(one && two);
  const guest = invite('guest@x.test');
  pull(one);
  pull(two);
  const first = checkinInvitee(one, kioskCaller(one), guest.id, {});
  const second = checkinInvitee(two, kioskCaller(two), guest.id, {});
  assert.notEqual(first.id, second.id);
  push(one);
  push(two);
  assert.equal(getVisit(hub, hubCaller, first.id).statusNote, null);
  assert.equal(getVisit(hub, hubCaller, second.id).statusNote, 'ALREADY_INSIDE');
  for (const kiosk of [one, two, one, two]) {
    push(kiosk);
    pull(kiosk);
  }
  assert.deepEqual(visitRows(one), visitRows(hub));
  assert.deepEqual(visitRows(two), visitRows(hub));
});

test('the gate is called by the kiosk that checked the visitor in, not again by the hub replaying it', () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  for (const ctx of [hub, kiosk]) ctx.events.subscribe(gateCallbackListener(ctx));
  saveAccessConfig(hub, hubCaller, { enabled: true, url: 'http://gate.test/' });
  pull(kiosk);
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1)));
  push(kiosk);
  const callbacks = (ctx: Context) => queueStatus(ctx, hubCaller.companyId, gateCallbackKind).pending;
  assert.deepEqual([callbacks(kiosk), callbacks(hub)], [1, 0]);
  checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  assert.equal(callbacks(hub), 1, "the hub's own check-ins still call it");
});

test("a kiosk applies the hub's retention to what it holds; erasures are the hub's, and reach the kiosk", () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  const person = validate(visitCreateInput, {
    visit: { id: visitId(1) },
    visitor: { name: 'Erin', email: 'erin@x.test' },
  });
  checkinWalkIn(kiosk, kioskCaller(kiosk), person);
  checkoutVisit(kiosk, kioskCaller(kiosk), visitId(1), {});
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(2), 'Kept'));
  push(kiosk);
  pull(kiosk);
  assert.throws(() => eraseVisitor(kiosk, kioskCaller(kiosk), { email: 'erin@x.test' }), rejectsWith('MANAGED_BY_HUB'));
  // Ten days on, the hub erases Erin: her visit is older than what a new kiosk receives, and reaches this one.
  hubClock.advance(10 * 86_400_000);
  clock.set(hubClock.now());
  eraseVisitor(hub, hubCaller, { email: 'erin@x.test' });
  pull(kiosk);
  const erased = kiosk.db.prepare('SELECT name, email, deletedAt FROM visits WHERE id = ?').get(visitId(1));
  assert.deepEqual(erased, { name: null, email: null, deletedAt: hubClock.now() });
  // The retention set at the hub reaches the kiosk with what the hub's sweep anonymised; the kiosk applies it at
  // once to what only the kiosk holds (here a check-in made offline eight days ago, not pushed yet).
  const eightDaysAgo = new Date(hubClock.now() - 8 * 86_400_000).toISOString();
  const offline = validate(visitCreateInput, {
    visit: { id: visitId(3), checkinAt: eightDaysAgo },
    visitor: { name: 'Offline Old' },
  });
  checkinWalkIn(kiosk, kioskCaller(kiosk), offline);
  saveRetention(hub, hubCaller, 5);
  pull(kiosk);
  assert.equal(findRetention(kiosk, hubCaller.companyId).retentionDays, 5);
  assert.deepEqual(kiosk.db.prepare('SELECT name FROM visits WHERE id = ?').get(visitId(2)), { name: null });
  assert.deepEqual(kiosk.db.prepare('SELECT name FROM visits WHERE id = ?').get(visitId(3)), { name: null });
  assert.equal(sweepCompany(kiosk, kioskCaller(kiosk))?.visits, 0, 'the daily sweep: not refused, nothing left');
});

test('a row that arrives deleted and was never at the kiosk is not stored', () => {
  const { hub, hubCaller, kiosks, pull } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(hub, hubCaller, walkIn(visitId(1), 'Short Visit'));
  deleteVisit(hub, hubCaller, visitId(1));
  pull(kiosk);
  assert.equal(kiosk.db.prepare('SELECT 1 FROM visits WHERE id = ?').get(visitId(1)), undefined);
});

test('a check-in the hub refuses stays at the kiosk: its copy may be the only record of the person', () => {
  const { hub, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1), 'Inside Person'));
  // Arguments the hub cannot apply (as from a kiosk of another version): the check-in is refused there.
  kiosk.db.prepare("UPDATE sync_outbox SET args = json_set(args, '$.visit.checkoutAt', '2000-01-01T00:00:00Z')").run();
  assert.deepEqual(push(kiosk)?.results, [{ id: 1, result: 'rejected', type: 'CHECKOUT_AT_BEFORE_CHECKIN' }]);
  assert.throws(() => getVisit(hub, hubCaller, visitId(1)), rejectsWith('NOT_FOUND'));
  pull(kiosk);
  const kept = getVisit(kiosk, kioskCaller(kiosk), visitId(1));
  assert.deepEqual([kept.name, kept.isInsideCompany], ['Inside Person', 1]);
});

test("a refused check-in whose visit id another company holds at the hub brings the kiosk none of that company's", () => {
  const { hub, kiosks, kioskCaller, pull, push } = withKiosk();
  const kiosk = kiosks[0]?.ctx as Context;
  const other = createCompany(hub, { name: 'Other' });
  checkinWalkIn(hub, callerOf(hub, other.apiKey), walkIn(visitId(1), 'Someone Else'));
  checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1), 'Inside Person'));
  assert.deepEqual(push(kiosk)?.results, [{ id: 1, result: 'rejected', type: 'ALREADY_EXISTS' }]);
  const entry = hub.db.prepare("SELECT companyId FROM sync_changes WHERE tableName = 'visits' AND rowKey = ?");
  assert.deepEqual(entry.get(visitId(1)), { companyId: other.id }, "the other company's feed keeps its entry");
  pull(kiosk);
  assert.equal(getVisit(kiosk, kioskCaller(kiosk), visitId(1)).name, 'Inside Person');
});

test('a visit stamped ahead of time by a clock running fast can still be checked out: it ends at its check-in', () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, push } = withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  // A kiosk whose clock jumped three hours ahead while it could not reach the hub to notice.
  clock.set(hubClock.now() + 3 * 3_600_000);
  const visit = checkinWalkIn(kiosk, kioskCaller(kiosk), walkIn(visitId(1)));
  push(kiosk);
  const out = checkoutVisit(hub, hubCaller, visitId(1), {});
  assert.equal(out.checkoutAt, visit.checkinAt);
  assert.throws(
    () =>
      checkinWalkIn(hub, hubCaller, walkIn(visitId(2))) &&
      checkoutVisit(hub, hubCaller, visitId(2), {
        checkoutAt: new Date(hubClock.now() - 60_000).toISOString(),
      }),
    rejectsWith('CHECKOUT_AT_BEFORE_CHECKIN'),
    'a check-out time given before the check-in is still refused',
  );
});

test('a hub that lost the kiosk its pushes gets them again; a decision sent again does not undo a later one', () => {
  const { hub, hubClock, hubCaller, kiosks, kioskCaller, pull, push } = withKiosk();
  const { ctx: kiosk, clock } = kiosks[0] as { ctx: Context; clock: { set(ms: number): void } };
  checkinWalkIn(hub, hubCaller, walkIn(visitId(1)));
  checkinWalkIn(hub, hubCaller, walkIn(visitId(2)));
  pull(kiosk);
  const t0 = hubClock.now();
  clock.set(t0 + 1_000);
  authorizeVisit(kiosk, kioskCaller(kiosk), visitId(1), 'ALLOWED', {});
  authorizeVisit(kiosk, kioskCaller(kiosk), visitId(2), 'ALLOWED', {});
  push(kiosk);
  // The hub is restored to before those pushes: it no longer knows the kiosk, nor its decisions.
  hub.db.exec(`DELETE FROM sync_clients; DELETE FROM sync_registers;
    UPDATE visits SET authorizationStatus = NULL, authorizedAt = NULL`);
  // After the restore, visit 1 is denied at the hub: a later decision than the kiosk's.
  hubClock.set(t0 + 5_000);
  authorizeVisit(hub, hubCaller, visitId(1), 'DENIED', {});
  clock.set(t0 + 6_000);
  pull(kiosk);
  assert.ok(pendingSummary(kiosk).pending > 0, 'the kiosk queued its visits again');
  push(kiosk);
  pull(kiosk);
  assert.equal(getVisit(hub, hubCaller, visitId(1)).authorizationStatus, 'DENIED', 'the later decision holds');
  assert.equal(getVisit(hub, hubCaller, visitId(2)).authorizationStatus, 'ALLOWED', 'the lost decision is back');
  assert.deepEqual(visitRows(kiosk), visitRows(hub));
});

test('a kiosk that says the hub confirmed more than the hub knows of its client gets SYNC_GAP with what it knows', () => {
  const { hub, hubCaller } = withKiosk();
  const mutation = (id: number) => checkinMutation(id, visitId(id));
  applyPush(hub, hubCaller, 'client-1', [mutation(1), mutation(2)]);
  assert.equal(applyPush(hub, hubCaller, 'client-1', [mutation(3)], { confirmedMutationId: 2 }).lastMutationId, 3);
  const gap = (lastMutationId: number | null) => (e: unknown) =>
    rejectsWith('SYNC_GAP')(e) && (e as ApiError).extra.lastMutationId === lastMutationId;
  // A hub restored from a backup taken before the client's first push: the client is new to it.
  assert.throws(() => applyPush(hub, hubCaller, 'client-2', [mutation(7)], { confirmedMutationId: 6 }), gap(null));
  assert.throws(() => applyPush(hub, hubCaller, 'client-1', [mutation(4)], { confirmedMutationId: 5 }), gap(3));
  assert.equal(visitRows(hub).length, 3, 'nothing of a refused batch is applied');
});

test('a check-out of a visit the hub never heard of answers SYNC_ROW_MISSING, until the kiosk sent everything again', () => {
  const { hub, hubCaller } = withKiosk();
  const checkin = checkinMutation;
  const checkout = (id: number, visit: string) => ({
    ...checkinMutation(id, visit),
    name: 'visit.checkout',
    args: { id: visit, checkout: {} },
  });
  assert.throws(
    () => applyPush(hub, hubCaller, 'client-1', [checkin(1, visitId(1)), checkout(2, visitId(2))], { resent: false }),
    (e) => rejectsWith('SYNC_ROW_MISSING')(e) && (e as ApiError).extra.key === visitId(2),
  );
  assert.equal(visitRows(hub).length, 0, 'nothing of the batch is applied');
  assert.equal(hub.db.prepare('SELECT COUNT(*) FROM sync_rejections').pluck().get(), 0, 'nor rejected');
  // Sent again with the visit's check-in first, the check-out applies.
  const again = applyPush(hub, hubCaller, 'client-2', [checkin(1, visitId(2)), checkout(2, visitId(2))]);
  assert.deepEqual(
    again.results.map((r) => r.result),
    ['applied', 'applied'],
  );
  assert.notEqual(getVisit(hub, hubCaller, visitId(2)).checkoutAt, null);
  // A visit deleted outright at the hub is known to its feed (a tombstone): its check-out is rejected.
  hub.db.prepare('DELETE FROM visits WHERE id = ?').run(visitId(2));
  const deleted = applyPush(hub, hubCaller, 'client-3', [checkout(1, visitId(2))], { resent: false });
  assert.deepEqual(deleted.results, [{ id: 1, result: 'rejected', type: 'NOT_FOUND' }]);
  // From a kiosk that sent again every visit it holds, a check-out of a visit still unknown is rejected; so it is
  // from a kiosk too old to say whether it did.
  for (const [clientId, kiosk] of [
    ['client-4', { resent: true }],
    ['client-5', {}],
  ] as const) {
    const refused = applyPush(hub, hubCaller, clientId, [checkout(1, visitId(4))], kiosk);
    assert.deepEqual(refused.results, [{ id: 1, result: 'rejected', type: 'NOT_FOUND' }]);
  }
});
