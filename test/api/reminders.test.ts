import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { parseCidr } from '../../local-api/outgoing/destinations.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { type StandIn, startSlack, startTwilio, type TwilioStandIn } from '../helpers/channels.ts';
import { manualClock } from '../helpers/context.ts';
import { engineEnv } from '../helpers/postgres.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

/*
 * The host's reminder before an expected guest (docs/api.md, "Reminders before a guest"), on a clock the test moves:
 * it goes `reminderMinutesBefore` the expected time through the host's channels, follows a new time, and is dropped
 * when the invitee is canceled, arrives or is deleted, or the host turned `preCheckinNotifications` off.
 */

const minute = 60_000;
const start = Date.UTC(2026, 10, 23, 12, 0, 0);
const clock = manualClock(start);
let service: RunningService;
let api: ReturnType<typeof client>;
let slack: StandIn;
let twilio: TwilioStandIn;
let hostId: string;

before(async () => {
  [slack, twilio] = await Promise.all([startSlack(), startTwilio()]);
  const dataDir = tempDir();
  service = await startService({
    port: 0,
    dataDir,
    database: (await engineEnv(dataDir)).PORTARIA_DATABASE,
    logLevel: 'silent',
    clock,
    allowDestinations: [parseCidr('127.0.0.0/8') ?? assert.fail('a range')],
  });
  const company = await createCompany(service.ctx, { name: 'Acme', timezone: 'UTC' });
  api = client(service.url, company.apiKey);
  const saved = await api('POST', '/v1/integration/notifications', {
    slackWebhookUrl: `${slack.url}/services/T/B/X`,
    twilioAccountSid: twilio.accountSid,
    twilioAuthToken: twilio.authToken,
    twilioFrom: '+15005550006',
    twilioBaseUrl: twilio.url,
    reminderMinutesBefore: 15,
  });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  hostId = (
    await api('POST', '/v1/hosts', {
      name: 'Helena',
      email: 'helena@acme.test',
      phone: '11987654321',
      countryCode: '+55',
    })
  ).body.id;
});
after(async () => {
  await service.close();
  removeDir(service.ctx.dataDir);
  await Promise.all([slack.close(), twilio.close()]);
});

/** An invitee of Helena's expected `inMinutes` after the test's start. */
async function invite(name: string, inMinutes: number, host = hostId): Promise<string> {
  const created = await api('POST', '/v1/invitees', {
    name,
    email: `${name.toLowerCase()}@guests.test`,
    hostId: host,
    expectedAt: new Date(start + inMinutes * minute).toISOString(),
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.id;
}

/** Moves the clock to `minutes` after the start and runs what is due, the messages the reminders queue included. */
async function at(minutes: number) {
  clock.set(start + minutes * minute);
  await service.drainQueue();
  await service.drainQueue();
}

/** Waits until `done` holds (the messages a drained job queued are sent by the worker's own slots). */
async function until(what: string, done: () => boolean) {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const remindersOf = (peer: StandIn, name: string) =>
  peer.accepted().filter((request) => request.raw.includes(name) && request.raw.includes('Reminder'));
const smsRemindersOf = (name: string) =>
  twilio.accepted().filter((request) => (request.body as Record<string, string>).Body?.includes(`Your guest ${name}`));

describe('the reminder before an expected guest', () => {
  test('reaches the host through its channels at its time; a change, a cancellation, a deletion, an arrival drop it', async () => {
    await invite('Ada', 60);
    const moved = await invite('Bruno', 60);
    const canceled = await invite('Carla', 60);
    const deleted = await invite('Davi', 60);
    const arrived = await invite('Elena', 60);
    const silentHost = (
      await api('POST', '/v1/hosts', { name: 'Quiet', email: 'quiet@acme.test', preCheckinNotifications: false })
    ).body.id;
    await invite('Fabio', 60, silentHost);
    // Soon: the reminder goes at once.
    await invite('Gil', 10);

    assert.equal(
      (await api('PATCH', `/v1/invitee/${moved}`, { expectedAt: new Date(start + 120 * minute).toISOString() })).status,
      200,
    );
    assert.equal((await api('PATCH', `/v1/invitee/${canceled}`, { status: 'canceled' })).status, 200);
    assert.equal((await api('DELETE', `/v1/invitee/${deleted}`)).status, 200);
    assert.equal((await api('POST', `/v1/visit/inviteeCheckin/${arrived}`, {})).status, 200);

    await at(0);
    await until('the reminder of Gil', () => remindersOf(slack, 'Gil').length === 1);
    await at(44);
    assert.deepEqual(remindersOf(slack, 'Ada'), [], 'not before its time');

    await at(45);
    await until('the reminders of Ada', () => remindersOf(slack, 'Ada').length + smsRemindersOf('Ada').length === 2);
    const posted = remindersOf(slack, 'Ada')[0]?.body as { text: string };
    assert.match(posted.text, /^For Helena: Reminder: Ada is expected at /);
    const sms = smsRemindersOf('Ada')[0]?.body as Record<string, string>;
    assert.deepEqual(
      [sms.To, sms.Body?.split('\n')[0]],
      ['+5511987654321', 'Your guest Ada is expected at 11/23/26, 1:00 PM. You will be told when they check in.'],
    );

    await at(70);
    for (const name of ['Bruno', 'Carla', 'Davi', 'Elena', 'Fabio']) {
      assert.deepEqual(remindersOf(slack, name), [], `${name}: no reminder at the old time or at all`);
    }
    await at(105);
    await until('the reminder of Bruno at the new time', () => remindersOf(slack, 'Bruno').length === 1);
    await at(200);
    assert.equal(remindersOf(slack, 'Ada').length, 1, 'each reminder goes once');
    assert.deepEqual(
      ['Carla', 'Davi', 'Elena', 'Fabio'].flatMap((name) => [...remindersOf(slack, name), ...smsRemindersOf(name)]),
      [],
    );
    const listed = (await api('GET', '/v1/integration/notifications/deliveries?limit=100')).body.deliveries as {
      channel: string;
      subject: string;
      status: string;
    }[];
    assert.deepEqual(
      listed
        .filter((row) => row.subject.startsWith('Reminder: Ada'))
        .map((row) => [row.channel, row.status])
        .sort(),
      [
        ['slack', 'done'],
        ['sms', 'done'],
      ],
    );
  });
});
