/**
 * A host decides from the message, and the waiting visitor sees it (docs/kiosk.md, "Outcomes"): a
 * visitor waits at a kiosk page; the host's e-mail (a real local SMTP server, parsed by mailparser) carries the
 * Allow link; a second page opens it, sees the visitor, and clicks Allow; the kiosk page shows the welcome. Once on
 * a standalone kiosk with `--public-url`, once on a kiosk of a hub, the link opened at the hub. And the screen's
 * delivery states: notified only once the SMTP server accepted, "tell the reception" when it never does.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { axeProblems, launchChromium, openKiosk, screenshot } from '../helpers/browser.ts';
import { type KioskFixture, kioskFixture, openFrontDesk } from '../helpers/kiosk.ts';
import { allowLoopback, client, startService, type TestService } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { withServiceDb } from '../helpers/store.ts';
import { localAdminKey, online, upstreamArgs, waitFor } from '../helpers/sync-service.ts';

let browser: Browser;
let smtp: TestSmtp;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `serve` arguments: this port, this address as the public one (links in e-mails point here), loopback allowed. */
async function publicArgs(): Promise<string[]> {
  const port = await freePort();
  return [...allowLoopback, '--port', String(port), '--public-url', `http://127.0.0.1:${port}`];
}

/** The kiosk asks for a name, a host and a picture, and every visitor waits for the host's approval. */
const waitingKiosk = {
  visitorFields: { email: 'off', phone: 'off', cpf: 'off', company: 'optional' },
  pictureMode: 'optional',
  ndaText: '',
  requireAuthorization: true,
};

before(async () => {
  smtp = await startSmtp();
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await smtp?.close();
});

const mailSettings = () => ({
  smtpHost: '127.0.0.1',
  smtpPort: smtp.port,
  smtpSecurity: 'none',
  emailFrom: 'visitors@acme.test',
});

async function walkIn(page: Page, name: string, host: RegExp) {
  await page.getByRole('button', { name: /I'm visiting/ }).click();
  await page.getByLabel('Full name').fill(name);
  await page.getByLabel('Company').fill('Massive Dynamic');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('combobox').fill(host.source.split(' ')[0] ?? '');
  await page.getByRole('option', { name: host }).click();
  await page.getByRole('heading', { name: 'Your picture' }).waitFor();
  await page.getByRole('button', { name: 'Take picture' }).click();
  await page.getByRole('button', { name: 'Use this picture' }).click();
}

/** The Allow link of the mail to `to` about `visitor`, as mailparser reads the message. */
async function allowLinkOf(to: string, visitor: string): Promise<string> {
  const mail = await waitFor(`the host's mail about ${visitor}`, async () =>
    smtp.mails.find((m) => m.to.includes(to) && m.subject.includes(visitor)),
  );
  const parsed = await simpleParser(mail.raw);
  const link = /^Allow: (\S+)$/m.exec(parsed.text ?? '')?.[1];
  return link ?? assert.fail(`no Allow link in: ${parsed.text}`);
}

/**
 * The host's side: opens the link in a page of their own, checks who it is (name, picture) and clicks Allow.
 * Answers the moment of the click, and the host's page.
 */
async function allowFromLink(link: string, visitor: string, picture: boolean): Promise<{ at: number; page: Page }> {
  const page = await browser.newPage({ locale: 'en-US' });
  // At a hub, the visit may not be there yet (the kiosk's push is a moment away): the page says to try again.
  await waitFor('the visit to reach the page', async () => (await page.goto(link))?.status() === 200);
  await page.getByRole('heading', { name: 'Your visitor is waiting for you' }).waitFor();
  await page.getByText(visitor, { exact: true }).waitFor();
  await page.getByText('Massive Dynamic').waitFor();
  if (picture) {
    const img = page.getByRole('img', { name: `Picture of ${visitor}` });
    await img.waitFor();
    assert.ok(await img.evaluate((node) => (node as HTMLImageElement).naturalWidth > 0), 'the picture loads');
  }
  assert.deepEqual(await axeProblems(page), []);
  await screenshot(page, 'decide-page');
  const at = Date.now();
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.getByText(`You allowed ${visitor} in.`, { exact: false }).waitFor();
  return { at, page };
}

describe('a standalone kiosk with a public address', () => {
  let kiosk: KioskFixture;
  before(async () => {
    kiosk = await kioskFixture({ args: await publicArgs() });
    await kiosk.api('PATCH', '/v1/kiosk/settings', waitingKiosk);
    await kiosk.api('POST', '/v1/integration/notifications', mailSettings());
  });
  after(async () => {
    await kiosk?.service.stop();
  });

  test('Allow from the e-mail reaches the waiting screen within 2 s; the link is single-use, a GET decides nothing', async (t) => {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    await walkIn(page, 'Walter Bishop', /Beatriz Lima/);
    await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
    // Said at once, and only once the SMTP server took the message: notified.
    await page.getByText('Beatriz Lima has been notified and is asked to confirm your visit.').waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'waiting-notified');

    const link = await allowLinkOf('beatriz@acme.test', 'Walter Bishop');
    // A mail scanner fetches the link: nothing is decided.
    assert.equal((await fetch(link)).status, 200);
    const { body } = await kiosk.api('GET', '/v1/visits?queryKey=name&queryOp===&queryValue=Walter%20Bishop');
    const visitId = body.visits[0].id as string;
    assert.equal(body.visits[0].authorizationStatus, 'waiting');

    const host = await allowFromLink(link, 'Walter Bishop', true);
    await page.getByRole('heading', { name: 'You are checked in, Walter Bishop!' }).waitFor({ timeout: 10_000 });
    const seconds = (Date.now() - host.at) / 1000;
    t.diagnostic(`standalone: Allow clicked → welcome on the waiting screen in ${seconds.toFixed(2)} s`);
    assert.ok(
      seconds < 4,
      `the decision reached the screen in ${seconds} s (within 2 s, with room for a busy machine)`,
    );

    const visit = (await kiosk.api('GET', `/v1/visit/${visitId}`)).body;
    assert.equal(visit.authorizedById, kiosk.hosts.beatriz.id);
    assert.equal(visit.authorizationVia, 'LINK');
    const audit = (await kiosk.api('GET', '/v1/audit?limit=1000')).body.entries as Record<string, unknown>[];
    const entry = audit.find((e) => e.action === 'visit.allowed' && e.objectId === visitId);
    assert.equal(entry?.actorHostId, kiosk.hosts.beatriz.id, 'the audit log names the host');

    // The link cannot be used twice.
    await host.page.goto(link);
    await host.page.getByText('The link was used already.').waitFor();
    await host.page.close();
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('a kiosk of a hub, the link opened at the hub', () => {
  let hub: TestService;
  let kiosk: TestService;
  before(async () => {
    hub = await startService({ args: await publicArgs() });
    const company = await hub.company('Acme');
    const api = client(hub.url, company.apiKey);
    await api('PATCH', '/v1/company', { name: 'Acme', timezone: 'America/Sao_Paulo', lang: 'en' });
    await api('POST', '/v1/integration/notifications', mailSettings());
    await api('POST', '/v1/hosts', { name: 'Nina Sharp', email: 'nina@acme.test', isActive: true });
    kiosk = await startService({ args: [...upstreamArgs(hub.url, company.apiKey), ...allowLoopback] });
    const localKey = await localAdminKey(kiosk);
    await online(kiosk, localKey);
    // The kiosk's screen settings are the device's own.
    const settings = await client(kiosk.url, localKey)('PATCH', '/v1/kiosk/settings', waitingKiosk);
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
  });
  after(async () => {
    await kiosk?.stop();
    await hub?.stop();
  });

  test("the kiosk's message links to the hub; Allow there reaches the kiosk's waiting screen by poke and pull", async (t) => {
    const { page, problems } = await openKiosk(browser, kiosk.url);
    await walkIn(page, 'Astrid Farnsworth', /Nina Sharp/);
    await page.getByRole('heading', { name: 'Please wait a moment' }).waitFor();
    const link = await allowLinkOf('nina@acme.test', 'Astrid Farnsworth');
    assert.ok(link.startsWith(`${hub.url}/p/decide/`), `the kiosk's link points at the hub: ${link}`);
    // The hub does not hold the pictures kiosks take: the page shows the name alone.
    const host = await allowFromLink(link, 'Astrid Farnsworth', false);
    await page.getByRole('heading', { name: 'You are checked in, Astrid Farnsworth!' }).waitFor({ timeout: 10_000 });
    const seconds = (Date.now() - host.at) / 1000;
    t.diagnostic(`hub → kiosk: Allow clicked at the hub → welcome on the kiosk's screen in ${seconds.toFixed(2)} s`);
    assert.ok(seconds < 4, `the decision reached the kiosk's screen in ${seconds} s`);
    // The host's reply, recorded at the hub, reached the kiosk by the feed: its escalation of the visit knows it.
    const reply = await waitFor('the reply at the kiosk', () =>
      withServiceDb(
        kiosk.dataDir,
        async (db) => await db.prepare("SELECT * FROM host_replies WHERE answer = 'ALLOWED'").get(),
      ),
    );
    assert.ok((reply as { openedAt: number | null }).openedAt !== null, 'opened, then answered');
    await host.page.close();
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe("the screen's delivery states", () => {
  let kiosk: KioskFixture;
  let closedPort: number;
  before(async () => {
    kiosk = await kioskFixture({ args: allowLoopback });
    await kiosk.api('PATCH', '/v1/kiosk/settings', { ...waitingKiosk, requireAuthorization: false });
    closedPort = await freePort();
  });
  after(async () => {
    await kiosk?.service.stop();
  });

  test('SMTP down: "we are letting … know", then "please tell the reception"; up: notified once accepted', async () => {
    await kiosk.api('POST', '/v1/integration/notifications', {
      smtpHost: '127.0.0.1',
      smtpPort: closedPort,
      smtpSecurity: 'none',
    });
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    await walkIn(page, 'Phillip Broyles', /Carlos Mendes/);
    await page.getByRole('heading', { name: 'You are checked in, Phillip Broyles!' }).waitFor();
    await page.getByText("We're letting Carlos Mendes know you are here.", { exact: false }).waitFor();
    await page
      .getByText('We could not reach Carlos Mendes. Please tell the reception you are here to see them.')
      .waitFor({ timeout: 15_000 });
    assert.equal(await page.getByText('has been notified', { exact: false }).count(), 0);
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'confirmed-host-failed');
    await page.getByRole('button', { name: 'Done' }).click();

    // The front desk: the failing delivery (who, which channel, the error) and the visit's delivery state.
    const desk = (await openKiosk(browser, kiosk.service.url)).page;
    await openFrontDesk(desk, kiosk.pin);
    await desk.getByRole('tab', { name: 'Status' }).click();
    const failure = desk.locator('table.message-failures tbody tr').first();
    await failure.waitFor();
    const row = (await failure.textContent()) ?? '';
    assert.match(row, /Carlos Mendes/);
    assert.match(row, /email/);
    assert.match(row, new RegExp(`cannot reach SMTP 127\\.0\\.0\\.1:${closedPort}`));
    assert.deepEqual(await axeProblems(desk), []);
    await screenshot(desk, 'front-desk-messages-failing');
    await desk.close();
    await deskSays('Phillip Broyles', 'Host not reached');

    // SMTP back: the next visitor's host is notified once the server accepted (and the retry of the first goes).
    await kiosk.api('POST', '/v1/integration/notifications', mailSettings());
    const before = smtp.mails.length;
    await walkIn(page, 'Lincoln Lee', /Carlos Mendes/);
    await page.getByRole('heading', { name: 'You are checked in, Lincoln Lee!' }).waitFor();
    await page.getByText('Carlos Mendes has been notified.', { exact: false }).waitFor();
    assert.ok(
      smtp.mails.slice(before).some((m) => m.subject.includes('Lincoln Lee')),
      'the screen said notified once the SMTP server had the message',
    );
    await page.getByRole('button', { name: 'Done' }).click();
    assert.deepEqual(problems, []);
    await page.close();
    await deskSays('Lincoln Lee', 'Host notified');
  });

  /** The visit log's delivery state of a visitor's visit, as the front desk shows it. */
  async function deskSays(name: string, state: string) {
    const desk = (await openKiosk(browser, kiosk.service.url)).page;
    await openFrontDesk(desk, kiosk.pin);
    await desk.getByRole('tab', { name: 'Visits' }).click();
    const row = desk.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    assert.match((await row.locator('td').nth(5).textContent()) ?? '', new RegExp(`${state}$`), `${name}: ${state}`);
    await desk.close();
  }

  test("the desk's banner names a host who has not answered", async () => {
    const { page, problems } = await openKiosk(browser, kiosk.service.url);
    // The escalation itself (minutes later, by the service's clock) is test/api/host-replies.test.ts's; here the
    // desk shows what GET /v1/today says of it.
    await page.route('**/v1/today', async (route) => {
      const today = await (await route.fetch()).json();
      const late = { visitId: 'v-late', hostName: 'Carlos Mendes', visitorName: 'Phillip Broyles' };
      await route.fulfill({ json: { ...today, unanswered: 1, unansweredHosts: [late] } });
    });
    await openFrontDesk(page, kiosk.pin);
    const item = page.getByRole('button', { name: 'Carlos Mendes has not answered about Phillip Broyles' });
    await item.waitFor();
    assert.deepEqual(await axeProblems(page), []);
    await screenshot(page, 'front-desk-unanswered');
    await item.click();
    await page.getByRole('tab', { name: /Inside/, selected: true }).waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });
});
