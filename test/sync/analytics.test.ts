import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analytics } from '../../local-api/analytics/store.ts';
import type { Context } from '../../local-api/context.ts';
import { insertCredential } from '../../local-api/credentials/store.ts';
import { validate } from '../../local-api/http/fields.ts';
import { pendingBatch } from '../../local-api/sync/outbox.ts';
import { applyPush } from '../../local-api/sync/push.ts';
import { syncState } from '../../local-api/sync/state.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import { checkinWalkIn } from '../../local-api/visits/store.ts';
import { callerOf, kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * The analytics by kiosk and the counted hours with a hub (docs/api.md, "Analytics"): a kiosk's check-in replayed
 * at the hub is the kiosk device's (its `sync` credential), whatever the kiosk recorded; and the hub's visits a
 * kiosk pulls, which come without events, are counted in the kiosk's analytics at its next request.
 */

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const walkIn = (id: string, name: string) => validate(visitCreateInput, { visit: { id }, visitor: { name } });
/** The fixture's clocks stand on 2026-11-22 at 12:00 UTC, 09:00 in São Paulo. */
const day = { from: '2026-11-22', to: '2026-11-22' };

test("a kiosk's check-in replayed at the hub counts for the kiosk device", async () => {
  const { hub, hubCaller, company, kiosks, pull } = await syncFixture();
  const kiosk = kiosks[0]?.ctx as Context;
  await pull(kiosk);
  await checkinWalkIn(kiosk, await kioskAdminOf(kiosk, company.id), walkIn(visitId(1), 'Ana'));
  const device = await insertCredential(hub, { companyId: company.id, role: 'sync', label: 'Lobby, building B' });
  const batch = await pendingBatch(kiosk, company.id);
  await applyPush(hub, await callerOf(hub, device.key), (await syncState(kiosk)).clientId, batch);
  const report = await analytics(hub, hubCaller, day);
  assert.deepEqual(report.kiosks, [{ id: device.id, name: 'Lobby, building B', visits: 1 }]);
});

test("the hub's visits a kiosk pulls are counted at the kiosk's next request", async () => {
  const { hub, hubCaller, company, kiosks, pull } = await syncFixture();
  const kiosk = kiosks[0]?.ctx as Context;
  await pull(kiosk);
  const caller = await kioskAdminOf(kiosk, company.id);
  assert.equal((await analytics(kiosk, caller, day)).totals.visits, 0);
  await checkinWalkIn(hub, hubCaller, walkIn(visitId(2), 'Bruno'));
  await pull(kiosk);
  assert.equal((await analytics(kiosk, caller, day)).totals.visits, 1);
});
