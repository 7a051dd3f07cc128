import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createCompany } from '../../local-api/companies/store.ts';
import { type RunningService, startService } from '../../local-api/server.ts';
import { manualClock } from '../helpers/context.ts';
import { engineEnv } from '../helpers/postgres.ts';
import { client, removeDir, tempDir } from '../helpers/service.ts';

/*
 * The console's analytics (docs/console.md, "Analytics") on a fixed set of visits in New York, whose clocks went
 * forward on Sunday 2026-03-08 at 02:00: days are the company's days on both sides of the change, visits are
 * first-time or returning by the visitor's earlier visits, stays are averaged over the visits checked out, and an
 * invitee is a no-show once their expected time has passed without arriving.
 */

const zone = 'America/New_York';
const clock = manualClock(Date.UTC(2026, 2, 10, 12, 0, 0));
const at = (iso: string) => Date.parse(iso);
let service: RunningService;
type Api = ReturnType<typeof client>;
let admin: Api;
let adminKey: string;
let kiosk: Api;
let kioskId: string;
let helena: string;
let igor: string;
let contractor: string;

async function ok(api: Api, method: string, path: string, body?: unknown) {
  const reply = await api(method, path, body);
  assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** A walk-in at the given instants, made by the admin (no kiosk). */
async function visit(name: string, checkinAt: string, minutes: number | null, extra: Record<string, unknown> = {}) {
  const checkin = at(checkinAt);
  return await ok(admin, 'POST', '/v1/visits', {
    visit: {
      id: randomUUID(),
      hostId: helena,
      checkinAt: new Date(checkin).toISOString(),
      ...(minutes === null ? {} : { checkoutAt: new Date(checkin + minutes * 60_000).toISOString() }),
      ...extra,
    },
    visitor: { name, email: `${name.toLowerCase()}@guests.test` },
  });
}

async function invitee(name: string, expectedAt: string) {
  return (await ok(admin, 'POST', '/v1/invitees', {
    name,
    email: `${name.toLowerCase()}@invited.test`,
    hostId: helena,
    expectedAt,
  })) as { id: string };
}

before(async () => {
  const dataDir = tempDir();
  service = await startService({
    port: 0,
    dataDir,
    database: (await engineEnv(dataDir)).PORTARIA_DATABASE,
    logLevel: 'silent',
    clock,
  });
  const company = await createCompany(service.ctx, { name: 'Acme', timezone: zone });
  adminKey = company.apiKey;
  admin = client(service.url, adminKey);
  helena = (await ok(admin, 'POST', '/v1/hosts', { name: 'Helena Dias', email: 'helena@acme.test' })).id;
  igor = (await ok(admin, 'POST', '/v1/hosts', { name: 'Igor Lima', email: 'igor@acme.test' })).id;
  contractor = (await ok(admin, 'POST', '/v1/visitortypes', { kind: 'contractor', name: 'Contractor' })).id;
  const kioskKey = await ok(admin, 'POST', '/v1/credentials', { role: 'kiosk', label: 'Lobby kiosk' });
  kiosk = client(service.url, kioskKey.key);
  kioskId = kioskKey.id;

  await visit('Ana', '2026-03-07T04:30:00Z', 10); // Friday 23:30 in New York: before the span, her first visit
  await visit('Ana', '2026-03-07T05:30:00Z', 60); // Saturday 00:30: returning
  await visit('Bruno', '2026-03-08T04:59:00Z', 30, { visitorTypeId: contractor }); // Saturday 23:59
  await visit('Carla', '2026-03-08T05:00:00Z', null, { visitorTypeId: contractor, hostId: igor }); // Sunday 00:00
  await visit('Carla', '2026-03-08T13:00:00Z', 90); // Sunday 09:00, summer time: returning
  // Monday 23:59 in summer time (03:59 UTC): at the lobby's kiosk, checked out two hours later.
  clock.set(at('2026-03-10T03:59:00Z'));
  const dan = await ok(kiosk, 'POST', '/v1/kiosk/walkin', {
    visit: { id: randomUUID(), hostId: helena },
    visitor: { name: 'Dan', email: 'dan@guests.test' },
  });
  clock.set(at('2026-03-10T05:59:00Z'));
  await ok(admin, 'PATCH', `/v1/visit/checkout/${dan.id}`, {});
  // Tuesday 00:00 in summer time: after the span (in winter time it would have been Monday 23:00).
  await visit('Eva', '2026-03-10T04:00:00Z', 5);

  await invitee('Fabio', '2026-03-07T15:00:00Z'); // never came: a no-show
  const canceled = await invitee('Gil', '2026-03-08T15:00:00Z');
  await ok(admin, 'PATCH', `/v1/invitee/${canceled.id}`, { status: 'canceled' });
  const late = await invitee('Hugo', '2026-03-09T15:00:00Z');
  await invitee('Iris', '2026-03-10T20:00:00Z'); // Tuesday 16:00: expected later today
  clock.set(at('2026-03-10T12:00:00Z'));
  // Hugo came a day late: he arrived, so he is no no-show (his visit is after the span).
  await ok(admin, 'POST', `/v1/visit/inviteeCheckin/${late.id}`, {});

  // Another company's visit in the span counts for it alone.
  const other = client(service.url, (await createCompany(service.ctx, { name: 'Other', timezone: zone })).apiKey);
  await ok(other, 'POST', '/v1/visits', {
    visit: { id: randomUUID(), checkinAt: '2026-03-08T15:00:00Z' },
    visitor: { name: 'Outsider' },
  });
});
after(async () => {
  await service?.close();
  if (service) removeDir(service.ctx.dataDir);
});

describe('GET /v1/analytics', () => {
  test('counts the span by the company’s days across a DST change', async () => {
    const report = await ok(admin, 'GET', '/v1/analytics?from=2026-03-07&to=2026-03-09');
    assert.equal(report.timeZone, zone);
    assert.deepEqual(
      report.days.map((d: Record<string, unknown>) => [
        d.day,
        d.visits,
        d.firstTime,
        d.returning,
        d.averageStaySeconds,
      ]),
      [
        ['2026-03-07', 2, 1, 1, 45 * 60],
        ['2026-03-08', 2, 1, 1, 90 * 60],
        ['2026-03-09', 1, 1, 0, 120 * 60],
      ],
    );
    assert.deepEqual(report.weeks, [
      { week: '2026-03-02', days: 2, visits: 4 },
      { week: '2026-03-09', days: 1, visits: 1 },
    ]);
    const peaks = report.peakHours as number[][];
    const nonZero = peaks.flatMap((hours, weekday) =>
      hours.flatMap((visits, hour) => (visits > 0 ? [[weekday + 1, hour, visits]] : [])),
    );
    assert.deepEqual(nonZero, [
      [1, 23, 1],
      [6, 0, 1],
      [6, 23, 1],
      [7, 0, 1],
      [7, 9, 1],
    ]);
    assert.equal(report.totals.visits, 5);
    assert.equal(report.totals.firstTime, 3);
    assert.equal(report.totals.returning, 2);
    assert.equal(report.totals.averageStaySeconds, 75 * 60); // (60 + 30 + 90 + 120) / 4; Carla's open visit aside
  });

  test('ranks visitor types, hosts and kiosks', async () => {
    const report = await ok(admin, 'GET', '/v1/analytics?from=2026-03-07&to=2026-03-09');
    assert.deepEqual(report.visitorTypes, [
      { id: null, name: null, visits: 3 },
      { id: contractor, name: 'Contractor', visits: 2 },
    ]);
    const ranking = await ok(admin, 'GET', '/v1/analytics/hosts?from=2026-03-07&to=2026-03-09');
    assert.deepEqual(ranking.hosts, [
      { id: helena, name: 'Helena Dias', visits: 4 },
      { id: igor, name: 'Igor Lima', visits: 1 },
    ]);
    assert.deepEqual(report.kiosks, [
      { id: null, name: null, visits: 4 },
      { id: kioskId, name: 'Lobby kiosk', visits: 1 },
    ]);
    const top = await ok(admin, 'GET', '/v1/analytics/hosts?from=2026-03-07&to=2026-03-09&top=1');
    assert.deepEqual(top.hosts, [{ id: helena, name: 'Helena Dias', visits: 4 }]);
  });

  test('counts no-shows once their expected time has passed, never the canceled or the arrived', async () => {
    const report = await ok(admin, 'GET', '/v1/analytics?from=2026-03-07&to=2026-03-09');
    assert.deepEqual(
      report.days.map((d: Record<string, unknown>) => [d.day, d.expected, d.noShows]),
      [
        ['2026-03-07', 1, 1],
        ['2026-03-08', 0, 0],
        ['2026-03-09', 1, 0],
      ],
    );
    assert.deepEqual([report.totals.expected, report.totals.noShows], [1 + 1, 1]);
    const today = await ok(admin, 'GET', '/v1/analytics?from=2026-03-10&to=2026-03-10');
    assert.deepEqual([today.totals.expected, today.totals.noShows], [1, 0]); // Iris is due later today
    clock.set(at('2026-03-10T20:01:00Z'));
    try {
      const later = await ok(admin, 'GET', '/v1/analytics?from=2026-03-10&to=2026-03-10');
      assert.deepEqual([later.totals.expected, later.totals.noShows], [1, 1]);
    } finally {
      clock.set(at('2026-03-10T12:00:00Z'));
    }
  });

  test('defaults to the 30 days up to today', async () => {
    const report = await ok(admin, 'GET', '/v1/analytics');
    assert.deepEqual([report.from, report.to, report.days.length], ['2026-02-09', '2026-03-10', 30]);
    assert.equal(report.totals.visits, 8);
  });

  test('refuses a span that is not whole days, is backwards or is longer than a year', async () => {
    for (const query of ['from=2026-3-07', 'from=2026-03-10&to=2026-03-09', 'from=2025-01-01&to=2026-03-09']) {
      const reply = await admin('GET', `/v1/analytics?${query}`);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.type, 'INVALID_PARAMETER', query);
    }
    for (const query of ['top=0', 'top=51', 'top=two', 'from=2026-03-10&to=2026-03-09']) {
      const reply = await admin('GET', `/v1/analytics/hosts?${query}`);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.type, 'INVALID_PARAMETER', query);
    }
  });

  test('is for the admin (and managers), not the front desk or a read-only key', async () => {
    const readonly = client(
      service.url,
      (await ok(admin, 'POST', '/v1/credentials', { role: 'readonly', label: 'Reports' })).key,
    );
    for (const path of ['/v1/analytics', '/v1/analytics/hosts', '/v1/analytics/export?chart=days']) {
      assert.equal((await readonly('GET', path)).status, 403);
      assert.equal((await kiosk('GET', path)).status, 403);
    }
  });
});

describe('GET /v1/analytics/export', () => {
  const csv = async (query: string) => {
    const response = await fetch(`${service.url}/v1/analytics/export?${query}`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    // The bytes as sent: text() would drop the byte-order mark spreadsheets need.
    return { response, text: Buffer.from(await response.arrayBuffer()).toString('utf8') };
  };

  test("holds each chart's table as CSV", async () => {
    const days = await csv('chart=visitors&from=2026-03-07&to=2026-03-09');
    assert.equal(days.response.status, 200);
    assert.match(days.response.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(
      days.response.headers.get('content-disposition'),
      'attachment; filename="visitors-2026-03-07-2026-03-09.csv"',
    );
    assert.equal(
      days.text,
      '\uFEFF"Day","First-time","Returning"\r\n"2026-03-07","1","1"\r\n"2026-03-08","1","1"\r\n"2026-03-09","1","0"\r\n',
    );
    const hosts = await csv('chart=hosts&from=2026-03-07&to=2026-03-09');
    assert.equal(
      hosts.text,
      `\uFEFF"Host","Host id","Visits"\r\n"Helena Dias","${helena}","4"\r\n"Igor Lima","${igor}","1"\r\n`,
    );
    const peaks = await csv('chart=peakHours&from=2026-03-07&to=2026-03-09');
    const lines = peaks.text.trim().split('\r\n');
    assert.equal(lines.length, 8);
    assert.match(lines[7] ?? '', /^"Sunday","1"(,"0"){8},"1"(,"0"){14}$/);
  });

  test('refuses an unknown chart', async () => {
    const { response, text } = await csv('chart=nope');
    assert.equal(response.status, 400);
    assert.equal(JSON.parse(text).type, 'INVALID_PARAMETER');
  });
});

describe('the counted hours', () => {
  const span = '/v1/analytics?from=2026-03-07&to=2026-03-09';
  const perDay = async () =>
    ((await ok(admin, 'GET', span)).days as { visits: number; returning: number }[]).map((d) => [
      d.visits,
      d.returning,
    ]);

  test('follow check-ins, check-outs and deletions in the span once counted', async () => {
    assert.deepEqual(await perDay(), [
      [2, 1],
      [2, 1],
      [1, 0],
    ]);
    // A late record of Monday's visit: its hour is counted again in the check-in's transaction.
    const late = await visit('Gina', '2026-03-09T16:00:00Z', null, { visitorTypeId: contractor });
    assert.deepEqual(await perDay(), [
      [2, 1],
      [2, 1],
      [2, 0],
    ]);
    await ok(admin, 'PATCH', `/v1/visit/checkout/${late.id}`, {});
    const after = await ok(admin, 'GET', span);
    assert.equal(after.days[2].averageStaySeconds, (2 * 3600 + 20 * 3600) / 2); // Dan's two hours, Gina's twenty
    assert.deepEqual(after.visitorTypes, [
      { id: null, name: null, visits: 3 },
      { id: contractor, name: 'Contractor', visits: 3 },
    ]);
    // Bruno's second visit before his first (recorded late): his first becomes his returning one.
    await visit('Bruno', '2026-03-07T12:00:00Z', 15);
    assert.deepEqual(await perDay(), [
      [3, 2],
      [2, 1],
      [2, 0],
    ]);
    await ok(admin, 'DELETE', `/v1/visit/${late.id}`);
    assert.deepEqual(await perDay(), [
      [3, 2],
      [2, 1],
      [1, 0],
    ]);
  });

  test("are counted again in the company's new zone", async () => {
    await ok(admin, 'PATCH', '/v1/company', { timezone: 'UTC' });
    try {
      // In UTC, Ana's first visit (04:30) falls on Saturday, Bruno's at 04:59 on Sunday, Dan's (03:59) on Tuesday.
      const report = await ok(admin, 'GET', '/v1/analytics?from=2026-03-07&to=2026-03-09');
      assert.deepEqual(
        report.days.map((d: { visits: number }) => d.visits),
        [3, 3, 0],
      );
    } finally {
      await ok(admin, 'PATCH', '/v1/company', { timezone: zone });
    }
  });

  test('are counted once when a span is first asked by several at the same time', async () => {
    // An edit makes the counts be counted again at the next request; three such requests arrive together.
    const visits = (await ok(admin, 'GET', '/v1/visits/history?from=2026-03-09&to=2026-03-09')).visits as {
      id: string;
    }[];
    await ok(admin, 'PATCH', `/v1/visit/${visits[0]?.id}`, { notes: 'seen by the front desk' });
    const answers = await Promise.all([1, 2, 3].map(() => ok(admin, 'GET', span)));
    for (const answer of answers) assert.deepEqual(answer.totals, answers[0]?.totals);
    assert.deepEqual(await perDay(), [
      [3, 2],
      [2, 1],
      [1, 0],
    ]);
  });
});
