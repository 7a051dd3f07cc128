import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { launchChromium, openKiosk } from '../helpers/browser.ts';
import { badgePages, invite, type KioskFixture, kioskFixture, sign } from '../helpers/kiosk.ts';

/*
 * The page in the lobby holds only the kiosk credential. Every request it makes through every visitor flow is
 * recorded, with its answer: each /v1 request carries the kiosk credential (never the company's key), calls only
 * what the kiosk role offers, and no answer holds a secret or another person's data.
 */

let kiosk: KioskFixture;
let browser: Browser;

/** What must never reach the screen: the company's secrets and other people's data. */
const secrets = {
  aesKey: 'AES-SECRET-0f3a9c',
  gatePassword: 'gate-PASSWORD-77',
  smtpPassword: 'SMTP-PASSWORD-19',
  webhookSecret: 'WEBHOOK-SECRET-42',
};
const otherPeople = [
  // A visitor inside, another guest expected today, the hosts' contact data, the blocklist's reason.
  'Zélia Outra',
  'zelia@private.test',
  '853.513.468-93',
  '98888-7777',
  'Otávio Convidado',
  'otavio@guest.test',
  'beatriz@acme.test',
  'carlos@acme.test',
  '3333-4444',
  'Hidden Host',
  'Threatened the staff',
];

interface Recorded {
  method: string;
  path: string;
  query: string;
  authorization: string | undefined;
  status: number;
  body: string;
}

function record(page: Page): Recorded[] {
  const seen: Recorded[] = [];
  const keep = async (request: Request) => {
    const url = new URL(request.url());
    const response = await request.response();
    const type = response?.headers()['content-type'] ?? '';
    seen.push({
      method: request.method(),
      path: url.pathname,
      query: url.search,
      authorization: (await request.allHeaders()).authorization,
      status: response?.status() ?? 0,
      body: response && /json|text/.test(type) ? await response.text().catch(() => '') : '',
    });
  };
  page.on('requestfinished', (request) => void keep(request));
  page.on('requestfailed', (request) => void keep(request));
  return seen;
}

before(async () => {
  kiosk = await kioskFixture();
  const { api } = kiosk;
  await api('PATCH', `/v1/host/${kiosk.hosts.carlos.id}`, { phone: '11 3333-4444', countryCode: '+55' });
  await api('PATCH', '/v1/kiosk/settings', {
    visitorFields: { email: 'optional', phone: 'off', company: 'optional', cpf: 'optional' },
    pictureMode: 'optional',
    ndaText: 'What is seen inside stays inside.',
  });
  await api('POST', '/v1/integration/access', {
    enabled: true,
    aesKey: secrets.aesKey,
    username: 'gate',
    password: secrets.gatePassword,
    staticVisitorQRCode: true,
  });
  await api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: 9,
    smtpUsername: 'mailer',
    smtpPassword: secrets.smtpPassword,
    webhookSecret: secrets.webhookSecret,
  });
  const plate = await api('POST', '/v1/customfields', { name: 'Vehicle plate', type: 'Text', required: true });
  await api('POST', '/v1/visitortypes', { kind: 'guest', sort: 0 });
  await api('POST', '/v1/visitortypes', { kind: 'interview', sort: 1, requireAuthorization: true });
  await api('POST', '/v1/blockedlist', { name: 'Igor', cpf: '529.982.247-25', reason: 'Threatened the staff' });
  const inside = await api('POST', '/v1/visits', {
    visit: {
      id: randomUUID(),
      hostId: kiosk.hosts.beatriz.id,
      customFields: [{ customFieldId: plate.body.id, value: 'ZZZ9Z99' }],
    },
    visitor: { name: 'Zélia Outra', email: 'zelia@private.test', cpf: '853.513.468-93', phone: '11 98888-7777' },
  });
  assert.equal(inside.status, 200, JSON.stringify(inside.body));
  await invite(kiosk, 'Otávio Convidado', { email: 'otavio@guest.test' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await kiosk?.service.stop();
});

async function walkIn(page: Page, type: string, name: string, extra: (page: Page) => Promise<void> = async () => {}) {
  await page.getByRole('button', { name: type, exact: true }).click();
  await page.getByLabel('Full name').fill(name);
  await extra(page);
  await page.getByRole('button', { name: 'Next' }).click();
}

test('every request of every visitor flow uses the kiosk credential, and no answer holds a secret or anyone else', async () => {
  assert.notEqual(kiosk.kioskKey, kiosk.apiKey, 'the page gets a credential of its own');
  const { page, problems } = await openKiosk(browser, kiosk.service.url);
  const seen = record(page);
  const badges = badgePages(page);
  await page.getByRole('heading', { name: 'What brings you here?' }).waitFor();

  // A walk-in with the host found by name, the company's field, a picture and the agreement; the gate code.
  await walkIn(page, 'Guest', 'Ana Visitante', async () => {
    await page.getByLabel('E-mail').fill('ana@visit.test');
  });
  await page.getByRole('combobox').fill('bea');
  await page.getByRole('option', { name: /Beatriz Lima/ }).click();
  await page.getByLabel('Vehicle plate').fill('ABC1D23');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Ana Visitante!' }).waitFor();
  await page.getByRole('img', { name: 'Your code for the gate' }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();

  // A visitor on the blocklist, stopped after their data.
  await walkIn(page, 'Guest', 'Igor Bloqueado', async () => {
    await page.getByLabel('CPF').fill('529.982.247-25');
  });
  await page.getByRole('heading', { name: 'Thank you', exact: true }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();

  // A visit the host must allow: the waiting screen follows it.
  await walkIn(page, 'Job interview', 'Ivo Entrevista', async () => {
    await page.getByLabel('E-mail').fill('ivo@visit.test');
  });
  await page.getByRole('combobox').fill('carl');
  await page.getByRole('option', { name: /Carlos Mendes/ }).click();
  await page.getByLabel('Vehicle plate').fill('DEF4G56');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Continue without a picture' }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
  const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Ivo%20Entrevista');
  await kiosk.api('PATCH', `/v1/visit/allow/${body.visits[0].id}`, {});
  await page.getByRole('heading', { name: 'You are checked in, Ivo Entrevista!' }).waitFor({ timeout: 6000 });
  await page.getByRole('button', { name: 'Done' }).click();

  // Invited guests: by name (the invitation lacks the plate), and by the invitation's code.
  await invite(kiosk, 'Paula Convidada');
  const coded = await invite(kiosk, 'Rui Codigo', { customFields: [] });
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill('Paula Convidada');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByText('Paula C.', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByLabel('Vehicle plate').fill('GHI7J89');
  await page.getByRole('button', { name: 'Next' }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Paula Convidada!' }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('button', { name: /I have an invitation/ }).click();
  await page.getByLabel('Your name or invitation code').fill(String(coded.cardNumber));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me in' }).click();
  await page.getByLabel('Vehicle plate').fill('KLM0N12');
  await page.getByRole('button', { name: 'Next' }).click();
  await sign(page);
  await page.getByRole('button', { name: 'I agree and sign' }).click();
  await page.getByRole('heading', { name: 'You are checked in, Rui Codigo!' }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();

  // Check-out by name: only the visitor's own first name and initial come back.
  await page.getByRole('button', { name: /I'm leaving/ }).click();
  await page.getByLabel('Your name').fill('Ana Visitante');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Yes, check me out' }).click();
  await page.getByRole('heading', { name: 'Goodbye, Ana!' }).waitFor();
  await page.getByRole('button', { name: 'Done' }).click();

  // The badge page the shell prints.
  await page.goto(`${kiosk.service.url}${badges.get(body.visits[0].id)}`);
  await page.waitForFunction(() => document.body.dataset.badgeReady === 'true');
  await page.waitForLoadState('networkidle');
  assert.deepEqual(problems, []);

  const api = seen.filter((r) => r.path.startsWith('/v1/'));
  assert.ok(api.length > 30, `the flows made ${api.length} requests`);
  const signedFile = (r: Recorded) => r.path.startsWith('/v1/files/') && /[?&]signature=/.test(r.query);
  for (const r of api) {
    const what = `${r.method} ${r.path}${r.query}`;
    if (signedFile(r)) {
      assert.equal(r.authorization, undefined, `${what}: a signed link needs no credential`);
      continue;
    }
    assert.equal(r.authorization, `Bearer ${kiosk.kioskKey}`, `${what} uses the kiosk credential`);
    assert.notEqual(r.status, 403, `${what} is within the kiosk role`);
  }
  // What the page reads besides its own /v1/kiosk/… endpoints: the settings and definitions, nobody's data.
  const otherReads = [...new Set(api.filter((r) => !r.path.startsWith('/v1/kiosk/') && !signedFile(r)))]
    .map((r) => `${r.method} ${r.path}`)
    .filter((v, i, all) => all.indexOf(v) === i)
    .sort();
  assert.deepEqual(otherReads, ['GET /v1/customfields', 'GET /v1/sync/status', 'GET /v1/visitortypes']);

  const session = seen.find((r) => r.path === '/kiosk/session');
  assert.ok(session, 'the page asked for its credential');
  assert.equal(JSON.parse(session.body).apiKey, kiosk.kioskKey);

  for (const r of seen) {
    const what = `${r.method} ${r.path}${r.query}`;
    assert.ok(!r.body.includes(kiosk.apiKey), `${what} answers no company key`);
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!r.body.includes(secret), `${what} answers no ${name}`);
    }
    for (const data of otherPeople) assert.ok(!r.body.includes(data), `${what} answers nothing of "${data}"`);
  }
  // A lookup by name answers a first name and an initial, never the whole name.
  for (const r of api.filter((x) => x.path.endsWith('/find'))) {
    assert.ok(!/Convidada|Visitante/.test(r.body), `${r.path}: ${r.body}`);
  }
  await page.close();
});
