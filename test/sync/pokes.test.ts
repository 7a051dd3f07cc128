/**
 * Pokes between real processes (docs/sync.md, "Pokes"): kiosks that poll their hub only once a minute still see a
 * sibling's check-in at once, because the hub pokes them and they pull; another company's kiosk is not poked; a
 * broken poke channel leaves polling to carry the changes, and is opened again; a kiosk that stops ends its stream.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startService as startInProcess } from '../../local-api/server.ts';
import { syncAgentOf } from '../../local-api/sync/agent.ts';
import { type FaultProxy, startFaultProxy } from '../helpers/fault-proxy.ts';
import { client, startService, type TestService, tempDir } from '../helpers/service.ts';
import { type Kiosk, localAdminKey, online, upstreamArgs, waitFor } from '../helpers/sync-service.ts';

let hub: TestService;
let acme: { id: string; apiKey: string };
let beta: { id: string; apiKey: string };
let hostId: string;
const proxies: FaultProxy[] = [];
const kiosks: Kiosk[] = [];

/** A kiosk of the hub behind a fault proxy of its own, syncing by itself only every `interval`. */
async function startKiosk(apiKey: string, interval: string): Promise<{ kiosk: Kiosk; proxy: FaultProxy }> {
  const proxy = await startFaultProxy(hub.url);
  proxies.push(proxy);
  const service = await startService({ args: [...upstreamArgs(proxy.url, apiKey), '--sync-interval', interval] });
  const kiosk = Object.assign(service, { apiKey: await localAdminKey(service) });
  kiosks.push(kiosk);
  await online(kiosk, kiosk.apiKey);
  await subscribed(kiosk, true);
  return { kiosk, proxy };
}

/** Waits until the kiosk's status says its poke stream is open (or closed). */
function subscribed(kiosk: Kiosk, open: boolean, timeoutMs = 15_000) {
  return waitFor(
    `the kiosk's poke stream to be ${open ? 'open' : 'closed'}`,
    async () => (await client(kiosk.url, kiosk.apiKey)('GET', '/v1/sync/status')).body.subscribed === open,
    timeoutMs,
  );
}

const visitIds = async (kiosk: Kiosk): Promise<string[]> => {
  const reply = await client(kiosk.url, kiosk.apiKey)('GET', '/v1/visits?limit=1000');
  assert.equal(reply.status, 200);
  return (reply.body.visits as { id: string }[]).map((visit) => visit.id);
};

async function checkIn(kiosk: Kiosk, id: string): Promise<void> {
  const reply = await client(kiosk.url, kiosk.apiKey)('POST', '/v1/visits', {
    visit: { id, hostId },
    visitor: { name: `Visitor ${id.slice(-4)}` },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
}

const pulls = (proxy: FaultProxy) => proxy.log.filter((entry) => entry.path.startsWith('/v1/sync/changes')).length;

before(async () => {
  hub = await startService();
  acme = await hub.company('Acme');
  beta = await hub.company('Beta');
  hostId = (await client(hub.url, acme.apiKey)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body.id;
});

after(async () => {
  for (const kiosk of kiosks) await kiosk.stop();
  for (const proxy of proxies) await proxy.close();
  await hub?.stop();
});

test("a check-in at one kiosk reaches its sibling by a poke, long before its poll; another company's kiosk is not poked", {
  timeout: 120_000,
}, async () => {
  // Both kiosks poll once a minute: within this test, only a poke makes them pull.
  const a = await startKiosk(acme.apiKey, '60s');
  const b = await startKiosk(acme.apiKey, '60s');
  const other = await startKiosk(beta.apiKey, '60s');
  const bPulls = pulls(b.proxy);
  const otherPulls = pulls(other.proxy);

  const id = '00000000-0000-4000-8000-00000000a001';
  await checkIn(a.kiosk, id);
  await waitFor('the check-in at the sibling kiosk', async () => (await visitIds(b.kiosk)).includes(id), 10_000);
  assert.ok(pulls(b.proxy) > bPulls, 'the sibling pulled');

  // The other company's kiosk was subscribed all along and pulled nothing: nobody told it of Acme's check-in.
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(pulls(other.proxy), otherPulls, "Beta's kiosk pulled after Acme's check-in");
  assert.equal(other.proxy.openStreams(), 1);
});

test('a broken poke channel leaves polling to carry the changes, and is subscribed again', {
  timeout: 120_000,
}, async () => {
  const a = kiosks[0] as Kiosk;
  const d = await startKiosk(acme.apiKey, '2s');
  // The network now refuses the stream, and drops the one open.
  d.proxy.choose((req) => (req.url?.startsWith('/v1/sync/pokes') ? { status: 503 } : 'pass'));
  d.proxy.cutStreams();
  await subscribed(d.kiosk, false);

  const id = '00000000-0000-4000-8000-00000000d001';
  await checkIn(a, id);
  await waitFor('the check-in at the kiosk without pokes', async () => (await visitIds(d.kiosk)).includes(id), 20_000);
  assert.equal(d.proxy.openStreams(), 0);
  const refused = d.proxy.log.filter((e) => e.path.startsWith('/v1/sync/pokes') && e.fault === 'status 503').length;
  assert.ok(refused >= 1, 'the kiosk tried to subscribe again');

  // The channel back, the kiosk holds one stream again, however many attempts it made meanwhile.
  d.proxy.choose(undefined);
  await subscribed(d.kiosk, true, 45_000);
  assert.equal(d.proxy.openStreams(), 1);
});

test('a kiosk that stops ends its poke stream', { timeout: 60_000 }, async () => {
  const proxy = await startFaultProxy(hub.url);
  proxies.push(proxy);
  const kiosk = await startInProcess({
    dataDir: tempDir(),
    port: 0,
    upstream: { url: proxy.url, apiKey: acme.apiKey },
    logLevel: 'silent',
    syncPollMs: 60_000,
  });
  try {
    await waitFor('the subscription', async () => syncAgentOf(kiosk.ctx.db)?.memory().subscribed === true);
    assert.equal(proxy.openStreams(), 1);
  } finally {
    await kiosk.close();
  }
  // Closed from the kiosk's side: the hub's end of the stream goes with it, nothing is left open.
  await waitFor('the stream to close', async () => proxy.openStreams() === 0, 5_000);
});
