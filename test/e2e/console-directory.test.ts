/**
 * The console's Visit log, Hosts and Kiosks pages in Chromium (docs/console.md): the log filtered by status and
 * kiosk, with the visitor's photo and the CSV of what it shows downloaded; a host spreadsheet with a bad row
 * previewed with the row's problem and nothing written, then a good one imported; the kiosks a hub knows, and one
 * enrolled by the code it shows; a manager reads the directory without changing it. Every page is axe-clean and fits
 * at 1440×900 and 390×844.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  type OpenedConsole,
  openConsole as openConsoleAt,
  type Person,
  type Session,
  signedInPerson,
} from '../helpers/accounts.ts';
import { axeProblems, launchChromium, overflowing, screenshot } from '../helpers/browser.ts';
import { pngBytes } from '../helpers/files.ts';
import { type KioskFixture, kioskFixture } from '../helpers/kiosk.ts';
import { client } from '../helpers/service.ts';

let kiosk: KioskFixture;
let browser: Browser;
let admin: Person & { session: Session };
let manager: Person & { session: Session };
const lobbyDevice = 'd1e2f3a4b5c6d7e8';
/** The lobby kiosk's sync credential: what the visits it checked in carry (`checkinByIpadId`). */
let lobbyCredential: string;

const desk = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

before(async () => {
  kiosk = await kioskFixture();
  admin = await signedInPerson(kiosk.service.url, kiosk.apiKey, { role: 'ADMIN', name: 'Alice Admin' });
  manager = await signedInPerson(kiosk.service.url, kiosk.apiKey, { role: 'MANAGER', name: 'Mario Manager' });
  // A kiosk of this hub, reporting itself with its pull (docs/sync.md, "Kiosks").
  const sync = await kiosk.api('POST', '/v1/credentials', { role: 'sync', label: 'Lobby kiosk' });
  lobbyCredential = sync.body.id;
  const visit = async (name: string, extra: Record<string, unknown>) => {
    const reply = await kiosk.api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: kiosk.hosts.carlos.id, ...extra },
      visitor: { name, company: 'Initech' },
    });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.id as string;
  };
  const pictured = await visit('Paula Photo', { checkinByIpadId: lobbyCredential });
  const put = await fetch(`${kiosk.service.url}/v1/visit/${pictured}/picture`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${kiosk.apiKey}`, 'content-type': 'image/png' },
    body: new Uint8Array(pngBytes(8)),
  });
  assert.equal(put.status, 200, await put.text());
  const left = await visit('Otto Out', { checkinByIpadId: lobbyCredential });
  assert.equal((await kiosk.api('PATCH', `/v1/visit/checkout/${left}`, {})).status, 200);
  await visit('Ivo Inside', {});
  const pulled = await client(kiosk.service.url, sync.body.key)(
    'GET',
    `/v1/sync/changes?clientId=c0c1c2c3c4c5c6c7&deviceId=${lobbyDevice}&pending=2&clockSkewMs=1500&appVersion=0.1.0`,
  );
  assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

/** A console page signed in as `person`, failing the test on any script error or CSP violation. */
async function openConsole(
  person: { session: Session },
  path: string,
  viewport: { width: number; height: number } = desk,
): Promise<OpenedConsole> {
  return await openConsoleAt(browser, kiosk.service.url, {
    path,
    session: person.session,
    viewport,
    acceptDownloads: true,
  });
}

test("the visit log filters by status and kiosk, shows the visitor's photo, and downloads what it shows", async () => {
  const { page, context, problems } = await openConsole(admin, '/console/visit-log');
  try {
    await page.getByRole('cell', { name: 'Ivo Inside' }).waitFor();
    const photo = page.getByRole('img', { name: 'Photo of Paula Photo' });
    await photo.waitFor();
    assert.ok(await photo.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0), 'the photo loads');

    await page.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Checked out' });
    await page
      .getByRole('combobox', { name: /^Kiosk/ })
      .selectOption({ label: `Kiosk ${lobbyCredential.slice(0, 8)}` });
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 visit shown' }).waitFor();
    assert.equal(await page.getByRole('cell', { name: 'Ivo Inside' }).count(), 0);
    assert.equal(await page.getByRole('cell', { name: /Otto Out/ }).count(), 1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^visits-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const lines = readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(lines[1] ?? '', /"Otto Out"/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a host spreadsheet with a bad row is previewed with its problem and writes nothing; a good one imports', async () => {
  const { page, context, problems } = await openConsole(admin, '/console/hosts');
  try {
    await page.getByRole('cell', { name: 'beatriz@acme.test' }).waitFor();
    const file = (text: string) => ({ name: 'hosts.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    const bad = 'Name;E-mail;Role;Sector\nNina Novo;nina@acme.test;host;Sales\nRui Ruim;not-an-address;host;Sales\n';
    await page.getByLabel('CSV file').setInputFiles(file(bad));
    await page.getByText('1 row has a problem: nothing is imported until it is fixed.').waitFor();
    await page.getByRole('cell', { name: 'The e-mail is not valid.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /^Import/ }).count(), 0, 'nothing to import');
    const listed = (await kiosk.api('GET', '/v1/hosts')).body.hosts.map((h: { email: string }) => h.email);
    assert.ok(!listed.includes('nina@acme.test'), 'the good row was not written either');

    const good =
      'name,email,role,sector\nNina Novo,nina@acme.test,host,Sales\nBeatriz Lima,beatriz@acme.test,manager,\n';
    await page.getByLabel('CSV file').setInputFiles(file(good));
    await page.getByText('1 to add, 1 to update.').waitFor();
    await page.getByRole('button', { name: 'Import 2 hosts' }).click();
    await page.getByText('Imported: 1 added, 1 updated.').waitFor();
    await page.getByRole('cell', { name: 'nina@acme.test' }).waitFor();
    const hosts = (await kiosk.api('GET', '/v1/hosts')).body.hosts as { email: string; role: string }[];
    assert.equal(hosts.find((h) => h.email === 'beatriz@acme.test')?.role, 'MANAGER');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a manager reads the host directory and changes nothing', async () => {
  const { page, context, problems } = await openConsole(manager, '/console/hosts');
  try {
    await page.getByRole('cell', { name: 'carlos@acme.test' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add a host' }).count(), 0);
    assert.equal(await page.getByLabel('CSV file').count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Kiosks' }).count(), 0, "the Kiosks page is an admin's");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the kiosks page lists the devices and enrols one by the code it shows', async () => {
  const { page, context, problems } = await openConsole(admin, '/console/kiosks');
  try {
    const row = page.getByRole('row').filter({ hasText: lobbyDevice });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    for (const shown of ['Online', '1.5 s behind', '0.1.0']) assert.ok(text.includes(shown), `${shown} in ${text}`);

    const opened = await client(kiosk.service.url)('POST', '/v1/kiosks/pairing?deviceId=e0e1e2e3e4e5e6e7');
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    await page.getByLabel('Code on the kiosk').fill('WRONG-CODE');
    await page.getByRole('button', { name: 'Enrol' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code is unknown, expired or used.' }).waitFor();
    await page.getByLabel('Code on the kiosk').fill(`${opened.body.code.slice(0, 4)}-${opened.body.code.slice(4)}`);
    await page.getByLabel('Name (optional)').fill('Garage entrance');
    await page.getByRole('button', { name: 'Enrol' }).click();
    await page.getByText('Garage entrance is enrolled').waitFor();
    await page.getByRole('row').filter({ hasText: 'Garage entrance' }).waitFor();
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Visit log, Hosts and Kiosks are axe-clean and fit a desk and a phone', async () => {
  for (const viewport of [desk, phone]) {
    for (const [path, shown] of [
      ['/console/visit-log', 'Ivo Inside'],
      ['/console/hosts', 'carlos@acme.test'],
      ['/console/kiosks', lobbyDevice],
    ] as const) {
      const { page, context, problems } = await openConsole(admin, path, viewport);
      try {
        await page.getByRole('cell', { name: shown }).first().waitFor();
        assert.deepEqual(await axeProblems(page), [], `${path} at ${viewport.width}×${viewport.height}`);
        assert.deepEqual(
          await overflowing(page, 'main *:not(thead, thead *)'),
          [],
          `${path} at ${viewport.width}: nothing off screen`,
        );
        if (viewport === phone) {
          const small = await page.evaluate(() =>
            Array.from(document.querySelectorAll('main button'))
              .filter((button) => button.getBoundingClientRect().height > 0)
              .filter((button) => button.getBoundingClientRect().height < 44)
              .map((button) => button.textContent),
          );
          assert.deepEqual(small, [], `${path}: small buttons on a phone`);
        }
        await screenshot(page, `console-${path.replace('/console/', '')}-${viewport.width}x${viewport.height}`);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
  }
});
