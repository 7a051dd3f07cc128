/**
 * A host answers from the message (docs/api.md, "Deciding from the message"), is escalated when they do not
 * (docs/api.md, "Escalation"), and the kiosk says only what is true of the message (docs/api.md, "Delivery
 * state"). The service runs in this process on a clock the test moves, its mail going to a local SMTP server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runtimePart } from '../../local-api/context.ts';
import { parseCidr } from '../../local-api/outgoing/destinations.ts';
import { setPublicAddress } from '../../local-api/public/address.ts';
import { publicLink } from '../../local-api/public/links.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { jpegBytes } from '../helpers/files.ts';
import { engineEnv } from '../helpers/postgres.ts';
import { client, runCli, tempDir } from '../helpers/service.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { waitFor } from '../helpers/sync-service.ts';

const clock = manualClock(Date.now());
let running: RunningService;
let smtp: TestSmtp;
type Api = ReturnType<typeof client>;
let api: Api;
let companyId: string;
let guestTypeId: string;
/** A port nothing listens on: the SMTP server of a company whose mail cannot go out. */
let closedPort: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A company of the service, made by the command line as an operator would; answers its API. */
async function newCompany(name: string): Promise<{ api: Api; id: string }> {
  const dataDir = running.ctx.dataDir;
  const created = JSON.parse(
    await runCli(['company', 'create', '--data', dataDir, '--name', name, '--timezone', 'America/Sao_Paulo']),
  );
  return { api: client(running.url, created.apiKey), id: created.id };
}

before(async () => {
  smtp = await startSmtp();
  closedPort = await freePort();
  const dataDir = tempDir();
  const { PORTARIA_DATABASE: database } = await engineEnv(dataDir);
  running = await startService({
    dataDir,
    database,
    port: 0,
    clock,
    logLevel: 'silent',
    allowDestinations: [parseCidr('127.0.0.0/8') ?? assert.fail('a CIDR')],
  });
  // The page is where the links point: this service, as `--public-url` would say.
  setPublicAddress(running.ctx, running.url);
  ({ api, id: companyId } = await newCompany('Acme'));
  const saved = await api('POST', '/v1/integration/notifications', {
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    emailFrom: 'visitors@acme.test',
    escalateAfterMinutes: 5,
    receptionEmail: 'reception@acme.test',
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal(saved.body.escalateAfterMinutes, 5);
  assert.equal(saved.body.receptionEmail, 'reception@acme.test');
  guestTypeId = (await api('POST', '/v1/visitortypes', { kind: 'guest', requireAuthorization: true })).body.id;
});
after(async () => {
  await running.close();
  await smtp.close();
});

/** A host with an address of the test's own, and another where the fallback goes. */
async function newHost(name: string) {
  const email = `host-${randomUUID()}@acme.test`;
  const deputy = `deputy-${randomUUID()}@acme.test`;
  const created = await api('POST', '/v1/hosts', { name, email, additionalEmails: [deputy] });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return { id: created.body.id as string, email, deputy };
}

const checkIn = (hostId: string, name: string, fields: Record<string, unknown> = {}) =>
  api('POST', '/v1/visits', {
    visit: { id: randomUUID(), hostId, ...fields },
    visitor: { name, company: 'Initech' },
    visitPicture: jpegBytes().toString('base64'),
  });

const mailTo = (address: string) =>
  waitFor(`a mail to ${address}`, async () => smtp.mails.find((mail) => mail.to.includes(address)));

/** The link a message's text offers for `label` (`label: url` on a line of its own). */
function linkIn(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`${label}: `));
  return line?.slice(label.length + 2) ?? assert.fail(`no "${label}" link in: ${text}`);
}

/** A page as a browser reading English gets it (fetch's own `accept-language: *` takes the service's first). */
const page = async (url: string, init: RequestInit = {}) => {
  const headers = { 'accept-language': 'en', ...(init.headers as Record<string, string> | undefined) };
  const response = await fetch(url, { redirect: 'manual', ...init, headers });
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
};
const answer = (url: string, value: string) =>
  page(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ answer: value }).toString(),
  });

/** Runs the queue's jobs that are due by the test's clock, now. */
function wakeQueue() {
  runtimePart<{ wake: (() => void) | undefined }>(running.ctx, 'queue.worker', () => ({ wake: undefined })).wake?.();
}

describe('deciding from the message', () => {
  test('Allow decides as the host, once, and only by the button', async () => {
    const host = await newHost('Helena');
    const checkin = await checkIn(host.id, 'Walter Bishop', { visitorTypeId: guestTypeId });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    assert.equal(checkin.body.authorizationStatus, 'waiting');
    const visitId = checkin.body.id as string;
    const mail = await mailTo(host.email);
    assert.match(mail.subject, /Walter Bishop/);
    const allow = linkIn(mail.text, 'Allow');
    const deny = linkIn(mail.text, 'Deny');
    assert.ok(allow.startsWith(`${running.url}/p/decide/`), allow);
    assert.notEqual(allow, deny, 'each action is a link of its own');

    // Opening the link (a mail scanner does it too) shows the visitor and decides nothing.
    for (let i = 0; i < 2; i++) {
      const opened = await page(allow);
      assert.equal(opened.status, 200);
      assert.match(opened.text, /Walter Bishop/);
      assert.match(opened.text, /Initech/);
      assert.match(opened.text, /<form method="post"/);
      assert.match(opened.text, /<img class="picture" src="\/p\/decide\/[^"]+\/picture"/);
    }
    const picture = await fetch(`${allow}/picture`);
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await picture.arrayBuffer()), jpegBytes());
    assert.equal((await api('GET', `/v1/visit/${visitId}`)).body.authorizationStatus, 'waiting');

    const decided = await answer(allow, 'ALLOWED');
    assert.equal(decided.status, 200, decided.text);
    assert.match(decided.text, /You allowed Walter Bishop in/);
    const visit = (await api('GET', `/v1/visit/${visitId}`)).body;
    assert.equal(visit.authorizationStatus, 'allowed');
    assert.equal(visit.authorizedById, host.id);
    assert.equal(visit.authorizationVia, 'LINK');
    const audit = (await api('GET', '/v1/audit?limit=1000')).body.entries as Record<string, unknown>[];
    const entry = audit.find((e) => e.action === 'visit.allowed' && e.objectId === visitId);
    assert.ok(entry, 'the decision is in the audit log');
    assert.equal(entry.actorHostId, host.id, 'the audit log names the host');

    const again = await answer(allow, 'ALLOWED');
    assert.equal(again.status, 409, 'the link is single-use');
    assert.match(again.text, /used already/);
    assert.equal((await page(allow)).status, 409, 'and its page says so');
    const other = await page(deny);
    assert.equal(other.status, 200);
    assert.match(other.text, /already allowed in, by Helena/);
    const late = await answer(deny, 'DENIED');
    assert.match(late.text, /already allowed in, by Helena/);
    assert.equal((await api('GET', `/v1/visit/${visitId}`)).body.authorizationStatus, 'allowed');
  });

  test('a visit decided at the desk first says who decided; Deny turns a visitor away', async () => {
    const host = await newHost('Heloísa');
    const first = (await checkIn(host.id, 'Nina Sharp', { visitorTypeId: guestTypeId })).body.id as string;
    const allow = linkIn((await mailTo(host.email)).text, 'Allow');
    await api('PATCH', `/v1/visit/allow/${first}`, { authorizationVia: 'DASHBOARD' });
    const opened = await page(allow, { headers: { 'accept-language': 'pt-BR' } });
    assert.match(opened.text, /já foi liberada, por a recepção/);

    const other = await newHost('Astrid');
    const second = (await checkIn(other.id, 'Peter Bishop', { visitorTypeId: guestTypeId })).body.id as string;
    const deny = linkIn((await mailTo(other.email)).text, 'Deny');
    const denied = await answer(deny, 'DENIED');
    assert.match(denied.text, /You turned Peter Bishop away/);
    assert.equal((await api('GET', `/v1/visit/${second}`)).body.authorizationStatus, 'denied');
  });

  test('forged, foreign-purpose and expired links are refused; a visit not here yet asks to try again', async () => {
    const forged = await page(`${running.url}/p/decide/eyJjIjoiYSJ9.AAAA`);
    assert.equal(forged.status, 404);
    assert.match(forged.text, /not valid/);
    const bad = await answer(`${running.url}/p/decide/x.y`, 'ALLOWED');
    assert.equal(bad.status, 404);

    const expiresAt = clock.now() + 60_000;
    const subjectId = randomUUID();
    const elsewhere =
      (await publicLink(running.ctx, companyId, { purpose: 'decide', subjectId, expiresAt })) ?? assert.fail('a link');
    const notHere = await page(elsewhere);
    assert.equal(notHere.status, 503);
    assert.match(notHere.text, /not reached this server yet/);
    assert.equal((await answer(elsewhere, 'ALLOWED')).status, 503, 'nor does the button decide anything');

    // A visitor held at the door (a name on the blocklist, nothing to tell them apart): the desk decides.
    await api('POST', '/v1/blockedlist', { name: 'Thomas Jerome Newton', email: 'newton@bad.test', reason: 'x' });
    const holder = await newHost('Rachel');
    const held = await checkIn(holder.id, 'Thomas Jerome Newton', { visitorTypeId: guestTypeId });
    assert.equal(held.body.heldAtDoor, true);
    const heldLink =
      (await publicLink(running.ctx, companyId, { purpose: 'decide', subjectId: held.body.id, expiresAt })) ??
      assert.fail('a link');
    assert.match((await page(heldLink)).text, /The reception decides about Thomas Jerome Newton/);
    assert.match((await answer(heldLink, 'ALLOWED')).text, /The reception decides/);
    assert.equal((await api('GET', `/v1/visit/${held.body.id}`)).body.authorizationStatus, 'waiting');
    // A visit deleted since: nothing is left to decide.
    await api('DELETE', `/v1/visit/${held.body.id}`);
    assert.equal((await page(heldLink)).status, 404);
    assert.equal((await answer(heldLink, 'ALLOWED')).status, 404);

    const host = await newHost('Olivia');
    await checkIn(host.id, 'Sam Weiss', { visitorTypeId: guestTypeId });
    const allow = linkIn((await mailTo(host.email)).text, 'Allow');
    clock.advance(5 * 3_600_000);
    try {
      const expired = await answer(allow, 'ALLOWED');
      assert.equal(expired.status, 403);
      assert.match(expired.text, /expired/);
    } finally {
      clock.advance(-5 * 3_600_000);
    }
  });
});

describe('escalation', () => {
  test('a host who neither opens nor answers is escalated: fallback e-mails and the front desk', async () => {
    const silent = await newHost('Ana');
    const opener = await newHost('Bruna');
    const silentVisit = (await checkIn(silent.id, 'Charlie Francis')).body.id as string;
    await checkIn(opener.id, 'Dana Scully');
    const arrival = await mailTo(silent.email);
    assert.match(arrival.text, /I'm on my way: http/, 'a plain arrival offers a link to say so');
    // Bruna opens her message's page: that is enough, she is not escalated.
    const opened = await page(linkIn((await mailTo(opener.email)).text, "I'm on my way"));
    assert.equal(opened.status, 200);
    assert.match(opened.text, /Dana Scully/);

    clock.advance(4 * 60_000);
    wakeQueue();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(smtp.mails.filter((mail) => mail.subject.startsWith('Ana has not')).length, 0, 'not yet');

    clock.advance(2 * 60_000);
    wakeQueue();
    const fallback = await waitFor('the fallback e-mail', async () =>
      smtp.mails.find((mail) => mail.subject === 'Ana has not answered about Charlie Francis (Initech)'),
    );
    assert.deepEqual(fallback.to.sort(), [silent.deputy, 'reception@acme.test'].sort());
    assert.match(fallback.text, /has not opened or answered the message in 5 minutes/);
    const late = (today: { unansweredHosts: { visitId: string }[] }) =>
      today.unansweredHosts.filter((item) => item.visitId === silentVisit);
    const today = (await api('GET', '/v1/today')).body;
    assert.deepEqual(late(today), [{ visitId: silentVisit, hostName: 'Ana', visitorName: 'Charlie Francis' }]);
    assert.equal(today.unanswered, today.unansweredHosts.length);
    assert.equal(
      smtp.mails.filter((mail) => mail.subject.startsWith('Bruna has not answered')).length,
      0,
      'the host who opened the page was not escalated',
    );

    // Ana answers at last: the desk's item goes.
    const onMyWay = await answer(linkIn(arrival.text, "I'm on my way"), 'ON_MY_WAY');
    assert.equal(onMyWay.status, 200);
    assert.deepEqual(late((await api('GET', '/v1/today')).body), []);
  });
});

describe('delivery state', () => {
  test('sending until the SMTP server accepted, notified after; failed when every delivery failed; none without channels', async () => {
    const host = await newHost('Eva');
    const checkin = await checkIn(host.id, 'Frank Stanton');
    assert.equal(checkin.body.hostNotification, 'sending', 'queued is not told');
    assert.equal(checkin.body.hostNotified, false);
    await mailTo(host.email);
    const told = await waitFor('the delivery to be confirmed', async () => {
      const visit = (await api('GET', `/v1/visit/${checkin.body.id}`)).body;
      return visit.hostNotification === 'notified' && visit;
    });
    assert.equal(told.hostNotified, true);

    const down = await newCompany('Down');
    await down.api('POST', '/v1/integration/notifications', {
      smtpHost: '127.0.0.1',
      smtpPort: closedPort,
      smtpSecurity: 'none',
    });
    const downHost = (await down.api('POST', '/v1/hosts', { name: 'Gil', email: 'gil@down.test' })).body.id;
    const failing = await down.api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: downHost },
      visitor: { name: 'Hank' },
    });
    assert.equal(failing.body.hostNotification, 'sending');
    await waitFor('every delivery to fail', async () => {
      const visit = (await down.api('GET', `/v1/visit/${failing.body.id}`)).body;
      return visit.hostNotification === 'failed';
    });
    const history = (await down.api('GET', '/v1/visits/history')).body.visits as Record<string, unknown>[];
    assert.equal(history.find((v) => v.id === failing.body.id)?.hostNotification, 'failed');
    const deliveries = (await down.api('GET', '/v1/integration/notifications/deliveries')).body.deliveries;
    assert.equal(deliveries[0].hostName, 'Gil');
    assert.equal(deliveries[0].channel, 'email');
    assert.match(deliveries[0].lastError, /SMTP 127\.0\.0\.1/);

    const quiet = await newCompany('Quiet');
    const quietHost = (await quiet.api('POST', '/v1/hosts', { name: 'Ivy', email: 'ivy@quiet.test' })).body.id;
    const untold = await quiet.api('POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: quietHost },
      visitor: { name: 'Jack' },
    });
    assert.equal(untold.body.hostNotification, 'none', 'no channel is set up: nobody is being told');
  });
});
