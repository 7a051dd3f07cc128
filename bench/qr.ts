/*
 * QR codes made per second on this machine, one core: AES window codes, TOTP codes, static codes, their
 * verification, and the pictures (PNG, SVG) the /qrcode endpoints render. Prints one JSON line.
 *   node --import tsx bench/qr.ts [--seconds 1]
 */
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { deriveAesKey, issueAesCode, issueStaticCode, issueTotpCode, verifyQrCode } from '../local-api/access/qr.ts';
import { systemRandom } from '../local-api/context.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '1' } } });
const budgetMs = Number(values.seconds) * 1000;
const key = deriveAesKey('bench key');
const now = Date.now();

/** Runs `work` repeatedly for the time budget (after a short warm-up) and answers operations per second. */
async function rate(work: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < 200; i++) await work(i);
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < budgetMs) {
    await work(done);
    done++;
  }
  return Math.round(done / ((performance.now() - start) / 1000));
}

const aes = (i: number) =>
  issueAesCode({ key, subject: 'host', cardNumber: i, durationSeconds: 30, now, random: systemRandom });
const sample = aes(1).payload;
const totpSample = issueTotpCode({ key, subject: 'host', cardNumber: 1, period: 30, now }).payload;

const result = {
  bench: 'qr',
  node: process.version,
  secondsPerFigure: budgetMs / 1000,
  aesPerSecond: await rate(aes),
  totpPerSecond: await rate((i) => issueTotpCode({ key, subject: 'host', cardNumber: i, period: 30, now })),
  staticPerSecond: await rate((i) => issueStaticCode({ key, cardNumber: i })),
  verifyAesPerSecond: await rate(() => verifyQrCode(sample, { key, at: now })),
  verifyTotpPerSecond: await rate(() => verifyQrCode(totpSample, { key, at: now })),
  pngPerSecond: await rate((i) => QRCode.toBuffer(aes(i).payload, { errorCorrectionLevel: 'M', scale: 8 })),
  svgPerSecond: await rate((i) => QRCode.toString(aes(i).payload, { type: 'svg', errorCorrectionLevel: 'M' })),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
