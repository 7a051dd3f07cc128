import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCompany } from './companies/store.ts';
import { type Context, inTransaction } from './context.ts';
import { credentialLive, insertCredential } from './credentials/store.ts';
import { ApiError } from './http/errors.ts';
import { createFileDurably } from './store/durable-file.ts';
import { prepared } from './store/rows.ts';

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

function readRow(ctx: Context): EnrolmentRow | undefined {
  return prepared(ctx.db, 'SELECT companyId, kioskCredentialId, kioskKey, enrolledAt FROM device_enrolment').get() as
    | EnrolmentRow
    | undefined;
}

const companyExists = (ctx: Context, companyId: string): boolean =>
  prepared(ctx.db, 'SELECT 1 FROM companies WHERE id = ? AND deletedAt IS NULL').get(companyId) !== undefined;

/**
 * Makes this device's kiosk serve `companyId`, with a new kiosk credential (the previous one is revoked: a page
 * still holding it is refused, and asks again). Only the device owner enrols: the CLI, or an owner token.
 */
export function enrolDevice(ctx: Context, companyId: string): Enrolment {
  return inTransaction(ctx, () => {
    if (!companyExists(ctx, companyId)) throw new ApiError('NOT_FOUND');
    const previous = readRow(ctx);
    if (previous) {
      prepared(ctx.db, 'UPDATE credentials SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL').run(
        ctx.clock.now(),
        previous.kioskCredentialId,
      );
    }
    const { id, key } = insertCredential(ctx, { companyId, role: 'kiosk', label: 'Kiosk screen' });
    const row: EnrolmentRow = {
      companyId,
      kioskCredentialId: id,
      kioskKey: ctx.secrets.seal(key),
      enrolledAt: ctx.clock.now(),
    };
    prepared(
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

/**
 * The device's enrolment, if any. A kiosk credential an admin revoked is replaced: the device gets a new one, the
 * old one stays dead.
 */
export function deviceEnrolment(ctx: Context): Enrolment | undefined {
  const row = readRow(ctx);
  if (!row) return undefined;
  if (!credentialLive(ctx, row.kioskCredentialId)) return enrolDevice(ctx, row.companyId);
  return { ...row, kioskKey: ctx.secrets.open(row.kioskKey) };
}

/** A device that serves no company and holds none: the first company it meets may become its own. */
export function isFreshDevice(ctx: Context): boolean {
  return readRow(ctx) === undefined && prepared(ctx.db, 'SELECT 1 FROM companies LIMIT 1').get() === undefined;
}

/**
 * Whether this device may take the company a hub names as its own: only the company it is enrolled for, or any
 * company while the device is fresh. A hub that names another is refused, so whoever points a device at a hub of
 * their own cannot make it adopt another company's id (and its rows, and its visitors' next check-ins).
 */
export function mayFollowCompany(ctx: Context, companyId: string): boolean {
  const enrolled = deviceEnrolment(ctx)?.companyId ?? legacyDeviceCompany(ctx);
  return enrolled ? enrolled === companyId : isFreshDevice(ctx);
}

/**
 * Creates a company and, if the device's kiosk serves none yet, enrols it to the new company (`portaria company
 * create`, the first `portaria start`). Answers the admin key once, and whether the kiosk was enrolled.
 */
export function createCompanyForDevice(
  ctx: Context,
  input: Parameters<typeof createCompany>[1],
): { id: string; apiKey: string; enrolled: boolean } {
  return inTransaction(ctx, () => {
    const enrolled = deviceEnrolment(ctx) === undefined;
    const company = createCompany(ctx, input);
    if (enrolled) enrolDevice(ctx, company.id);
    return { ...company, enrolled };
  });
}

export interface DeviceCredential {
  companyId: string;
  apiKey: string;
}

const deviceFile = (ctx: Context) => join(ctx.dataDir, 'device.json');

function legacyDeviceCompany(ctx: Context): string | undefined {
  if (!existsSync(deviceFile(ctx))) return undefined;
  return (JSON.parse(readFileSync(deviceFile(ctx), 'utf8')) as { companyId: string }).companyId;
}

/**
 * The kiosk's own credential: the key its screens use to call the service. Kept in `<data>/device.json`, its
 * key sealed with the device key. On a first start a company is created for it, so the kiosk can be tried at once.
 */
export function deviceCredential(
  ctx: Context,
  companyName: string,
): { credential: DeviceCredential; created: boolean } {
  const file = deviceFile(ctx);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { companyId: string; apiKey: string };
    return { credential: { companyId: stored.companyId, apiKey: ctx.secrets.open(stored.apiKey) }, created: false };
  }
  const company = createCompany(ctx, { name: companyName });
  const credential = { companyId: company.id, apiKey: company.apiKey };
  createFileDurably(file, JSON.stringify({ companyId: company.id, apiKey: ctx.secrets.seal(company.apiKey) }));
  return { credential, created: true };
}
