import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type GateProcess, startGateProcess } from '../helpers/gate.ts';
import { readQrPng } from '../helpers/qr.ts';
import { client, startService, type TestService } from '../helpers/service.ts';

const aesKey = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

let service: TestService;
let api: ReturnType<typeof client>;
let apiKey: string;
let gate: GateProcess;
let totpGate: GateProcess;
let wrongKeyGate: GateProcess;
let hostId: string;
let cardlessHostId: string;

before(async () => {
  [service, gate, totpGate, wrongKeyGate] = await Promise.all([
    startService(),
    startGateProcess({ aesKey }),
    startGateProcess({ aesKey, totp: true }),
    startGateProcess({ aesKey: 'not the company key' }),
  ]);
  apiKey = (await service.company()).apiKey;
  api = client(service.url, apiKey);
  const host = await api('POST', '/v1/hosts', {
    name: 'Ana',
    email: 'ana@acme.test',
    metadata: { accessCardNumber: 4242 },
  });
  hostId = host.body.id;
  cardlessHostId = (await api('POST', '/v1/hosts', { name: 'Bia', email: 'bia@acme.test' })).body.id;
});
after(() => Promise.all([service.stop(), gate.stop(), totpGate.stop(), wrongKeyGate.stop()]));

const configure = (body: Record<string, unknown>) => api('POST', '/v1/integration/access', body);

describe('GET /v1/host/:id/qrcode', () => {
  test('says why no code can be made', async () => {
    const unknown = await api('GET', '/v1/host/0123456789abcdef0123456789abcdef/qrcode');
    assert.deepEqual([unknown.status, unknown.body], [404, { type: 'NOT_FOUND' }]);
    const noConfig = await api('GET', `/v1/host/${hostId}/qrcode`);
    assert.deepEqual([noConfig.status, noConfig.body], [409, { type: 'ACCESS_INTEGRATION_DISABLED' }]);
    await configure({ enabled: false, aesKey });
    assert.deepEqual((await api('GET', `/v1/host/${hostId}/qrcode`)).body, { type: 'ACCESS_INTEGRATION_DISABLED' });
    await configure({ enabled: true, aesKey: '' });
    const noKey = await api('GET', `/v1/host/${hostId}/qrcode`);
    assert.deepEqual([noKey.status, noKey.body], [409, { type: 'ACCESS_KEY_NOT_CONFIGURED' }]);
    await configure({ aesKey, qrcodeDuration: 30, totpEnabled: false });
    const cardless = await api('GET', `/v1/host/${cardlessHostId}/qrcode`);
    assert.deepEqual([cardless.status, cardless.body], [409, { type: 'MISSING_ACCESS_CARD_NUMBER' }]);
    const other = client(service.url, (await service.company('Other')).apiKey);
    assert.equal((await other('GET', `/v1/host/${hostId}/qrcode`)).status, 404, 'another company’s host');
    const badFormat = await api('GET', `/v1/host/${hostId}/qrcode?format=gif`);
    assert.deepEqual([badFormat.status, badFormat.body], [400, { type: 'INVALID_PARAMETER', field: 'format' }]);
  });

  test('an AES code verifies at the gate within its window, not after it, not altered, not with another key', async () => {
    await configure({ enabled: true, aesKey, qrcodeDuration: 30, totpEnabled: false });
    const reply = await api('GET', `/v1/host/${hostId}/qrcode`);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    const { payload, expiresAt, issuedAt, mode, subject, cardNumber } = reply.body;
    assert.deepEqual([mode, subject, cardNumber], ['aes', 'host', 4242]);
    assert.match(expiresAt, isoWithOffset);
    assert.equal(Date.parse(expiresAt) - Date.parse(issuedAt), 30_000);
    assert.ok(reply.body.expiresInMs > 29_000 && reply.body.expiresInMs <= 30_000, `${reply.body.expiresInMs} ms left`);
    assert.equal(payload.includes('4242'), false, 'the card number is not readable in the code');

    const now = await gate.verify(payload);
    assert.deepEqual(
      [now.valid, now.cardNumber, now.reason, now.subject],
      [true, 4242, null, 'host'],
      JSON.stringify(now),
    );
    assert.equal((await gate.verify(payload, Date.parse(expiresAt) - 1)).valid, true);
    assert.deepEqual(await gate.verify(payload, expiresAt), { valid: false, cardNumber: 4242, reason: 'EXPIRED' });
    const altered = payload.slice(0, 10) + (payload[10] === 'A' ? 'B' : 'A') + payload.slice(11);
    assert.deepEqual(await gate.verify(altered), { valid: false, cardNumber: null, reason: 'AUTHENTICATION_FAILED' });
    assert.equal((await wrongKeyGate.verify(payload)).reason, 'AUTHENTICATION_FAILED');
    assert.equal((await totpGate.verify(payload)).reason, 'WRONG_MODE');
    assert.match(gate.output(), /ALLOW card=4242 host aes/);
    assert.match(gate.output(), /DENY EXPIRED card=4242/);
  });

  test('a TOTP code verifies at a TOTP gate within its time step', async () => {
    await configure({ totpEnabled: true, qrcodeDuration: 60 });
    const { body } = await api('GET', `/v1/host/${hostId}/qrcode`);
    assert.equal(body.mode, 'totp');
    assert.match(body.payload, /^T1\.H\.4242\.60\.\d{8}$/);
    assert.equal((Date.parse(body.expiresAt) / 1000) % 60, 0, 'TOTP steps end on multiples of the period');
    assert.equal((await totpGate.verify(body.payload, body.issuedAt)).valid, true);
    assert.equal((await totpGate.verify(body.payload, Date.parse(body.expiresAt))).reason, 'EXPIRED');
    assert.equal((await gate.verify(body.payload)).reason, 'WRONG_MODE');
    const otherCard = body.payload.replace('.4242.', '.4243.');
    assert.equal((await totpGate.verify(otherCard)).reason, 'AUTHENTICATION_FAILED');
    await configure({ totpEnabled: false, qrcodeDuration: 30 });
  });

  test('answers SVG and PNG pictures that decode to a code the gate accepts', async () => {
    const svg = await fetch(`${service.url}/v1/host/${hostId}/qrcode?format=svg`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get('content-type') ?? '', /^image\/svg\+xml/);
    assert.match(await svg.text(), /^<svg[^>]*viewBox/);

    const png = await fetch(`${service.url}/v1/host/${hostId}/qrcode?format=png`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.ok(png.headers.get('expires'), 'a dynamic picture says when it expires');
    const decoded = readQrPng(Buffer.from(await png.arrayBuffer()));
    assert.ok(decoded, 'the PNG holds a readable QR code');
    const verdict = await gate.verify(decoded);
    assert.deepEqual([verdict.valid, verdict.cardNumber], [true, 4242]);
  });
});

describe('GET /v1/invitee/:id/qrcode', () => {
  test('gives a dynamic visitor code, or a static one when staticVisitorQRCode is on', async () => {
    const invitee = await api('POST', '/v1/invitees', {
      name: 'Caio',
      email: 'caio@guest.test',
      hostId,
      expectedAt: '2030-01-02T10:00:00-03:00',
    });
    assert.equal(invitee.status, 200, JSON.stringify(invitee.body));
    const { id, cardNumber } = invitee.body;
    const dynamic = (await api('GET', `/v1/invitee/${id}/qrcode`)).body;
    assert.deepEqual([dynamic.mode, dynamic.subject, dynamic.cardNumber], ['aes', 'visitor', cardNumber]);
    const verdict = await gate.verify(dynamic.payload);
    assert.deepEqual([verdict.valid, verdict.cardNumber, verdict.subject], [true, cardNumber, 'visitor']);
    assert.equal((await gate.verify(dynamic.payload, dynamic.expiresAt)).reason, 'EXPIRED');

    await configure({ staticVisitorQRCode: true });
    const first = (await api('GET', `/v1/invitee/${id}/qrcode`)).body;
    const second = (await api('GET', `/v1/invitee/${id}/qrcode`)).body;
    assert.equal(first.payload, second.payload, 'a static code is the same every time');
    assert.deepEqual([first.mode, first.expiresAt, first.issuedAt], ['static', null, null]);
    const later = await gate.verify(first.payload, '2035-06-01T00:00:00Z');
    assert.deepEqual([later.valid, later.cardNumber, later.mode], [true, cardNumber, 'static']);
    assert.equal((await totpGate.verify(first.payload)).valid, true, 'static codes pass at TOTP gates too');
    assert.equal((await wrongKeyGate.verify(first.payload)).valid, false);
    await configure({ staticVisitorQRCode: false });

    await api('PATCH', `/v1/invitee/${id}`, { status: 'canceled' });
    const canceled = await api('GET', `/v1/invitee/${id}/qrcode`);
    assert.deepEqual([canceled.status, canceled.body], [409, { type: 'INVITEE_CANCELED' }]);
    assert.equal((await api('GET', '/v1/invitee/00000000-0000-4000-8000-000000000000/qrcode')).status, 404);
  });
});

describe('GET /v1/visit/:id/qrcode', () => {
  test('gives a code for the visit’s card number until the visit is checked out', async () => {
    const visit = await api('POST', '/v1/visits', {
      visit: { id: '3f1c8e0a-9b7d-4c2e-8f6a-1d2b3c4d5e6f', hostId },
      visitor: { name: 'Davi' },
    });
    assert.equal(visit.status, 200, JSON.stringify(visit.body));
    const code = (await api('GET', `/v1/visit/${visit.body.id}/qrcode`)).body;
    assert.deepEqual([code.subject, String(code.cardNumber)], ['visitor', visit.body.cardNumber]);
    const verdict = await gate.verify(code.payload);
    assert.deepEqual([verdict.valid, String(verdict.cardNumber)], [true, visit.body.cardNumber]);
    assert.equal((await gate.verify(code.payload, code.expiresAt)).reason, 'EXPIRED');

    await api('PATCH', `/v1/visit/checkout/${visit.body.id}`, {});
    const closed = await api('GET', `/v1/visit/${visit.body.id}/qrcode`);
    assert.deepEqual([closed.status, closed.body], [409, { type: 'ALREADY_CHECKOUT' }]);

    const lettered = await api('POST', '/v1/visits', {
      visit: { id: '4a2d9f1b-8c6e-4d3f-9a7b-2e3c4d5f6a7b', hostId, cardNumber: 'BADGE-12' },
      visitor: { name: 'Eva' },
    });
    const cardless = await api('GET', `/v1/visit/${lettered.body.id}/qrcode`);
    assert.deepEqual([cardless.status, cardless.body], [409, { type: 'MISSING_ACCESS_CARD_NUMBER' }]);
    assert.equal((await api('GET', '/v1/visit/00000000-0000-4000-8000-000000000000/qrcode')).status, 404);
  });
});
