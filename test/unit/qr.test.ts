import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  deriveAesKey,
  issueAesCode,
  issueCode,
  issueStaticCode,
  issueTotpCode,
  type QrSettings,
  totpSecret,
  verifyQrCode,
} from '../../local-api/access/qr.ts';
import type { Random } from '../../local-api/rules/ids.ts';

const hexKey = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const key = deriveAesKey(hexKey);
const otherKey = deriveAesKey('another key');
const now = Date.UTC(2024, 6, 9, 11, 2, 17, 450);

/** Deterministic "randomness": a counter, so every call gives different bytes and tests stay exact. */
function counterRandom(): Random {
  let n = 0;
  return { bytes: (length) => Buffer.alloc(length, ++n) };
}

/** RFC 6238 with HMAC-SHA256, written out here so the TOTP mode is checked against the standard, not the library. */
function rfc6238(secret: Buffer, at: number, period: number, digits: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / period)));
  const mac = createHmac('sha256', secret).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

describe('deriveAesKey', () => {
  test('64 hexadecimal characters are the raw key, in either case', () => {
    assert.equal(key.toString('hex'), hexKey);
    assert.deepEqual(deriveAesKey(hexKey.toUpperCase()), key);
  });

  test('any other text is hashed with SHA-256 as typed', () => {
    assert.deepEqual(deriveAesKey('gate secret'), createHash('sha256').update('gate secret').digest());
    assert.notDeepEqual(deriveAesKey(' gate secret'), deriveAesKey('gate secret'));
    const almostHex = hexKey.slice(0, 63);
    assert.deepEqual(deriveAesKey(almostHex), createHash('sha256').update(almostHex).digest());
  });

  test('refuses an empty key', () => {
    assert.throws(() => deriveAesKey(''));
  });
});

describe('AES codes', () => {
  const issue = (cardNumber = 123456, subject: 'host' | 'visitor' = 'host') =>
    issueAesCode({ key, subject, cardNumber, durationSeconds: 30, now, random: counterRandom() });

  test('verify within their window and carry the card number and subject', () => {
    const code = issue();
    assert.match(code.payload, /^A1\.[A-Za-z0-9_-]{56}$/);
    assert.equal(code.issuedAt, Date.UTC(2024, 6, 9, 11, 2, 17));
    assert.equal(code.expiresAt, Date.UTC(2024, 6, 9, 11, 2, 47));
    for (const at of [now, (code.expiresAt ?? 0) - 1, code.issuedAt ?? 0]) {
      assert.deepEqual(verifyQrCode(code.payload, { key, at }), {
        valid: true,
        mode: 'aes',
        subject: 'host',
        cardNumber: 123456,
        expiresAt: code.expiresAt,
      });
    }
    const visitor = verifyQrCode(issue(7, 'visitor').payload, { key, at: now });
    assert.equal(visitor.valid && visitor.subject, 'visitor');
  });

  test('are refused when expired or not yet valid, with leeway for clock drift', () => {
    const code = issue();
    const expiresAt = code.expiresAt ?? 0;
    const issuedAt = code.issuedAt ?? 0;
    assert.deepEqual(verifyQrCode(code.payload, { key, at: expiresAt }), {
      valid: false,
      reason: 'EXPIRED',
      cardNumber: 123456,
    });
    assert.equal(verifyQrCode(code.payload, { key, at: issuedAt - 1 }).valid, false);
    assert.deepEqual(verifyQrCode(code.payload, { key, at: issuedAt - 1 }), {
      valid: false,
      reason: 'NOT_YET_VALID',
      cardNumber: 123456,
    });
    assert.equal(verifyQrCode(code.payload, { key, at: expiresAt + 1999, leewayMs: 2000 }).valid, true);
    assert.equal(verifyQrCode(code.payload, { key, at: expiresAt + 2000, leewayMs: 2000 }).valid, false);
    assert.equal(verifyQrCode(code.payload, { key, at: issuedAt - 2000, leewayMs: 2000 }).valid, true);
  });

  test('are refused with another key', () => {
    assert.deepEqual(verifyQrCode(issue().payload, { key: otherKey, at: now }), {
      valid: false,
      reason: 'AUTHENTICATION_FAILED',
      cardNumber: null,
    });
  });

  test('never verify once any character is changed', () => {
    const { payload } = issue();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(fc.nat(payload.length - 1), fc.constantFrom(...alphabet), (index, replacement) => {
        fc.pre(payload[index] !== replacement);
        const altered = payload.slice(0, index) + replacement + payload.slice(index + 1);
        return verifyQrCode(altered, { key, at: now }).valid === false;
      }),
      { numRuns: 500 },
    );
  });

  test('differ each time (random IV) and do not show the card number', () => {
    const random = counterRandom();
    const codes = new Set(
      [1, 2, 3].map(
        () => issueAesCode({ key, subject: 'host', cardNumber: 123456, durationSeconds: 30, now, random }).payload,
      ),
    );
    assert.equal(codes.size, 3);
    for (const payload of codes) {
      assert.equal(payload.includes('123456'), false);
      assert.equal(Buffer.from(payload.slice(3), 'base64url').includes(Buffer.from('0001e240', 'hex')), false);
    }
  });

  test('cover the whole int32 range and refuse other card numbers', () => {
    for (const cardNumber of [-2147483648, -1, 0, 2147483647]) {
      const result = verifyQrCode(issue(cardNumber).payload, { key, at: now });
      assert.equal(result.valid && result.cardNumber, cardNumber);
    }
    assert.throws(() => issue(2 ** 31));
    assert.throws(() => issue(1.5));
  });
});

describe('static visitor codes', () => {
  test('are the same text every time, differ per card and key, and never expire', () => {
    const first = issueStaticCode({ key, cardNumber: 99 });
    assert.equal(issueStaticCode({ key, cardNumber: 99 }).payload, first.payload);
    assert.notEqual(issueStaticCode({ key, cardNumber: 98 }).payload, first.payload);
    assert.notEqual(issueStaticCode({ key: otherKey, cardNumber: 99 }).payload, first.payload);
    assert.deepEqual([first.mode, first.issuedAt, first.expiresAt], ['static', null, null]);
    const expected = { valid: true, mode: 'static', subject: 'visitor', cardNumber: 99, expiresAt: null };
    assert.deepEqual(verifyQrCode(first.payload, { key, at: 0 }), expected);
    assert.deepEqual(verifyQrCode(first.payload, { key, at: now + 10 * 365 * 86_400_000, mode: 'totp' }), expected);
    assert.equal(verifyQrCode(first.payload, { key: otherKey, at: now }).valid, false);
  });
});

describe('TOTP codes', () => {
  const issue = (cardNumber = 123456, period = 30, at = now) =>
    issueTotpCode({ key, subject: 'host', cardNumber, period, now: at });

  test('are RFC 6238 (HMAC-SHA256, 8 digits) over the documented per-card secret', () => {
    const code = issue();
    const secret = createHmac('sha256', key).update('portaria-totp-v1:H:123456:30').digest();
    assert.deepEqual(totpSecret(key, 'host', 123456, 30), secret);
    assert.equal(code.payload, `T1.H.123456.30.${rfc6238(secret, now, 30, 8)}`);
    const step = Math.floor(now / 30_000);
    assert.deepEqual([code.issuedAt, code.expiresAt], [step * 30_000, (step + 1) * 30_000]);
    const visitor = issueTotpCode({ key, subject: 'visitor', cardNumber: 5, period: 45, now });
    assert.match(visitor.payload, /^T1\.V\.5\.45\.\d{8}$/);
  });

  test('verify within their time step and are refused in the next one as expired', () => {
    const code = issue();
    const expiresAt = code.expiresAt ?? 0;
    assert.deepEqual(verifyQrCode(code.payload, { key, at: expiresAt - 1 }), {
      valid: true,
      mode: 'totp',
      subject: 'host',
      cardNumber: 123456,
      expiresAt,
    });
    assert.deepEqual(verifyQrCode(code.payload, { key, at: expiresAt }), {
      valid: false,
      reason: 'EXPIRED',
      cardNumber: 123456,
    });
    assert.equal(verifyQrCode(code.payload, { key, at: expiresAt + 999, leewayMs: 1000 }).valid, true);
    assert.deepEqual(verifyQrCode(issue(123456, 30, now + 60_000).payload, { key, at: now }), {
      valid: false,
      reason: 'NOT_YET_VALID',
      cardNumber: 123456,
    });
  });

  test('are refused when the card, period, subject or password is changed, or with another key', () => {
    const code = issue();
    const [tag, subject, card, period, otp = ''] = code.payload.split('.');
    const lastDigit = otp.slice(-1) === '0' ? '1' : '0';
    const altered = [
      [tag, subject, '123457', period, otp],
      [tag, subject, card, '60', otp],
      [tag, 'V', card, period, otp],
      [tag, subject, card, period, otp.slice(0, -1) + lastDigit],
    ].map((parts) => parts.join('.'));
    for (const payload of altered) {
      const result = verifyQrCode(payload, { key, at: now });
      assert.equal(result.valid, false, payload);
      assert.equal(!result.valid && result.reason, 'AUTHENTICATION_FAILED', payload);
    }
    assert.equal(verifyQrCode(code.payload, { key: otherKey, at: now }).valid, false);
  });

  test('a gate in one mode refuses the other mode’s dynamic codes', () => {
    const aes = issueAesCode({
      key,
      subject: 'host',
      cardNumber: 1,
      durationSeconds: 30,
      now,
      random: counterRandom(),
    });
    assert.deepEqual(verifyQrCode(issue().payload, { key, at: now, mode: 'aes' }), {
      valid: false,
      reason: 'WRONG_MODE',
      cardNumber: 123456,
    });
    assert.deepEqual(verifyQrCode(aes.payload, { key, at: now, mode: 'totp' }), {
      valid: false,
      reason: 'WRONG_MODE',
      cardNumber: 1,
    });
    assert.equal(verifyQrCode(aes.payload, { key, at: now, mode: 'aes' }).valid, true);
    assert.equal(verifyQrCode(issue().payload, { key, at: now, mode: 'totp' }).valid, true);
  });
});

describe('verifyQrCode on foreign text', () => {
  test('answers MALFORMED or UNSUPPORTED_VERSION', () => {
    const cases: [string, string][] = [
      ['', 'MALFORMED'],
      ['https://example.com/', 'MALFORMED'],
      ['A1.', 'MALFORMED'],
      ['A1.@@@', 'MALFORMED'],
      ['A1.AAAA', 'MALFORMED'],
      ['A9.AAAA', 'UNSUPPORTED_VERSION'],
      ['T1.X.1.30.12345678', 'MALFORMED'],
      ['T1.H.01.30.12345678', 'MALFORMED'],
      ['T1.H.1.0.12345678', 'MALFORMED'],
      ['T1.H.1.30.1234', 'MALFORMED'],
      ['T1.H.9999999999.30.12345678', 'MALFORMED'],
      ['T2.H.1.30.12345678', 'UNSUPPORTED_VERSION'],
    ];
    for (const [payload, reason] of cases) {
      assert.deepEqual(verifyQrCode(payload, { key, at: now }), { valid: false, reason, cardNumber: null }, payload);
    }
  });
});

describe('issueCode', () => {
  const settings: QrSettings = { aesKey: hexKey, qrcodeDuration: 60, totpEnabled: false, staticVisitorQRCode: false };

  test('follows the configuration', () => {
    const random = counterRandom();
    assert.equal(issueCode(settings, 'host', 1, now, random).mode, 'aes');
    assert.equal(issueCode(settings, 'visitor', 1, now, random).mode, 'aes');
    assert.equal(issueCode({ ...settings, totpEnabled: true }, 'host', 1, now, random).mode, 'totp');
    const staticVisitor = { ...settings, totpEnabled: true, staticVisitorQRCode: true };
    assert.equal(issueCode(staticVisitor, 'visitor', 1, now, random).mode, 'static');
    assert.equal(issueCode(staticVisitor, 'host', 1, now, random).mode, 'totp', 'hosts never get static codes');
    const code = issueCode(settings, 'host', 1, now, random);
    assert.equal((code.expiresAt ?? 0) - (code.issuedAt ?? 0), 60_000);
  });
});
