import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Context } from '../../local-api/context.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { validate } from '../../local-api/http/fields.ts';
import { visitorOfCode } from '../../local-api/returning/store.ts';
import { getVisitor } from '../../local-api/visitors/store.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import { checkinWalkIn, getVisit } from '../../local-api/visits/store.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * A returning visitor on a kiosk of a hub (docs/kiosk.md, "Returning visitors"): the consent given at the kiosk
 * reaches the hub with the kiosk's record of the check-in, and the kiosk finds the visitor by their badge after the
 * hub's copy of the visit (naming the hub's own visitor record) came back.
 */

const visitId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test("the kiosk's consent reaches the hub's visitor record, and the kiosk still finds the visitor by badge", async () => {
  const { hub, hubCaller, kiosks, pull, push, company } = await syncFixture();
  const kiosk = kiosks[0]?.ctx as Context;
  const host = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  await pull(kiosk);
  const kioskCaller = await kioskAdminOf(kiosk, company.id);
  const walkIn = (n: number, remember: boolean, email: string) =>
    validate(visitCreateInput, {
      visit: { id: visitId(n), hostId: host.id, rememberVisitor: remember },
      visitor: { name: 'Vera Lúcia', company: 'Initech', email },
    });
  await checkinWalkIn(kiosk, kioskCaller, walkIn(1, true, 'vera@guest.test'));
  await checkinWalkIn(kiosk, kioskCaller, walkIn(2, false, 'nina@guest.test'));
  await push(kiosk);
  await pull(kiosk);

  const atHub = await getVisit(hub, hubCaller, visitId(1));
  assert.equal(atHub.rememberVisitor, 1, 'the answer travels with the check-in');
  const hubVisitor = await getVisitor(hub, hubCaller, String(atHub.visitorId));
  assert.equal(hubVisitor.rememberConsent, 1);
  assert.equal(hubVisitor.lastHostId, host.id);
  const declined = await getVisitor(hub, hubCaller, String((await getVisit(hub, hubCaller, visitId(2))).visitorId));
  assert.equal(declined.rememberConsent, 0);

  const found = await visitorOfCode(kiosk, kioskCaller, `portaria:visit:${visitId(1)}`);
  assert.equal(found?.name, 'Vera Lúcia', "found by the visit's e-mail in the kiosk's own record");
  assert.equal(await visitorOfCode(kiosk, kioskCaller, `portaria:visit:${visitId(2)}`), undefined);
  assert.equal(await visitorOfCode(hub, hubCaller, `portaria:visit:${visitId(1)}`).then((v) => v?.id), hubVisitor.id);
});
