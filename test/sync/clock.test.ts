import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { client, startService, type TestService } from '../helpers/service.ts';
import { type Kiosk, logLines, startKiosk, syncNow } from '../helpers/sync-service.ts';

/*
 * Kiosks whose clocks are set three hours wrong, one ahead and one behind, beside a hub and a gate with the right
 * time: the kiosks keep the hub's time, so their codes open the gate and their visits close anywhere.
 */

const hours = 3_600_000;
const aesKey = 'clock-test-aes-key-0123456789abcdef';

let hub: TestService;
let gate: GateProcess;
let ahead: Kiosk;
let behind: Kiosk;
let company: { id: string; apiKey: string };
let hostId: string;
let browser: Browser | undefined;

/** The hub answers its company's key; a kiosk, a key of its own. */
const api = (service: TestService | Kiosk) =>
  client(service.url, 'apiKey' in service ? service.apiKey : company.apiKey);

before(async () => {
  [hub, gate] = await Promise.all([startService(), startGateProcess({ aesKey })]);
  company = await hub.company('Acme');
  assert.equal((await api(hub)('PATCH', '/v1/company', { lang: 'en' })).status, 200);
  assert.equal((await api(hub)('POST', '/v1/integration/access', { enabled: true, aesKey })).status, 200);
  hostId = (await api(hub)('POST', '/v1/hosts', { name: 'Ana', email: 'ana@acme.test' })).body.id;
  [ahead, behind] = await Promise.all([
    startKiosk(hub.url, company.apiKey, undefined, 3 * hours),
    startKiosk(hub.url, company.apiKey, undefined, -3 * hours),
  ]);
});
after(async () => {
  await browser?.close();
  await Promise.all([ahead?.stop(), behind?.stop(), gate?.stop()]);
  await hub?.stop();
});

async function walkIn(kiosk: Kiosk, name: string): Promise<string> {
  const made = await api(kiosk)('POST', '/v1/visits', { visit: { id: randomUUID(), hostId }, visitor: { name } });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.id;
}

async function syncAll(): Promise<void> {
  for (const kiosk of [ahead, behind, ahead, behind]) {
    const status = await syncNow(kiosk, kiosk.apiKey);
    assert.deepEqual([status.state, status.rejected], ['online', 0]);
  }
}

test('a kiosk 3 h ahead or behind makes QR codes that a gate on the right time accepts', async () => {
  for (const kiosk of [ahead, behind]) {
    const id = await walkIn(kiosk, 'Quinn Code');
    const code = await api(kiosk)('GET', `/v1/visit/${id}/qrcode`);
    assert.equal(code.status, 200);
    const verdict = await gate.verify(code.body.payload);
    assert.equal(verdict.valid, true, JSON.stringify(verdict));
    const issuedAt = Date.parse(code.body.issuedAt);
    assert.ok(Math.abs(issuedAt - Date.now()) < 60_000, `issued at ${code.body.issuedAt}, on the hub's time`);
    // The kiosk's page renews the code after this long, not by the device's clock (3 h off).
    assert.ok(code.body.expiresInMs > 0 && code.body.expiresInMs <= 30_000, `renewed in ${code.body.expiresInMs} ms`);
  }
});

test('their visits carry the hub time and can be checked out at the hub and at a sibling kiosk', async () => {
  const atHubDesk = await walkIn(ahead, 'Ahead Left At Hub');
  const atSibling = await walkIn(ahead, 'Ahead Left At Sibling');
  const fromBehind = await walkIn(behind, 'Behind Left At Sibling');
  await syncAll();
  const visit = (await api(hub)('GET', `/v1/visit/${atHubDesk}`)).body;
  assert.ok(Math.abs(Date.parse(visit.checkinAt) - Date.now()) < 60_000, `checked in at ${visit.checkinAt}`);

  const out = (service: TestService, id: string) => api(service)('PATCH', `/v1/visit/checkout/${id}`, {});
  assert.equal((await out(hub, atHubDesk)).status, 200);
  assert.equal((await out(behind, atSibling)).status, 200);
  assert.equal((await out(ahead, fromBehind)).status, 200);
  await syncAll();
  for (const id of [atHubDesk, atSibling, fromBehind]) {
    const there = (await api(hub)('GET', `/v1/visit/${id}`)).body;
    assert.equal(there.isInsideCompany, false, `${there.name} left`);
    assert.ok(Date.parse(there.checkoutAt) >= Date.parse(there.checkinAt));
  }
});

test('the sync status warns the front desk of a clock more than 30 s off', async () => {
  for (const [kiosk, offset] of [
    [ahead, -3 * hours],
    [behind, 3 * hours],
  ] as const) {
    const status = (await api(kiosk)('GET', '/v1/sync/status')).body;
    assert.ok(Math.abs(status.clockSkewMs - offset) < 5_000, `measured ${status.clockSkewMs}`);
    assert.equal(status.clockWarning, true);
    assert.equal(logLines(kiosk, "sync: this clock is off from the hub's; the hub's time is used").length, 1);
  }
  const atHub = (await api(hub)('GET', '/v1/sync/status')).body;
  assert.deepEqual([atHub.clockSkewMs, atHub.clockWarning], [null, false]);
});

test("the front desk's status panel shows the warning", async () => {
  browser = await launchChromium();
  const { page, problems } = await openKiosk(browser, ahead.url);
  const typePin = async (submit: string) => {
    for (const digit of '246810') await page.getByRole('button', { name: digit, exact: true }).click();
    await page.getByRole('button', { name: submit }).click();
  };
  // A kiosk a hub enrolled has no PIN until its admin sets one: nobody at the screen chooses it.
  assert.equal((await api(ahead)('POST', '/v1/kiosk/pin', { pin: '246810' })).status, 200);
  await page.getByRole('button', { name: 'Front desk' }).click();
  await page.getByRole('heading', { name: 'Front-desk PIN' }).waitFor();
  await typePin('Open');
  await page.getByRole('tab', { name: 'Status' }).click();
  const warning = page.getByRole('alert').filter({ hasText: "This device's clock is 3 hr ahead of the hub's." });
  await warning.waitFor();
  assert.match(
    (await warning.textContent()) ?? '',
    /Visits and QR codes use the hub's time; set the device's clock right\./,
  );
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'front-desk-status-clock');
  assert.deepEqual(problems, []);
});

test("the kiosk's page renews a visitor's gate code by the service's time, though the device's runs 3 h behind", async () => {
  const configured = await api(hub)('POST', '/v1/integration/access', {
    qrcodeDuration: 5,
    staticVisitorQRCode: false,
  });
  assert.equal(configured.status, 200);
  await syncNow(behind, behind.apiKey);
  browser ??= await launchChromium();
  const { page, problems } = await openKiosk(browser, behind.url);
  // The page's clock is the device's: as far behind as the service process's own.
  await page.addInitScript(`{ const machineNow = Date.now; Date.now = () => machineNow() - ${3 * hours}; }`);
  await page.reload();
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill('Renata Renewed');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: "I don't know whom I'm visiting" }).click();
  await page.getByRole('button', { name: 'Continue without a picture' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Renata Renewed!' }).waitFor();
  const code = page.getByRole('region', { name: 'Your code for the gate' }).getByRole('img');
  await code.waitFor();
  const first = await code.getAttribute('src');
  await page.waitForFunction((shown) => document.querySelector('.gate-qr')?.getAttribute('src') !== shown, first, {
    timeout: 15_000,
  });
  assert.deepEqual(problems, []);
});
