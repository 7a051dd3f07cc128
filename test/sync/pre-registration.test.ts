import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createApp } from '../../local-api/app.ts';
import type { Context } from '../../local-api/context.ts';
import { readStoredFile } from '../../local-api/files/store.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost } from '../../local-api/hosts/store.ts';
import { ApiError } from '../../local-api/http/errors.ts';
import { validate } from '../../local-api/http/fields.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee } from '../../local-api/invitees/store.ts';
import { saveNotificationSettings } from '../../local-api/notifications/settings.ts';
import { linkKey, signLink } from '../../local-api/public/links.ts';
import { saveRegistration } from '../../local-api/registration/store.ts';
import type { VisitRow } from '../../local-api/visits/contract.ts';
import { checkinInvitee, getVisit } from '../../local-api/visits/store.ts';
import { jpegBytes, pdfBytes } from '../helpers/files.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

/*
 * A registration is written at the hub and reaches the company's kiosks with the invitee's row (docs/sync.md): the
 * picture and the signed agreement are text in the row, since stored files do not travel in the feed. The kiosk's
 * check-in makes them the visit's own files there, and the hub, replaying it, makes its own copies.
 */

const visitId = '00000000-0000-4000-8000-000000000001';

/** The bytes of a visit's stored file at a service. */
async function fileBytes(ctx: Context, visit: VisitRow, column: 'pictureFile' | 'ndaFile') {
  const path = String(visit[column]);
  const name = path.slice(path.lastIndexOf('/') + 1);
  const file = await readStoredFile(
    ctx,
    { id: name.slice(0, 32), companyId: String(visit.companyId), purpose: 'visit-picture', mediaType: '' },
    name,
  );
  return file.bytes;
}

test('a guest registered at the hub is checked in at a kiosk with the picture and agreement they gave', async () => {
  const { hub, hubClock, hubCaller, kiosks, pull, push } = await syncFixture();
  const kiosk = kiosks[0]?.ctx as Context;
  const host = await createHost(hub, hubCaller, validate(hostCreateInput, { name: 'Ana', email: 'ana@acme.test' }));
  await saveNotificationSettings(hub, hubCaller, { webhookUrl: 'http://127.0.0.1:9/hook' });
  const guest = await createInvitee(
    hub,
    hubCaller,
    validate(inviteeCreateInput, {
      name: 'Otto Brandt',
      email: 'otto@guest.test',
      hostId: host.id,
      expectedAt: new Date(hubClock.now() + 3_600_000).toISOString(),
    }),
  );
  const key = await linkKey(hub, hubCaller.companyId);
  assert.ok(key);
  const token = signLink(key, {
    companyId: hubCaller.companyId,
    purpose: 'register',
    subjectId: guest.id,
    expiresAt: hubClock.now() + 86_400_000,
    nonce: 'n1',
  });
  const picture = jpegBytes();
  const nda = await pdfBytes('Signed: Otto Brandt');
  const registration = {
    customFields: [],
    questionnaireFields: [],
    picture: picture.toString('base64'),
    nda: nda.toString('base64'),
    ndaSignature: 'TYPED' as const,
  };
  await saveRegistration(hub, token, registration, 'en');
  await pull(kiosk);

  // The kiosk holds the company's key and the registration, but writes none: the invitee is the hub's.
  await assert.rejects(
    saveRegistration(kiosk, token, registration, 'en'),
    (error) => error instanceof ApiError && error.type === 'MANAGED_BY_HUB',
  );

  // A guest who reaches the kiosk's own address is sent to the hub's, where the kiosk knows it.
  const server = createApp(kiosk).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/p/register/${token}`;
    const here = await fetch(url, { redirect: 'manual', headers: { 'accept-language': 'en' } });
    assert.equal(here.status, 409);
    assert.match(await here.text(), /Registration is not taken at this address/);
    await kiosk.db.prepare("UPDATE sync_state SET hubPublicUrl = 'https://hub.acme.test' WHERE id = 1").run();
    const sent = await fetch(url, { redirect: 'manual' });
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.get('location'), `https://hub.acme.test/p/register/${token}`);
    const form = await fetch(`${url}/form`, { headers: { accept: 'application/json' } });
    assert.deepEqual([form.status, await form.json()], [409, { type: 'MANAGED_BY_HUB' }]);
  } finally {
    server.close();
  }

  const kioskCaller = await kioskAdminOf(kiosk, hubCaller.companyId);
  const atKiosk = await checkinInvitee(kiosk, kioskCaller, guest.id, { id: visitId, checkinType: 'IPAD' });
  assert.deepEqual(await fileBytes(kiosk, atKiosk, 'pictureFile'), picture);
  assert.deepEqual(await fileBytes(kiosk, atKiosk, 'ndaFile'), nda);
  assert.equal(atKiosk.ndaSignature, 'TYPED');

  await push(kiosk);
  const atHub = await getVisit(hub, hubCaller, visitId);
  assert.equal(atHub.inviteeId, guest.id);
  assert.deepEqual(await fileBytes(hub, atHub, 'pictureFile'), picture);
  assert.deepEqual(await fileBytes(hub, atHub, 'ndaFile'), nda);
  assert.equal(atHub.ndaSignature, 'TYPED');
});
