import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deleteAccessConfig, findAccessConfig, saveAccessConfig } from '../../local-api/access/store.ts';
import { updateCompany } from '../../local-api/companies/store.ts';
import { principalForKey } from '../../local-api/credentials/store.ts';
import { hostCreateInput } from '../../local-api/hosts/schema.ts';
import { createHost, deleteHost, updateHost } from '../../local-api/hosts/store.ts';
import { validate } from '../../local-api/http/fields.ts';
import { inviteeCreateInput } from '../../local-api/invitees/schema.ts';
import { createInvitee, updateInvitee } from '../../local-api/invitees/store.ts';
import { findNotificationSettings, saveNotificationSettings } from '../../local-api/notifications/settings.ts';
import { installChangeFeed, pruneTombstones, readChanges } from '../../local-api/sync/feed.ts';
import { pendingSummary } from '../../local-api/sync/outbox.ts';
import { syncState } from '../../local-api/sync/state.ts';
import { visitCreateInput } from '../../local-api/visits/schema.ts';
import { checkinWalkIn, checkoutVisit, deleteVisit } from '../../local-api/visits/store.ts';
import { kioskAdminOf, syncFixture } from '../helpers/sync.ts';

const host = (email: string) => validate(hostCreateInput, { name: email.split('@')[0], email });
const invitee = (hostId: string, extra: Record<string, unknown> = {}) =>
  validate(inviteeCreateInput, { name: 'Guest', email: 'guest@x.test', hostId, expectedAt: 1_800_000_000, ...extra });
const walkIn = (id: string, name = 'Walk In') => validate(visitCreateInput, { visit: { id }, visitor: { name } });

test('a full read starts over and holds the company and every row once; the cursor then holds still', async () => {
  const { hub, hubCaller } = await syncFixture();
  const ana = await createHost(hub, hubCaller, host('ana@acme.test'));
  await updateHost(hub, hubCaller, ana.id, { sector: 'R&D' });
  await updateHost(hub, hubCaller, ana.id, { sector: 'Sales' });
  const first = await readChanges(hub, hubCaller.companyId, undefined, 100);
  assert.equal(first.reset, true);
  assert.equal(first.hasMore, false);
  assert.deepEqual(
    first.changes.map((c) => [c.table, c.key]),
    [
      ['companies', hubCaller.companyId],
      ['hosts', ana.id],
    ],
  );
  assert.equal(first.changes[1]?.row?.sector, 'Sales', 'rows travel as they are now');
  const again = await readChanges(hub, hubCaller.companyId, first.cursor, 100);
  assert.deepEqual([again.reset, again.changes, again.cursor], [false, [], first.cursor]);
  await deleteHost(hub, hubCaller, ana.id);
  const deleted = await readChanges(hub, hubCaller.companyId, first.cursor, 100);
  assert.equal(deleted.changes.length, 1);
  assert.equal(typeof deleted.changes[0]?.row?.deletedAt, 'number', 'a soft delete travels as the row');
});

test("pages follow each other without gaps or repeats, and no other company's rows appear", async () => {
  const { hub, hubCaller } = await syncFixture();
  for (let i = 0; i < 7; i++) await createHost(hub, hubCaller, host(`h${i}@acme.test`));
  const keys: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await readChanges(hub, hubCaller.companyId, cursor, 3);
    assert.equal(page.reset, cursor === undefined);
    keys.push(...page.changes.map((c) => c.key));
    cursor = page.cursor;
    pages++;
    if (!page.hasMore) break;
  }
  assert.equal(keys.length, 8);
  assert.equal(new Set(keys).size, 8);
  assert.equal(pages, 3);
});

test('a row deleted outright travels as a tombstone; secrets travel opened and omitted columns stay', async () => {
  const { hub, hubCaller } = await syncFixture();
  await saveAccessConfig(hub, hubCaller, { aesKey: 'k'.repeat(32), password: 'gate-pass' });
  await hub.db.prepare("UPDATE companies SET serproClientSecret = 'hub-only' WHERE id = ?").run(hubCaller.companyId);
  const top = await readChanges(hub, hubCaller.companyId, undefined, 100);
  const config = top.changes.find((c) => c.table === 'access_configs');
  assert.equal(config?.row?.aesKey, 'k'.repeat(32));
  assert.equal(config?.row?.password, 'gate-pass');
  const company = top.changes.find((c) => c.table === 'companies');
  assert.ok(company?.row && !('serproClientSecret' in company.row));
  await deleteAccessConfig(hub, hubCaller);
  const after = await readChanges(hub, hubCaller.companyId, top.cursor, 100);
  assert.deepEqual(after.changes, [{ table: 'access_configs', key: hubCaller.companyId, row: null }]);
});

test('an unknown cursor, one from another feed, one from the future or one older than pruned tombstones resets', async () => {
  const { hub, hubCaller } = await syncFixture();
  const { cursor } = await readChanges(hub, hubCaller.companyId, undefined, 100);
  const seq = Number(cursor.split('.')[1]);
  const nodeId = (await syncState(hub)).nodeId;
  for (const bad of ['garbage', `otherfeed.${seq}`, `${nodeId}.${seq + 1000}`, `${nodeId}.x`]) {
    assert.equal((await readChanges(hub, hubCaller.companyId, bad, 100)).reset, true, bad);
  }
  assert.equal((await readChanges(hub, hubCaller.companyId, cursor, 100)).reset, false);
  for (let i = 0; i < 3; i++) {
    await saveAccessConfig(hub, hubCaller, { url: '' });
    await deleteAccessConfig(hub, hubCaller);
  }
  await pruneTombstones(hub, 0);
  assert.equal(
    (await readChanges(hub, hubCaller.companyId, cursor, 100)).reset,
    true,
    'a deletion may have been forgotten',
  );
  const fresh = await readChanges(hub, hubCaller.companyId, undefined, 100);
  assert.equal((await readChanges(hub, hubCaller.companyId, fresh.cursor, 100)).reset, false);
});

test('a snapshot leaves out old closed visits, on every page; following the feed, their changes arrive', async () => {
  const { hub, hubClock, hubCaller } = await syncFixture();
  await checkinWalkIn(hub, hubCaller, walkIn('00000000-0000-4000-8000-000000000001', 'Old Closed'));
  await checkoutVisit(hub, hubCaller, '00000000-0000-4000-8000-000000000001', {});
  await checkinWalkIn(hub, hubCaller, walkIn('00000000-0000-4000-8000-000000000002', 'Old Open'));
  hubClock.advance(8 * 86_400_000);
  for (let i = 3; i <= 5; i++) {
    await checkinWalkIn(hub, hubCaller, walkIn(`00000000-0000-4000-8000-00000000000${i}`, `Recent ${i}`));
  }
  await checkoutVisit(hub, hubCaller, '00000000-0000-4000-8000-000000000003', {});
  const names: unknown[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await readChanges(hub, hubCaller.companyId, cursor, 2);
    names.push(...page.changes.filter((c) => c.table === 'visits').map((c) => c.row?.name));
    cursor = page.cursor;
    cursors.push(cursor);
    if (!page.hasMore) break;
  } while (cursor);
  assert.deepEqual(names.sort(), ['Old Open', 'Recent 3', 'Recent 4', 'Recent 5']);
  assert.ok(
    cursors.slice(0, -1).every((c) => c.includes('.full.')),
    'the snapshot is marked until its end',
  );
  assert.ok(!cursors.at(-1)?.includes('.full'));
  // The old visit is deleted at the hub (an erasure does the same): a kiosk following the feed receives it,
  // without the visitor's data (a deleted visit keeps none).
  await deleteVisit(hub, hubCaller, '00000000-0000-4000-8000-000000000001');
  const next = await readChanges(hub, hubCaller.companyId, cursor, 100);
  assert.deepEqual(
    next.changes.map((c) => [c.row?.id, c.row?.name, typeof c.row?.deletedAt]),
    [['00000000-0000-4000-8000-000000000001', null, 'number']],
  );
  assert.equal((await readChanges(hub, hubCaller.companyId, `${cursor}.other`, 100)).reset, true);
});

test('a table joining the feed brings its existing rows', async () => {
  const { hub, hubCaller } = await syncFixture();
  const ana = await createHost(hub, hubCaller, host('ana@acme.test'));
  for (const event of ['insert', 'update', 'delete']) await hub.db.exec(`DROP TRIGGER sync_feed_hosts_${event}`);
  await hub.db.exec("DELETE FROM sync_changes WHERE tableName = 'hosts'");
  const bruno = await createHost(hub, hubCaller, host('bruno@acme.test'));
  await installChangeFeed(hub.db);
  const top = await readChanges(hub, hubCaller.companyId, undefined, 100);
  const hosts = top.changes.filter((c) => c.table === 'hosts');
  assert.deepEqual(hosts.map((c) => c.key).sort(), [ana.id, bruno.id].sort());
  await updateHost(hub, hubCaller, ana.id, { sector: 'R&D' });
  const next = (await readChanges(hub, hubCaller.companyId, top.cursor, 100)).changes;
  assert.deepEqual(
    next.map((c) => c.key),
    [ana.id],
    'its triggers are in place',
  );
});

test('the kiosk adopts the hub company and its rows, not its key, and re-emits nothing', async () => {
  const { hub, hubCaller, company, kiosks, pull } = await syncFixture({ pageLimit: 2 });
  const kiosk = kiosks[0]?.ctx;
  assert.ok(kiosk);
  await saveAccessConfig(hub, hubCaller, { aesKey: 'a'.repeat(32), password: 'secret' });
  const ana = await createHost(hub, hubCaller, host('ana@acme.test'));
  const guest = await createInvitee(hub, hubCaller, invitee(ana.id));
  // The host changes after the invitee: it now comes later in the feed than the invitee that refers to it.
  await updateHost(hub, hubCaller, ana.id, { sector: 'Lobby' });
  await checkinWalkIn(hub, hubCaller, walkIn('00000000-0000-4000-8000-00000000000a'));
  await pull(kiosk);
  assert.equal(await principalForKey(kiosk, company.apiKey), undefined, 'the hub key opens nothing on the kiosk');
  const caller = await kioskAdminOf(kiosk, company.id);
  assert.deepEqual({ ...caller, credentialId: hubCaller.credentialId }, hubCaller, 'the hub company, a local key');
  const rowOf = async (ctx: typeof hub, table: string, id: string) =>
    await ctx.db.prepare(`SELECT * FROM ${table} WHERE id = ?`).get(id);
  assert.deepEqual(
    await rowOf(kiosk, 'companies', hubCaller.companyId),
    await rowOf(hub, 'companies', hubCaller.companyId),
  );
  assert.deepEqual(await rowOf(kiosk, 'hosts', ana.id), await rowOf(hub, 'hosts', ana.id));
  assert.deepEqual(await rowOf(kiosk, 'invitees', guest.id), await rowOf(hub, 'invitees', guest.id));
  const sealed = (await kiosk.db.prepare('SELECT aesKey FROM access_configs').get()) as { aesKey: string };
  assert.match(sealed.aesKey, /^sealed:v1:/);
  assert.equal((await findAccessConfig(kiosk, hubCaller.companyId))?.password, 'secret');
  assert.equal((await pendingSummary(kiosk)).pending, 0, 'what came from the hub is not pushed back');
});

test('a card number moved from one invitee to another arrives whatever the order', async () => {
  const { hub, hubCaller, kiosks, pull } = await syncFixture();
  const kiosk = kiosks[0]?.ctx;
  assert.ok(kiosk);
  const ana = await createHost(hub, hubCaller, host('ana@acme.test'));
  const x = await createInvitee(hub, hubCaller, invitee(ana.id, { cardNumber: 5 }));
  await pull(kiosk);
  await updateInvitee(hub, hubCaller, x.id, { cardNumber: 6 });
  const y = await createInvitee(hub, hubCaller, invitee(ana.id, { cardNumber: 5, email: 'y@x.test' }));
  await updateInvitee(hub, hubCaller, x.id, { notes: 'moved' });
  await pull(kiosk);
  const cards = await kiosk.db.prepare('SELECT id, cardNumber FROM invitees ORDER BY cardNumber').all();
  assert.deepEqual(cards, [
    { id: y.id, cardNumber: 5 },
    { id: x.id, cardNumber: 6 },
  ]);
});

test('a full resync removes what the hub deleted while its tombstone was forgotten', async () => {
  const { hub, hubCaller, kiosks, pull } = await syncFixture();
  const kiosk = kiosks[0]?.ctx;
  assert.ok(kiosk);
  await saveAccessConfig(hub, hubCaller, { url: 'http://gate.test/' });
  await pull(kiosk);
  assert.ok(await findAccessConfig(kiosk, hubCaller.companyId));
  await deleteAccessConfig(hub, hubCaller);
  await pruneTombstones(hub, 0);
  await pull(kiosk);
  assert.equal(await findAccessConfig(kiosk, hubCaller.companyId), undefined);
  assert.equal((await syncState(kiosk)).resyncing, 0);
  assert.deepEqual(await kiosk.db.prepare('SELECT COUNT(*) AS n FROM sync_resync_seen').get(), { n: 0 });
});

test("a kiosk receives the secrets of the gate and of its hosts' notifications, and no other", async () => {
  const { hub, hubCaller } = await syncFixture();
  const secret = (name: string) => `secret-${name}-0123456789`;
  await updateCompany(hub, hubCaller, {
    serproClientSecret: secret('serpro-client'),
    serproAuthToken: secret('serpro-token'),
    liberadoAuthToken: secret('liberado'),
  });
  await saveAccessConfig(hub, hubCaller, {
    enabled: true,
    url: 'http://gate.test/',
    aesKey: secret('aes'),
    password: secret('gate'),
  });
  await saveNotificationSettings(hub, hubCaller, {
    smtpHost: 'smtp.test',
    smtpPassword: secret('smtp'),
    webhookUrl: 'http://127.0.0.1:9/hook',
    webhookSecret: secret('hook'),
    twilioAuthToken: secret('twilio'),
  });
  const travelled = (await readChanges(hub, hubCaller.companyId, undefined, 100)).changes.flatMap((change) =>
    Object.entries(change.row ?? {})
      .filter(([, value]) => typeof value === 'string' && value.startsWith('secret-'))
      .map(([column, value]) => `${change.table}.${column}=${value}`),
  );
  assert.deepEqual(travelled.sort(), [
    `access_configs.aesKey=${secret('aes')}`,
    `access_configs.password=${secret('gate')}`,
    `notification_settings.smtpPassword=${secret('smtp')}`,
    `notification_settings.twilioAuthToken=${secret('twilio')}`,
    `notification_settings.webhookSecret=${secret('hook')}`,
  ]);
});

test("the kiosk keeps the notifications' secrets it receives sealed with its own key, and opens them to send", async () => {
  const { hub, hubCaller, kiosks, pull } = await syncFixture();
  const kiosk = kiosks[0]?.ctx ?? assert.fail('a kiosk');
  const token = 'secret-twilio-token-0123456789';
  await saveNotificationSettings(hub, hubCaller, { twilioAccountSid: 'AC1', twilioAuthToken: token, twilioFrom: '+1' });
  await pull(kiosk);
  const stored = (await kiosk.db
    .prepare('SELECT twilioAuthToken FROM notification_settings WHERE companyId = ?')
    .pluck()
    .get(hubCaller.companyId)) as string;
  assert.notEqual(stored, token);
  assert.equal(stored.includes(token), false);
  assert.equal((await findNotificationSettings(kiosk, hubCaller.companyId))?.twilioAuthToken, token);
});
