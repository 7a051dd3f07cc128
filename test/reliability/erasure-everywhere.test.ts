import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { jpegBytes, pdfBytes } from '../helpers/files.ts';
import { allowLoopback, client, startService, succeeded, type TestService } from '../helpers/service.ts';
import { localAdminKey, online, syncNow, upstreamArgs } from '../helpers/sync-service.ts';

/*
 * A hub and a kiosk that follows it, as real processes on real files. A person is seeded everywhere personal data
 * can live (walk-ins at both, with picture and NDA; an invitation; a meeting's guest list and title; a notification
 * text; the blocklist; deliveries queued to a webhook receiver, a notification endpoint and the gate, at the hub
 * and at the kiosk, all down), exported, then erased at the hub by name and phone. Afterwards no byte of their name, e-mail,
 * phone or CPF is in any file of either data folder (databases, WALs, pictures, NDAs, queues), nor in any answer.
 * Retention is proven the same way: the hub's setting removes an old visit's copies on the kiosk too.
 */

const person = {
  name: 'Zuleica Pimentel-Quaresma',
  email: 'zuleica.pq@privacy.test',
  phone: '+55 (11) 98765-4321',
  cpf: '529.982.247-25',
};
/** What must not be found: the person's data as typed, and their CPF and phone as bare digits. */
const traces = [person.name, person.email, person.phone, person.cpf, '52998224725', '98765-4321', '987654321'];

const backupsOff = ['--backup-interval', '0'];
let hub: TestService;
let kiosk: TestService;
let key: string;
/** The kiosk's own admin key: the hub's opens nothing there. */
let kioskKey: string;
let atHub: ReturnType<typeof client>;
let atKiosk: ReturnType<typeof client>;
let downPort: number;

/** A port nothing listens on: deliveries to it fail and stay queued. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  downPort = await closedPort();
  hub = await startService({ args: [...allowLoopback, ...backupsOff] });
  const company = await hub.company('Privacy Co');
  key = company.apiKey;
  atHub = client(hub.url, key);
  kiosk = await startService({ args: [...upstreamArgs(hub.url, key), ...allowLoopback, ...backupsOff] });
  kioskKey = await localAdminKey(kiosk);
  await online(kiosk, kioskKey);
  atKiosk = client(kiosk.url, kioskKey);
});
after(async () => {
  await kiosk?.stop();
  await hub?.stop();
});

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The traces found in any file of the data folder, as `file: trace`. */
function tracesOnDisk(dataDir: string): string[] {
  return filesUnder(dataDir).flatMap((file) => {
    const bytes = readFileSync(file);
    return traces.filter((trace) => bytes.includes(trace)).map((trace) => `${file}: ${trace}`);
  });
}

/** The traces found in what the service answers about the company. */
async function tracesInAnswers(as: ReturnType<typeof client>, paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const reply = await as('GET', path);
    assert.equal(reply.status, 200, path);
    const text = JSON.stringify(reply.body);
    found.push(...traces.filter((trace) => text.includes(trace)).map((trace) => `${path}: ${trace}`));
  }
  return found;
}

const answered = [
  '/v1/visits?limit=1000',
  '/v1/visitors?limit=1000',
  '/v1/invitees?limit=1000',
  '/v1/meetings?limit=1000',
  '/v1/notifications?limit=1000',
  '/v1/blockedlist?limit=1000',
  '/v1/audit?limit=1000',
  '/v1/roster',
];

describe('a person seeded on a hub and its kiosk', () => {
  test('is exported whole, then erased from every copy: no byte of them remains on either', async () => {
    const host = await succeeded(atHub, 'POST', '/v1/hosts', {
      name: 'Helena Host',
      email: 'helena@privacy-co.test',
      preCheckinNotifications: true,
    });
    await succeeded(atHub, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${downPort}/hook`, events: ['*'] });
    await succeeded(atHub, 'POST', '/v1/integration/notifications', {
      webhookUrl: `http://127.0.0.1:${downPort}/notify`,
    });
    await succeeded(atHub, 'POST', '/v1/integration/access', {
      enabled: true,
      url: `http://127.0.0.1:${downPort}/gate`,
    });
    const soon = Date.now() + 86_400_000;
    const meeting = await succeeded(atHub, 'POST', '/v1/meetings', {
      title: `Contract review with ${person.name}`,
      guests: [person.email, 'someone.else@privacy.test'],
      start: new Date(soon).toISOString(),
      end: new Date(soon + 3_600_000).toISOString(),
      location: 'Room 1',
      type: 'MEETING',
      hostId: host.id,
    });
    await succeeded(atHub, 'POST', '/v1/invitees', {
      name: person.name,
      phone: person.phone,
      cpf: person.cpf,
      hostId: host.id,
      expectedAt: new Date(soon).toISOString(),
    });
    const pdf = await pdfBytes(`I agree. Signed: ${person.name}`);
    const atTheHub = await succeeded(atHub, 'POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: host.id },
      visitor: person,
      visitPicture: jpegBytes().toString('base64'),
      visitNda: pdf.toString('base64'),
    });
    await succeeded(atHub, 'PATCH', `/v1/visit/deny/${atTheHub.id}`, {});
    await succeeded(atHub, 'POST', '/v1/notifications', {
      type: 'visit',
      message: `${person.name} (CPF ${person.cpf}, ${person.phone}, ${person.email}) is on her way`,
      hosts: [host.id],
    });

    await syncNow(kiosk, kioskKey);
    const atTheKiosk = await succeeded(atKiosk, 'POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: host.id },
      visitor: person,
      visitPicture: jpegBytes().toString('base64'),
      visitNda: pdf.toString('base64'),
    });
    assert.equal((await atKiosk('GET', atTheKiosk.pictureUrl)).status, 200, 'the picture is on the kiosk');
    await syncNow(kiosk, kioskKey);
    await succeeded(atHub, 'POST', '/v1/blockedlist', { name: person.name, cpf: person.cpf, reason: 'Seeded' });
    await syncNow(kiosk, kioskKey);

    const queued = await succeeded(atKiosk, 'GET', '/v1/sync/status');
    assert.equal(queued.pending, 0, 'the kiosk pushed its check-in');
    assert.ok(tracesOnDisk(kiosk.dataDir).length > 0, 'seeded on the kiosk');

    const exported = await succeeded(atHub, 'POST', '/v1/privacy/export', { name: person.name, phone: person.phone });
    assert.deepEqual(
      {
        visits: exported.visits.map((v: { id: string }) => v.id).sort(),
        invitees: exported.invitees.map((i: { email: string | null }) => i.email ?? 'invited by name').sort(),
        visitors: exported.visitors.length,
        blocklist: exported.blocklist.length,
        meetings: exported.meetings.map((m: { id: string }) => m.id),
        notifications: exported.notifications.length,
        files: exported.files.map((f: { purpose: string }) => f.purpose).sort(),
      },
      {
        visits: [atTheHub.id, atTheKiosk.id].sort(),
        invitees: ['invited by name', person.email],
        visitors: 1,
        blocklist: 1,
        meetings: [meeting.id],
        notifications: 1,
        files: ['visit-nda', 'visit-picture'],
      },
    );
    const picture = exported.files.find((f: { purpose: string }) => f.purpose === 'visit-picture');
    assert.deepEqual(Buffer.from(picture.contentBase64, 'base64'), jpegBytes(), 'files come with their bytes');
    assert.ok(exported.deliveries.length >= 5, `deliveries queued about them: ${exported.deliveries.length}`);
    const atKioskExport = await succeeded(atKiosk, 'POST', '/v1/privacy/export', { email: person.email });
    assert.deepEqual(
      atKioskExport.files.map((f: { purpose: string }) => f.purpose).sort(),
      ['visit-nda', 'visit-picture'],
      "the kiosk's export holds the files taken there",
    );

    const erased = await succeeded(atHub, 'POST', '/v1/privacy/erasure', { name: person.name, phone: person.phone });
    assert.equal(erased.visits, 2);
    assert.equal(erased.invitees, 2, 'the invitation and the meeting guest');
    assert.equal(erased.blocklist, 1);
    assert.equal(erased.meetings, 1);
    assert.equal(erased.notifications, 1);
    assert.ok(erased.deliveries > 0);
    await syncNow(kiosk, kioskKey);
    await syncNow(kiosk, kioskKey);

    assert.equal((await atKiosk('GET', atTheKiosk.pictureUrl)).status, 404, "the kiosk's picture is gone");
    assert.equal((await atKiosk('GET', atTheKiosk.ndaUrl)).status, 404, "the kiosk's NDA is gone");
    assert.equal((await atHub('GET', atTheHub.pictureUrl)).status, 404);
    assert.equal((await fetch(`${kiosk.url}${atTheKiosk.pictureSignedUrl}`)).status, 404, 'a link handed out before');
    const scrubbed = await succeeded(atHub, 'GET', `/v1/meeting/${meeting.id}`);
    assert.deepEqual(scrubbed.guests, ['someone.else@privacy.test'], 'the other guest stays invited');
    assert.equal(scrubbed.title, 'Contract review with [erased]');

    assert.deepEqual(await tracesInAnswers(atHub, [...answered, '/v1/sync/rejections']), []);
    assert.deepEqual(await tracesInAnswers(atKiosk, answered), []);
    assert.deepEqual(tracesOnDisk(hub.dataDir), [], 'nothing on the hub: database, WAL, files');
    assert.deepEqual(tracesOnDisk(kiosk.dataDir), [], 'nothing on the kiosk: database, WAL, files, queue');
  });

  test("the hub's retention takes an old visit's copies on the kiosk with it: row, visitor record, files, queue", async () => {
    const old = { name: 'Otília Antiga', email: 'otilia.old@privacy.test', phone: '+55 21 91234-5678' };
    const host = (await succeeded(atHub, 'GET', '/v1/hosts')).hosts[0];
    await syncNow(kiosk, kioskKey);
    const visit = await succeeded(atKiosk, 'POST', '/v1/visits', {
      visit: { id: randomUUID(), hostId: host.id, checkinAt: new Date(Date.now() - 40 * 86_400_000).toISOString() },
      visitor: old,
      visitPicture: jpegBytes().toString('base64'),
    });
    await syncNow(kiosk, kioskKey);
    assert.equal((await atKiosk('GET', visit.pictureUrl)).status, 200);
    const found = (bytes: Buffer) => [old.name, old.email, old.phone].filter((t) => bytes.includes(t));
    const onDisk = (dir: string) => filesUnder(dir).flatMap((file) => found(readFileSync(file)));
    assert.ok(onDisk(kiosk.dataDir).length > 0);

    await succeeded(atHub, 'PUT', '/v1/privacy/retention', { retentionDays: 30 });
    await syncNow(kiosk, kioskKey);
    await syncNow(kiosk, kioskKey);
    assert.equal((await atKiosk('GET', visit.pictureUrl)).status, 404, "the kiosk's picture went with the visit");
    assert.equal((await atKiosk('GET', `/v1/visit/${visit.id}`)).status, 404);
    const visitors = JSON.stringify((await succeeded(atKiosk, 'GET', '/v1/visitors')).visitors);
    assert.equal(visitors.includes(old.email), false, "the kiosk's visitor record went too");
    assert.deepEqual(onDisk(hub.dataDir), []);
    assert.deepEqual(onDisk(kiosk.dataDir), []);
  });
});
