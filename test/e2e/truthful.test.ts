import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';

let kiosk: KioskFixture;
let browser: Browser;
let hook: Server;
const received: { kind: string; host: { name: string } }[] = [];

before(async () => {
  kiosk = await kioskFixture();
  await kiosk.api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'off', phone: 'off', company: 'off' },
    pictureMode: 'off',
  });
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
  hook?.close();
});

async function walkIn(page: Page, name: string, host: RegExp | 'reception') {
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill(name);
  await page.getByRole('button', { name: 'Next' }).click();
  if (host === 'reception') {
    await page.getByRole('button', { name: "I don't know whom I'm visiting" }).click();
  } else {
    await page.getByRole('combobox').fill('carlos');
    await page.getByRole('option', { name: host }).click();
  }
}

test('the confirmation says the host was told only once a configured channel confirmed the message', async () => {
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  await walkIn(page, 'Paulo Sem Canal', /Carlos Mendes/);
  await page.getByRole('heading', { name: 'You are checked in, Paulo Sem Canal!' }).waitFor();
  await page.getByText('Please let the reception know you are here to see Carlos Mendes.').waitFor();
  assert.equal(await page.getByText("We're letting", { exact: false }).count(), 0);
  const paulo = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Paulo%20Sem%20Canal');
  assert.equal(paulo.body.visits[0].host.id, kiosk.hosts.carlos.id, 'choosing the host moved on, with the host');
  await page.getByRole('button', { name: 'Done' }).click();

  await walkIn(page, 'Rita Recepção', 'reception');
  await page.getByRole('heading', { name: 'You are checked in, Rita Recepção!' }).waitFor();
  await page.getByText('Please let the reception know you are here.').waitFor();
  await page.getByRole('button', { name: 'Done' }).click();
  const reception = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Rita%20Recep%C3%A7%C3%A3o');
  assert.equal(reception.body.visits[0].host, null, 'the reception: a visit without a host');

  // The front desk sets up a channel: from now on the host is told, and the screen says so.
  const port = (hook.address() as AddressInfo).port;
  await kiosk.api('POST', '/v1/integration/notifications', { webhookUrl: `http://127.0.0.1:${port}/hosts` });
  await walkIn(page, 'Sara Com Canal', /Carlos Mendes/);
  await page.getByText('Carlos Mendes has been notified.', { exact: false }).waitFor();
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'confirmed-host-told');
  for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(received[0]?.kind, 'visit.checkin');
  assert.equal(received[0]?.host.name, 'Carlos Mendes', 'the message the screen speaks of was sent');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a denial has its own words; the wait says who was asked only when someone was', async () => {
  await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: true });
  const { page } = await openKiosk(browser, kiosk.service.url);
  await walkIn(page, 'Tiago Negado', /Carlos Mendes/);
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  await page.getByText('Carlos Mendes has been notified and is asked to confirm your visit.').waitFor();
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Tiago%20Negado');
  await kiosk.api('PATCH', `/v1/visit/deny/${body.visits[0].id}`, {});
  await page.getByRole('heading', { name: 'Thank you, Tiago Negado', exact: true }).waitFor();
  await page.getByText('Please speak to the reception.').waitFor();
  await page.getByText('Your visit could not be confirmed.').waitFor();
  assert.doesNotMatch((await page.textContent('main')) ?? '', /longer than usual/);
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'denied');
  await page.getByRole('button', { name: 'Done' }).click();

  await kiosk.api('DELETE', '/v1/integration/notifications');
  await walkIn(page, 'Ursula Espera', /Carlos Mendes/);
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  await page.getByText('The reception will confirm your visit.').waitFor();
  assert.equal(await page.getByText("We're asking", { exact: false }).count(), 0);
  await kiosk.api('PATCH', '/v1/kiosk/settings', { requireAuthorization: false });
  await page.close();
});
