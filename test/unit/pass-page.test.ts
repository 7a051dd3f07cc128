import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { deriveAesKey, verifyQrCode } from '../../local-api/access/qr.ts';
import { createApp } from '../../local-api/app.ts';
import { createCompany } from '../../local-api/companies/store.ts';
import type { Context } from '../../local-api/context.ts';
import { type Cidr, parseCidrList } from '../../local-api/outgoing/destinations.ts';
import { saveAllowedDestinations } from '../../local-api/outgoing/policy.ts';
import { passMessageListener } from '../../local-api/pass/message.ts';
import { inviteePassState, visitPassState } from '../../local-api/pass/state.ts';
import { setPublicAddress } from '../../local-api/public/address.ts';
import { publicLink } from '../../local-api/public/links.ts';
import { manualClock, seededRandom, testContext } from '../helpers/context.ts';
import { openPass } from '../helpers/pass.ts';
import { client } from '../helpers/service.ts';

/*
 * An invitee's pass (the link the invitation carries) across its window, on a clock moved by hand: the page
 * shows nothing before the expected day, the code the gate accepts during it, and follows the visit once the
 * invitee has checked in.
 */

const aesKey = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const zone = 'America/Sao_Paulo';

describe('the pass rules', () => {
  const day = { start: 1000, end: 2000 };
  const invitee = { status: 'confirmed', cardNumber: 7, deletedAt: null };
  const visit = { checkoutAt: null, isInsideCompany: 1, authorizationStatus: null, cardNumber: '7', deletedAt: null };

  it("shows an invitee's code on the expected day only", () => {
    assert.deepEqual(inviteePassState(invitee, undefined, day, 999), { kind: 'upcoming', startsAt: 1000 });
    assert.deepEqual(inviteePassState(invitee, undefined, day, 1000), { kind: 'live', cardNumber: 7 });
    assert.deepEqual(inviteePassState(invitee, undefined, day, 2000), { kind: 'ended' });
    assert.deepEqual(inviteePassState({ ...invitee, status: 'canceled' }, undefined, day, 1500), { kind: 'ended' });
    assert.deepEqual(inviteePassState(undefined, undefined, day, 1500), { kind: 'pending' });
  });

  it('follows the visit once the invitee checked in, whatever the day', () => {
    assert.deepEqual(inviteePassState(invitee, visit, day, 5000), { kind: 'live', cardNumber: 7 });
    assert.deepEqual(inviteePassState(invitee, { ...visit, checkoutAt: 1200 }, day, 1500), { kind: 'ended' });
  });

  it("shows a visit's code once it is let in, until it is out, denied or deleted", () => {
    assert.deepEqual(visitPassState(visit), { kind: 'live', cardNumber: 7 });
    assert.deepEqual(visitPassState({ ...visit, authorizationStatus: 'AWAITING' }), { kind: 'waiting' });
    assert.deepEqual(visitPassState({ ...visit, isInsideCompany: 0 }), { kind: 'waiting' });
    assert.deepEqual(visitPassState({ ...visit, authorizationStatus: 'DENIED' }), { kind: 'ended' });
    assert.deepEqual(visitPassState({ ...visit, deletedAt: 5 }), { kind: 'ended' });
    assert.deepEqual(visitPassState({ ...visit, cardNumber: 'A-12' }), { kind: 'live', cardNumber: undefined });
    assert.deepEqual(visitPassState(undefined), { kind: 'pending' });
  });
});

describe("an invitee's pass page", () => {
  // The day before the visit, 09:00 in São Paulo.
  const clock = manualClock(Date.parse('2026-11-22T09:00:00-03:00'));
  let ctx: Context;
  let server: Server;
  let url: string;
  let api: ReturnType<typeof client>;
  let companyId: string;
  let hostId: string;

  before(async () => {
    ctx = await testContext({ clock, random: seededRandom(23) });
    const company = await createCompany(ctx, { name: 'Acme', timezone: zone });
    companyId = company.id;
    server = createApp(ctx).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api = client(url, company.apiKey);
    hostId = (await api('POST', '/v1/hosts', { name: 'Carlos', email: 'carlos@acme.test' })).body.id;
    // Saving the notification settings makes the company's link key; the public address is the hub's.
    assert.equal((await api('POST', '/v1/integration/notifications', { emailFrom: 'r@acme.test' })).status, 200);
    const access = { enabled: true, aesKey, totpEnabled: true, qrcodeDuration: 30 };
    assert.equal((await api('POST', '/v1/integration/access', access)).status, 200);
    setPublicAddress(ctx, 'https://visitors.acme.test');
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    await ctx.db.close();
  });

  /** An invitee expected at 10:00 on 23 November, and the link its invitation carries. */
  async function invitation(name: string) {
    const created = await api('POST', '/v1/invitees', {
      name,
      email: `${name.split(' ')[0]?.toLowerCase()}@guest.test`,
      hostId,
      expectedAt: '2026-11-23T10:00:00-03:00',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const invitee = created.body as { id: string; cardNumber: number };
    // As the invitation makes it (invitations/links.ts): until the end of the visit's window, here its day.
    const link = await publicLink(ctx, companyId, {
      purpose: 'pass',
      subjectId: invitee.id,
      expiresAt: Date.parse('2026-11-24T00:00:00-03:00'),
    });
    assert.ok(link, 'the service has a public address and the company a link key');
    assert.ok(link.startsWith('https://visitors.acme.test/p/pass/'), link);
    return { invitee, path: new URL(link).pathname };
  }

  const open = (path: string) => openPass(url, path);

  const atGate = (payload: string) =>
    verifyQrCode(payload, { key: deriveAesKey(aesKey), at: clock.now(), mode: 'totp' });

  it('shows no code before the expected day, the live code during it, and follows the visit to its check-out', async () => {
    const { invitee, path } = await invitation('Bea Nunes');
    const before = await open(path);
    assert.equal(before.status, 200);
    assert.match(before.html, /Your gate code will appear here on Monday, November 23, 2026\./);
    assert.deepEqual([before.code, before.refreshSeconds], [undefined, 3600]);

    clock.set(Date.parse('2026-11-23T00:00:01-03:00'));
    const early = await open(path);
    assert.match(early.code ?? '', new RegExp(`^T1\\.V\\.${invitee.cardNumber}\\.30\\.\\d{8}$`));
    assert.deepEqual(atGate(early.code ?? ''), {
      valid: true,
      mode: 'totp',
      subject: 'visitor',
      cardNumber: invitee.cardNumber,
      expiresAt: Date.parse('2026-11-23T00:00:30-03:00'),
    });
    assert.equal(early.refreshSeconds, 29, 'reloaded when the code expires');

    clock.set(Date.parse('2026-11-23T10:05:00-03:00'));
    const checkin = await api('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, {});
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    // Late in the evening, still inside: the visit's pass, the invitee's card.
    clock.set(Date.parse('2026-11-23T23:30:00-03:00'));
    const inside = await open(path);
    assert.equal(atGate(inside.code ?? '').valid, true);
    assert.equal(await api('PATCH', `/v1/visit/checkout/${checkin.body.id}`, {}).then((r) => r.status), 200);
    const out = await open(path);
    assert.equal(out.status, 410);
    assert.match(out.html, /This pass has ended\./);
    assert.equal(out.code, undefined);
  });

  it('ends with the day for an invitee who never came (the link expires), and at once for a canceled one', async () => {
    clock.set(Date.parse('2026-11-22T09:00:00-03:00'));
    const absent = await invitation('Caio Reis');
    const canceled = await invitation('Dora Lins');
    clock.set(Date.parse('2026-11-23T11:00:00-03:00'));
    assert.equal((await open(absent.path)).status, 200);
    const cancel = await api('PATCH', `/v1/invitee/${canceled.invitee.id}`, { status: 'canceled' });
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    assert.equal((await open(canceled.path)).status, 410);
    clock.set(Date.parse('2026-11-23T23:59:59-03:00'));
    assert.equal((await open(absent.path)).status, 200, 'the whole day');
    // At the end of the visit's window, the link itself has expired.
    clock.set(Date.parse('2026-11-24T00:00:00-03:00'));
    const expired = await open(absent.path);
    assert.equal(expired.status, 403);
    assert.match(expired.html, /The link has expired/);
  });

  it('says the code cannot be shown when access control is turned off', async () => {
    clock.set(Date.parse('2026-11-22T09:00:00-03:00'));
    const { path } = await invitation('Edu Prado');
    clock.set(Date.parse('2026-11-23T09:00:00-03:00'));
    await api('POST', '/v1/integration/access', { enabled: false });
    const off = await open(path);
    assert.equal(off.status, 409);
    assert.match(off.html, /Your gate code cannot be shown now\. Please ask the reception\./);
    assert.equal(off.code, undefined);
    await api('POST', '/v1/integration/access', { enabled: true });
  });

  it("queues a walk-in's message in the check-in's transaction; erasing the visitor drops it unsent", async () => {
    ctx.events.subscribe(passMessageListener(ctx));
    await saveAllowedDestinations(ctx, (parseCidrList('127.0.0.0/8') as { ok: true; cidrs: Cidr[] }).cidrs);
    // An SMTP server that never answers: the message waits in the queue (no worker runs here anyway).
    const mail = { smtpHost: '127.0.0.1', smtpPort: 9, smtpSecurity: 'none' };
    assert.equal((await api('POST', '/v1/integration/notifications', mail)).status, 200);
    const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    const checkin = await api('POST', '/v1/visits', {
      visit: { id, hostId, checkinType: 'DASHBOARD' },
      visitor: { name: 'Zoe Erased', email: 'zoe@visitor.test' },
    });
    assert.equal(checkin.status, 200, JSON.stringify(checkin.body));
    const queued = async () =>
      (await ctx.db.prepare("SELECT payload FROM jobs WHERE kind = 'visitor-pass'").all()) as { payload: string }[];
    assert.equal((await queued()).length, 1);
    assert.match((await queued())[0]?.payload ?? '', /zoe@visitor\.test/);
    const erased = await api('POST', '/v1/privacy/erasure', { email: 'zoe@visitor.test' });
    assert.equal(erased.status, 200, JSON.stringify(erased.body));
    assert.deepEqual(await queued(), [], 'the message about an erased visit is not sent');
  });
});
