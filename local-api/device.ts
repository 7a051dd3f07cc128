import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deviceOwnerActor, recordAudit } from './audit/store.ts';
import { companyCaller, createCompany } from './companies/store.ts';
import { type Context, inTransaction } from './context.ts';
import { credentialLive, insertCredential } from './credentials/store.ts';
import { ApiError } from './http/errors.ts';
import { hashPin } from './kiosk/pin.ts';
import { savePinHash, storedPinHash } from './kiosk/store.ts';
import type { Random } from './rules/ids.ts';
import { prepared } from './store/rows.ts';
import { syncState } from './sync/state.ts';

/** The company this device's kiosk serves, and the kiosk credential its screens use. */
export interface Enrolment {
  companyId: string;
  kioskCredentialId: string;
  /** In clear: handed to the kiosk's own page only (the Electron bridge, or /kiosk/session from this machine). */
  kioskKey: string;
  enrolledAt: number;
}

interface EnrolmentRow {
  companyId: string;
  kioskCredentialId: string;
  kioskKey: string;
  enrolledAt: number;
}

async function readRow(ctx: Context): Promise<EnrolmentRow | undefined> {
  return (await prepared(
    ctx.db,
    'SELECT companyId, kioskCredentialId, kioskKey, enrolledAt FROM device_enrolment',
  ).get()) as EnrolmentRow | undefined;
}

const companyExists = async (ctx: Context, companyId: string): Promise<boolean> =>
  (await prepared(ctx.db, 'SELECT 1 FROM companies WHERE id = ? AND deletedAt IS NULL').get(companyId)) !== undefined;

/**
 * Makes this device's kiosk serve `companyId`, with a new kiosk credential (the previous one is revoked: a page
 * still holding it is refused, and asks again). Only the device owner enrols: the CLI, or an owner token.
 */
export async function enrolDevice(ctx: Context, companyId: string): Promise<Enrolment> {
  return await inTransaction(ctx, async () => {
    if (!(await companyExists(ctx, companyId))) throw new ApiError('NOT_FOUND');
    const previous = await readRow(ctx);
    if (previous) {
      const revoked = await prepared(
        ctx.db,
        'UPDATE credentials SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL',
      ).run(ctx.clock.now(), previous.kioskCredentialId);
      if (revoked.changes > 0) {
        await recordAudit(ctx, deviceOwnerActor(previous.companyId), {
          action: 'key.revoked',
          objectType: 'credential',
          objectId: previous.kioskCredentialId,
        });
      }
    }
    const { id, key } = await insertCredential(ctx, { companyId, role: 'kiosk', label: 'Kiosk screen' });
    await recordAudit(ctx, deviceOwnerActor(companyId), {
      action: 'key.created',
      objectType: 'credential',
      objectId: id,
    });
    const row: EnrolmentRow = {
      companyId,
      kioskCredentialId: id,
      kioskKey: ctx.secrets.seal(key),
      enrolledAt: ctx.clock.now(),
    };
    await prepared(
      ctx.db,
      `INSERT INTO device_enrolment (id, companyId, kioskCredentialId, kioskKey, enrolledAt)
       VALUES (1, :companyId, :kioskCredentialId, :kioskKey, :enrolledAt)
       ON CONFLICT (id) DO UPDATE SET companyId = excluded.companyId, kioskCredentialId = excluded.kioskCredentialId,
         kioskKey = excluded.kioskKey, enrolledAt = excluded.enrolledAt`,
    ).run(row);
    ctx.log.info({ companyId }, 'kiosk enrolled');
    return { ...row, kioskKey: key };
  });
}

/** Before enrolment existed the kiosk kept `<data>/device.json`: its company, and an admin key for its page. */
const legacyDeviceFile = (ctx: Context) => join(ctx.dataDir, 'device.json');

/**
 * The device's enrolment, if any. A data folder from before enrolment existed is enrolled to the company its
 * `device.json` names, and the file goes: it held a copy of the company's admin key (the one printed at the first
 * start, which stays valid) for the page, which now gets a kiosk credential instead. A kiosk credential an admin
 * revoked is replaced: the device gets a new one, the old one stays dead.
 */
export async function deviceEnrolment(ctx: Context): Promise<Enrolment | undefined> {
  let row = await readRow(ctx);
  if (!row && existsSync(legacyDeviceFile(ctx))) {
    const legacy = JSON.parse(readFileSync(legacyDeviceFile(ctx), 'utf8')) as { companyId: string };
    if (await companyExists(ctx, legacy.companyId)) await enrolDevice(ctx, legacy.companyId);
    rmSync(legacyDeviceFile(ctx), { force: true });
    row = await readRow(ctx);
  }
  if (!row) return undefined;
  if (!(await credentialLive(ctx, row.kioskCredentialId))) return await enrolDevice(ctx, row.companyId);
  return { ...row, kioskKey: ctx.secrets.open(row.kioskKey) };
}

/** A device that serves no company and holds none: the first company it meets may become its own. */
export async function isFreshDevice(ctx: Context): Promise<boolean> {
  return (
    (await readRow(ctx)) === undefined &&
    (await prepared(ctx.db, 'SELECT 1 FROM companies LIMIT 1').get()) === undefined
  );
}

/**
 * Whether this device may take the company a hub names as its own: only the company it is enrolled for, or any
 * company while the device is fresh. A hub that names another is refused, so whoever points a device at a hub of
 * their own cannot make it adopt another company's id (and its rows, and its visitors' next check-ins).
 */
export async function mayFollowCompany(ctx: Context, companyId: string): Promise<boolean> {
  const enrolled = await deviceEnrolment(ctx);
  return enrolled ? enrolled.companyId === companyId : await isFreshDevice(ctx);
}

/** A first front-desk PIN: 8 random digits (uniform: bytes that would favour some digits are drawn again). */
export function newPin(random: Random): string {
  let digits = '';
  while (digits.length < 8) {
    for (const byte of random.bytes(8)) if (byte < 250 && digits.length < 8) digits += String(byte % 10);
  }
  return digits;
}

/**
 * The company's first front-desk PIN, set at enrolment so that nobody at the screen chooses it; answered once (only
 * its hash is kept). Undefined when the company has a PIN already.
 */
export async function setFirstPin(ctx: Context, companyId: string): Promise<string | undefined> {
  if (!(await companyCaller(ctx, companyId)) || (await storedPinHash(ctx, companyId))) return undefined;
  const pin = newPin(ctx.random);
  // Set by the device owner (the command line, the first start): so the audit log says.
  await savePinHash(ctx, deviceOwnerActor(companyId), await hashPin(pin, ctx.random.bytes(16)));
  return pin;
}

export interface EnrolledCompany {
  id: string;
  /** The admin key, shown once. */
  apiKey: string;
  /** Whether the device's kiosk now serves this company. */
  enrolled: boolean;
  /** The first front-desk PIN, shown once, when the kiosk was enrolled to a company without one. */
  pin?: string;
}

/**
 * Creates a company and, if the device's kiosk serves none yet, enrols it to the new company with a first PIN
 * (`portaria company create`, the first `portaria start`).
 */
export async function createCompanyForDevice(
  ctx: Context,
  input: Parameters<typeof createCompany>[1],
): Promise<EnrolledCompany> {
  const company = await inTransaction(ctx, async () => {
    const enrolled = (await deviceEnrolment(ctx)) === undefined;
    const created = await createCompany(ctx, input);
    if (enrolled) await enrolDevice(ctx, created.id);
    return { ...created, enrolled };
  });
  const pin = company.enrolled ? await setFirstPin(ctx, company.id) : undefined;
  return pin === undefined ? company : { ...company, pin };
}

/**
 * `npm start`'s first run: a device that serves no company and follows no hub gets one (so the kiosk can be tried at
 * once), printed once with its first PIN. Undefined when the device has its company already, or waits for a hub's.
 */
export async function firstStartCompany(ctx: Context, name: string): Promise<EnrolledCompany | undefined> {
  if (!(await isFreshDevice(ctx)) || (await syncState(ctx)).upstreamUrl !== null) return undefined;
  return createCompanyForDevice(ctx, { name });
}
