/**
 * Enrolment by pairing code with real processes (docs/sync.md, "Pairing"): a fresh kiosk started with
 * `serve --upstream <hub>` and no key shows a code on its screen; an administrator types it into the hub's Kiosks
 * page; the kiosk then follows the hub with a credential of its own, and reports itself there.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { client, repoRoot, startService, type TestService } from '../helpers/service.ts';
import { localAdminKey, online, settled, waitFor } from '../helpers/sync-service.ts';

let hub: TestService;
let kiosk: TestService | undefined;

before(async () => {
  hub = await startService();
});
after(async () => {
  await kiosk?.stop();
  await hub.stop();
});

/** What the kiosk's page is answered at `/kiosk/session`, as its screen asks from the machine. */
const session = async (service: TestService) => {
  const response = await fetch(`${service.url}/kiosk/session`, { cache: 'no-store' });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};

test('a fresh kiosk shows a code; typed in at the hub, it follows the hub with a credential of its own', async () => {
  const company = await hub.company('Acme');
  const atHub = client(hub.url, company.apiKey);
  kiosk = await startService({ args: ['--upstream', hub.url] });
  const shown = await waitFor('the kiosk to show a pairing code', async () => {
    const answer = await session(kiosk as TestService);
    return answer.status === 409 && answer.body.pairingCode;
  });
  assert.match(shown, /^[2-9A-HJKMNP-TV-Z]{4}-[2-9A-HJKMNP-TV-Z]{4}$/);

  const paired = await atHub('POST', '/v1/kiosks/pair', { code: shown, name: 'Lobby' });
  assert.equal(paired.status, 200, JSON.stringify(paired.body));
  const deviceId = paired.body.deviceId as string;

  const localKey = await localAdminKey(kiosk);
  const status = (await online(kiosk, localKey)).body;
  assert.equal(status.companyId, company.id);
  const screen = await waitFor('the kiosk screen to get its credential', async () => {
    const answer = await session(kiosk as TestService);
    return answer.status === 200 && answer.body;
  });
  assert.equal(screen.companyId, company.id);

  // A walk-in at the kiosk reaches the hub, where the visit log finds it by the kiosk that took it (below).
  const atKiosk = client(kiosk.url, screen.apiKey);
  const visitId = randomUUID();
  const checkin = await atKiosk('POST', '/v1/kiosk/walkin', { visit: { id: visitId }, visitor: { name: 'Vera Paz' } });
  assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
  await settled(Object.assign(kiosk, { apiKey: localKey }));
  const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const listed = await waitFor('the kiosk to report itself', async () => {
    const kiosks = (await atHub('GET', '/v1/kiosks')).body.kiosks as Record<string, unknown>[];
    const entry = kiosks.find((k) => k.deviceId === deviceId);
    return entry?.state === 'online' && entry.pending === 0 && entry;
  });
  assert.deepEqual(
    [listed.name, listed.appVersion, listed.ownCredential, typeof listed.clockSkewMs],
    ['Lobby', version, true, 'number'],
  );
  const log = await atHub('GET', `/v1/visits/history?kiosk=${listed.checkinById}`);
  assert.deepEqual(
    log.body.visits.map((v: { id: string }) => v.id),
    [visitId],
  );

  const credentials = (await atHub('GET', '/v1/credentials')).body.credentials as { role: string; label: string }[];
  assert.ok(credentials.some((c) => c.role === 'sync' && c.label === 'Kiosk Lobby'));
});
