import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  deriveAesKey,
  issueAesCode,
  issueStaticCode,
  issueTotpCode,
  type QrSubject,
  totpSecret,
  verifyQrCode,
} from '../../local-api/access/qr.ts';
import { signBody } from '../../local-api/webhooks/signature.ts';
import { repoRoot } from '../helpers/service.ts';

/*
 * docs/access-control.md promises gate vendors exact worked examples. Its ```example-…``` blocks are read here and
 * recomputed with the real functions, so the document cannot drift from the code.
 */

const doc = readFileSync(join(repoRoot, 'docs/access-control.md'), 'utf8');

function example(name: string): Record<string, string> {
  const block = new RegExp(`\`\`\`example-${name}\\n([\\s\\S]*?)\`\`\``).exec(doc)?.[1];
  assert.ok(block, `docs/access-control.md has an example-${name} block`);
  return Object.fromEntries(
    block
      .trim()
      .split('\n')
      .map((line) => {
        const match = /^(\w+)\s*=\s*(.*)$/.exec(line);
        assert.ok(match?.[1] && match[2] !== undefined, `line "${line}"`);
        return [match[1], match[2].trim()];
      }),
  );
}

test('the AES example is what issueAesCode makes, byte for byte, and verifies until expiresAt', () => {
  const e = example('aes');
  const key = deriveAesKey(e.aesKey ?? '');
  const clock = Number(e.clock);
  const code = issueAesCode({
    key,
    subject: e.subject as QrSubject,
    cardNumber: Number(e.cardNumber),
    durationSeconds: Number(e.duration),
    now: clock,
    random: { bytes: () => Buffer.from(e.iv ?? '', 'hex') },
  });
  assert.equal(code.payload, e.payload);
  assert.equal(code.expiresAt, Number(e.expiresAt));
  const raw = Buffer.from(code.payload.slice(3), 'base64url');
  assert.equal(raw.subarray(0, 12).toString('hex'), e.iv);
  assert.equal(raw.subarray(12, 26).toString('hex'), e.ciphertext);
  assert.equal(raw.subarray(26).toString('hex'), e.tag);
  const plain = Buffer.from(e.plaintext ?? '', 'hex');
  assert.deepEqual(
    [plain[0], plain[1], plain.readInt32BE(2), plain.readUInt32BE(6) * 1000, plain.readUInt32BE(10) * 1000],
    [1, 1, Number(e.cardNumber), Math.floor(clock / 1000) * 1000, Number(e.expiresAt)],
  );
  assert.equal(verifyQrCode(code.payload, { key, at: clock }).valid, true);
  assert.equal(verifyQrCode(code.payload, { key, at: Number(e.expiresAt) }).valid, false);
});

test('the TOTP example is what issueTotpCode makes', () => {
  const e = example('totp');
  const key = deriveAesKey(e.aesKey ?? '');
  const subject = e.subject as QrSubject;
  assert.equal(totpSecret(key, subject, Number(e.cardNumber), Number(e.period)).toString('hex'), e.secret);
  const code = issueTotpCode({
    key,
    subject,
    cardNumber: Number(e.cardNumber),
    period: Number(e.period),
    now: Number(e.clock),
  });
  assert.deepEqual([code.payload, code.expiresAt], [e.payload, Number(e.expiresAt)]);
});

test('the static example is what issueStaticCode makes', () => {
  const e = example('static');
  const code = issueStaticCode({ key: deriveAesKey(e.aesKey ?? ''), cardNumber: Number(e.cardNumber) });
  assert.equal(code.payload, e.payload);
  assert.equal(Buffer.from(code.payload.slice(3), 'base64url').subarray(0, 12).toString('hex'), e.iv);
});

test('the webhook signature example is what signBody makes', () => {
  const e = example('webhook');
  assert.equal(signBody(e.secret ?? '', e.body ?? ''), e.signature);
});

test('the passphrase example of the key derivation holds', () => {
  const match = /`aesKey` = `([^`]+)` gives\s+K = `([0-9a-f]{64})`/.exec(doc);
  assert.ok(match?.[1] && match[2]);
  assert.equal(deriveAesKey(match[1]).toString('hex'), match[2]);
});
