import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Random } from '../rules/ids.ts';
import { isInt32 } from '../rules/ids.ts';

/*
 * The QR codes a gate reads. Pure functions: the clock (`now`, `at`, in Unix milliseconds) and the randomness are
 * passed in. The formats are specified byte by byte in docs/access-control.md; keep the two in step (a unit test
 * checks the document's worked example against these functions).
 *
 * Codes carry a card number and times, never a name or a document: a photographed code tells nothing about the
 * person, and the random IV makes every dynamic code unique (a gate may remember IVs to allow one use per code).
 */

/** Whom the card number belongs to: a host's access card (`metadata.accessCardNumber`) or a visitor's. */
export type QrSubject = 'host' | 'visitor';

/** `aes`: AES-256-GCM window code; `totp`: time-based one-time password; `static`: a visitor's fixed code. */
export type QrMode = 'aes' | 'totp' | 'static';

export interface QrCode {
  /** The exact text the QR symbol encodes. */
  payload: string;
  mode: QrMode;
  subject: QrSubject;
  cardNumber: number;
  /** Unix milliseconds; null for a static code (it does not depend on time). */
  issuedAt: number | null;
  /** First instant (Unix milliseconds) at which the code is no longer valid; null for a static code. */
  expiresAt: number | null;
}

export const aesTag = 'A1';
export const totpTag = 'T1';
const aesFormatVersion = 1;
const ivLength = 12;
const authTagLength = 16;
const plaintextLength = 14;

/** Byte 1 of the AES plaintext: what kind of code it is. */
export const aesCodeTypes = { hostDynamic: 1, visitorDynamic: 2, visitorStatic: 3 } as const;

export const totpAlgorithm = 'SHA256';
export const totpDigits = 8;
const subjectLetter: Record<QrSubject, string> = { host: 'H', visitor: 'V' };

/**
 * The 32-byte AES-256 key from the configuration's `aesKey` text: exactly 64 hexadecimal characters are the raw key
 * (what a gate vendor generates with `openssl rand -hex 32`); any other non-empty text is a passphrase, and the key
 * is its SHA-256 (of the UTF-8 bytes, as typed: no trimming, no case folding).
 */
export function deriveAesKey(aesKey: string): Buffer {
  if (aesKey === '') throw new Error('the AES key is empty');
  if (/^[0-9a-fA-F]{64}$/.test(aesKey)) return Buffer.from(aesKey, 'hex');
  return createHash('sha256').update(aesKey, 'utf8').digest();
}

/**
 * The TOTP secret of one card: HMAC-SHA256 keyed with the AES key over the ASCII text
 * `portaria-totp-v1:<H|V>:<cardNumber>:<period>`. The period is part of it so a code cannot be replayed by
 * rewriting the period in the payload.
 */
export function totpSecret(key: Buffer, subject: QrSubject, cardNumber: number, period: number): Buffer {
  return createHmac('sha256', key)
    .update(`portaria-totp-v1:${subjectLetter[subject]}:${cardNumber}:${period}`, 'ascii')
    .digest();
}

function totpOf(key: Buffer, subject: QrSubject, cardNumber: number, period: number): TOTP {
  const secret = new Secret({ buffer: Uint8Array.from(totpSecret(key, subject, cardNumber, period)).buffer });
  return new TOTP({ secret, algorithm: totpAlgorithm, digits: totpDigits, period });
}

function assertCard(cardNumber: number): void {
  if (!isInt32(cardNumber)) throw new Error(`card number ${cardNumber} is not a 32-bit integer`);
}

function aesPlaintext(type: number, cardNumber: number, notBefore: number, notAfter: number): Buffer {
  const plain = Buffer.alloc(plaintextLength);
  plain.writeUInt8(aesFormatVersion, 0);
  plain.writeUInt8(type, 1);
  plain.writeInt32BE(cardNumber, 2);
  plain.writeUInt32BE(notBefore, 6);
  plain.writeUInt32BE(notAfter, 10);
  return plain;
}

function sealAes(key: Buffer, iv: Buffer, plain: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength });
  cipher.setAAD(Buffer.from(aesTag, 'ascii'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return `${aesTag}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** A dynamic AES code valid from `now` (rounded down to the second) for `durationSeconds`. */
export function issueAesCode(input: {
  key: Buffer;
  subject: QrSubject;
  cardNumber: number;
  durationSeconds: number;
  now: number;
  random: Random;
}): QrCode {
  assertCard(input.cardNumber);
  const notBefore = Math.floor(input.now / 1000);
  const notAfter = notBefore + input.durationSeconds;
  const type = input.subject === 'host' ? aesCodeTypes.hostDynamic : aesCodeTypes.visitorDynamic;
  const payload = sealAes(
    input.key,
    input.random.bytes(ivLength),
    aesPlaintext(type, input.cardNumber, notBefore, notAfter),
  );
  return {
    payload,
    mode: 'aes',
    subject: input.subject,
    cardNumber: input.cardNumber,
    issuedAt: notBefore * 1000,
    expiresAt: notAfter * 1000,
  };
}

/**
 * A visitor's static code: the same text every time for the same key and card, so it can be printed or e-mailed.
 * Its IV is derived from the key and the plaintext (first 12 bytes of HMAC-SHA256(key, "portaria-static-iv-v1" ‖
 * plaintext)): one IV per plaintext, so GCM's nonce is never reused with different content.
 */
export function issueStaticCode(input: { key: Buffer; cardNumber: number }): QrCode {
  assertCard(input.cardNumber);
  const plain = aesPlaintext(aesCodeTypes.visitorStatic, input.cardNumber, 0, 0);
  const iv = createHmac('sha256', input.key)
    .update('portaria-static-iv-v1', 'ascii')
    .update(plain)
    .digest()
    .subarray(0, ivLength);
  return {
    payload: sealAes(input.key, iv, plain),
    mode: 'static',
    subject: 'visitor',
    cardNumber: input.cardNumber,
    issuedAt: null,
    expiresAt: null,
  };
}

/** A TOTP code: `T1.<H|V>.<cardNumber>.<period>.<8 digits>`, valid until the end of the current time step. */
export function issueTotpCode(input: {
  key: Buffer;
  subject: QrSubject;
  cardNumber: number;
  period: number;
  now: number;
}): QrCode {
  assertCard(input.cardNumber);
  const { key, subject, cardNumber, period, now } = input;
  const otp = totpOf(key, subject, cardNumber, period).generate({ timestamp: now });
  const step = Math.floor(now / 1000 / period);
  return {
    payload: `${totpTag}.${subjectLetter[subject]}.${cardNumber}.${period}.${otp}`,
    mode: 'totp',
    subject,
    cardNumber,
    issuedAt: step * period * 1000,
    expiresAt: (step + 1) * period * 1000,
  };
}

/** The company's settings a code depends on. */
export interface QrSettings {
  aesKey: string;
  qrcodeDuration: number;
  totpEnabled: boolean;
  staticVisitorQRCode: boolean;
}

/** The code the configuration calls for: static for visitors when set, else TOTP or AES as configured. */
export function issueCode(
  settings: QrSettings,
  subject: QrSubject,
  cardNumber: number,
  now: number,
  random: Random,
): QrCode {
  const key = deriveAesKey(settings.aesKey);
  if (subject === 'visitor' && settings.staticVisitorQRCode) return issueStaticCode({ key, cardNumber });
  if (settings.totpEnabled) {
    return issueTotpCode({ key, subject, cardNumber, period: settings.qrcodeDuration, now });
  }
  return issueAesCode({ key, subject, cardNumber, durationSeconds: settings.qrcodeDuration, now, random });
}

/** A card number as the gate reads it: an int32, from a number or its decimal text (visits store it as text). */
export function cardNumberOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^-?\d{1,10}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && isInt32(n) ? n : undefined;
}

/** Why a code was refused. */
export type QrRejection =
  | 'MALFORMED' // not a Portaria code, or damaged beyond reading
  | 'UNSUPPORTED_VERSION'
  | 'WRONG_MODE' // a dynamic code of the mode the gate does not use (AES at a TOTP gate, or the reverse)
  | 'AUTHENTICATION_FAILED' // altered, or made with another key
  | 'NOT_YET_VALID'
  | 'EXPIRED';

export type QrVerification =
  | { valid: true; mode: QrMode; subject: QrSubject; cardNumber: number; expiresAt: number | null }
  | { valid: false; reason: QrRejection; cardNumber: number | null };

export interface VerifyOptions {
  key: Buffer;
  /** When to judge the code, Unix milliseconds. */
  at: number;
  /** The gate's mode: dynamic codes of the other mode are refused. Static codes are accepted in both. */
  mode?: 'aes' | 'totp';
  /** Tolerance for the clocks of kiosk and gate disagreeing, milliseconds (0 unless given). */
  leewayMs?: number;
}

const reject = (reason: QrRejection, cardNumber: number | null = null): QrVerification => ({
  valid: false,
  reason,
  cardNumber,
});

function verifyAes(body: string, options: VerifyOptions): QrVerification {
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return reject('MALFORMED');
  const raw = Buffer.from(body, 'base64url');
  if (raw.length !== ivLength + plaintextLength + authTagLength) return reject('MALFORMED');
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', options.key, raw.subarray(0, ivLength), { authTagLength });
    decipher.setAAD(Buffer.from(aesTag, 'ascii'));
    decipher.setAuthTag(raw.subarray(ivLength + plaintextLength));
    plain = Buffer.concat([decipher.update(raw.subarray(ivLength, ivLength + plaintextLength)), decipher.final()]);
  } catch {
    return reject('AUTHENTICATION_FAILED');
  }
  if (plain.readUInt8(0) !== aesFormatVersion) return reject('UNSUPPORTED_VERSION');
  const type = plain.readUInt8(1);
  const cardNumber = plain.readInt32BE(2);
  if (type === aesCodeTypes.visitorStatic) {
    return { valid: true, mode: 'static', subject: 'visitor', cardNumber, expiresAt: null };
  }
  if (type !== aesCodeTypes.hostDynamic && type !== aesCodeTypes.visitorDynamic) return reject('UNSUPPORTED_VERSION');
  if (options.mode === 'totp') return reject('WRONG_MODE', cardNumber);
  const leeway = options.leewayMs ?? 0;
  const notBefore = plain.readUInt32BE(6) * 1000;
  const notAfter = plain.readUInt32BE(10) * 1000;
  if (options.at + leeway < notBefore) return reject('NOT_YET_VALID', cardNumber);
  if (options.at - leeway >= notAfter) return reject('EXPIRED', cardNumber);
  const subject = type === aesCodeTypes.hostDynamic ? 'host' : 'visitor';
  return { valid: true, mode: 'aes', subject, cardNumber, expiresAt: notAfter };
}

/** How many earlier or later time steps are searched to tell an expired TOTP from a wrong one. */
const totpDiagnosisSteps = 10;
const otpPattern = new RegExp(`^\\d{${totpDigits}}$`);

function verifyTotp(fields: string[], options: VerifyOptions): QrVerification {
  const [letter, cardText, periodText, otp] = fields;
  const subject = letter === 'H' ? 'host' : letter === 'V' ? 'visitor' : undefined;
  if (
    fields.length !== 4 ||
    !subject ||
    !/^-?\d{1,10}$/.test(cardText ?? '') ||
    !/^\d{1,5}$/.test(periodText ?? '') ||
    !otpPattern.test(otp ?? '')
  ) {
    return reject('MALFORMED');
  }
  const cardNumber = Number(cardText);
  const period = Number(periodText);
  if (!isInt32(cardNumber) || period < 1 || String(cardNumber) !== cardText || String(period) !== periodText) {
    return reject('MALFORMED');
  }
  if (options.mode === 'aes') return reject('WRONG_MODE', cardNumber);
  const totp = totpOf(options.key, subject, cardNumber, period);
  const leeway = options.leewayMs ?? 0;
  const periodMs = period * 1000;
  const firstStep = Math.floor((options.at - leeway) / periodMs);
  const lastStep = Math.floor((options.at + leeway) / periodMs);
  const currentStep = Math.floor(options.at / periodMs);
  for (let step = firstStep; step <= lastStep; step++) {
    if (totp.generate({ timestamp: step * periodMs }) === otp) {
      return { valid: true, mode: 'totp', subject, cardNumber, expiresAt: (step + 1) * periodMs };
    }
  }
  const delta = totp.validate({ token: otp ?? '', timestamp: currentStep * periodMs, window: totpDiagnosisSteps });
  if (delta === null) return reject('AUTHENTICATION_FAILED', cardNumber);
  return reject(delta < 0 ? 'EXPIRED' : 'NOT_YET_VALID', cardNumber);
}

/**
 * Judges a payload read from a QR code. An altered code and a code made with another key look the same to
 * AES-GCM and TOTP alike (AUTHENTICATION_FAILED); an old TOTP is told apart (EXPIRED) by finding it among the
 * previous time steps.
 */
export function verifyQrCode(payload: string, options: VerifyOptions): QrVerification {
  const [tag, ...fields] = payload.trim().split('.');
  if (tag === aesTag && fields.length === 1) return verifyAes(fields[0] ?? '', options);
  if (tag === totpTag) return verifyTotp(fields, options);
  if (tag && /^[AT]\d+$/.test(tag)) return reject('UNSUPPORTED_VERSION');
  return reject('MALFORMED');
}
