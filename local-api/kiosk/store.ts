import { type AuditActor, auditActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { formatInZone } from '../rules/time.ts';
import { insertRow, objectToRow, prepared } from '../store/rows.ts';
import {
  type FieldMode,
  type KioskSettings,
  type KioskSettingsInput,
  type VisitorFieldName,
  visitorFieldNames,
} from './schema.ts';

/** What a kiosk asks before anyone changed anything: quick to pass, nothing a visitor must type but the name. */
export const defaultKioskSettings = {
  visitorFields: { email: 'optional', phone: 'optional', company: 'optional' } as Partial<
    Record<VisitorFieldName, FieldMode>
  >,
  pictureMode: 'optional' as FieldMode,
  ndaText: '',
  localizedNdaText: {} as Partial<Record<string, string>>,
  requireAuthorization: false,
  idleSeconds: 60,
  badgePrinting: true,
};

interface SettingsRow {
  visitorFields: string;
  pictureMode: FieldMode;
  ndaText: string;
  localizedNdaText: string;
  requireAuthorization: number;
  idleSeconds: number;
  badgePrinting: number;
  pinHash: string | null;
  updatedAt: number;
}

const columnKinds = {
  booleans: ['requireAuthorization', 'badgePrinting'],
  json: ['visitorFields', 'localizedNdaText'],
  times: [],
};

async function findRow(ctx: Context, companyId: string): Promise<SettingsRow | undefined> {
  return (await prepared(ctx.db, 'SELECT * FROM kiosk_settings WHERE companyId = ?').get(companyId)) as
    | SettingsRow
    | undefined;
}

/** Every visitor field with its mode: those never set are `off`. */
function allFields(given: Partial<Record<VisitorFieldName, FieldMode>>): Record<VisitorFieldName, FieldMode> {
  return Object.fromEntries(visitorFieldNames.map((name) => [name, given[name] ?? 'off'])) as Record<
    VisitorFieldName,
    FieldMode
  >;
}

export async function kioskSettings(ctx: Context, caller: Caller): Promise<KioskSettings> {
  const row = await findRow(ctx, caller.companyId);
  if (!row) {
    return {
      ...defaultKioskSettings,
      visitorFields: allFields(defaultKioskSettings.visitorFields),
      pinSet: false,
      updatedAt: null,
    };
  }
  return {
    visitorFields: allFields(JSON.parse(row.visitorFields) as Record<VisitorFieldName, FieldMode>),
    pictureMode: row.pictureMode,
    ndaText: row.ndaText,
    localizedNdaText: JSON.parse(row.localizedNdaText) as Partial<Record<string, string>>,
    requireAuthorization: row.requireAuthorization === 1,
    idleSeconds: row.idleSeconds,
    badgePrinting: row.badgePrinting === 1,
    pinSet: row.pinHash !== null,
    updatedAt: formatInZone(row.updatedAt, caller.timeZone),
  };
}

async function upsert(ctx: Context, companyId: string, values: Record<string, unknown>): Promise<void> {
  const now = ctx.clock.now();
  if (await findRow(ctx, companyId)) {
    const row = { ...values, updatedAt: now };
    const columns = Object.keys(row);
    await prepared(
      ctx.db,
      `UPDATE kiosk_settings SET ${columns.map((c) => `${c} = :${c}`).join(', ')} WHERE companyId = :companyId`,
    ).run({ ...row, companyId });
    return;
  }
  await insertRow(ctx.db, 'kiosk_settings', {
    ...objectToRow({ ...defaultKioskSettings }, columnKinds),
    ...values,
    companyId,
    createdAt: now,
    updatedAt: now,
  });
}

/** Saves the given settings; visitor fields and agreement texts merge one by one, so a client may change one. */
export async function saveKioskSettings(
  ctx: Context,
  caller: Caller,
  input: KioskSettingsInput,
): Promise<KioskSettings> {
  return await inTransaction(ctx, async () => {
    const current = await kioskSettings(ctx, caller);
    const visitorFields = input.visitorFields ? { ...current.visitorFields, ...input.visitorFields } : undefined;
    // Languages merge one by one too; '' removes a language's own text, which then falls back to `ndaText`.
    const localizedNdaText = input.localizedNdaText
      ? Object.fromEntries(
          Object.entries({ ...current.localizedNdaText, ...input.localizedNdaText }).filter(([, text]) => text),
        )
      : undefined;
    await upsert(ctx, caller.companyId, objectToRow({ ...input, visitorFields, localizedNdaText }, columnKinds));
    const saved = await kioskSettings(ctx, caller);
    await recordAudit(ctx, auditActor(caller), {
      action: 'kiosk.settings.updated',
      objectType: 'kioskSettings',
      details: { requireAuthorization: saved.requireAuthorization, idleSeconds: saved.idleSeconds },
    });
    return saved;
  });
}

/** The PIN's hash, opened; undefined when no PIN was set. */
export async function storedPinHash(ctx: Context, companyId: string): Promise<string | undefined> {
  const sealed = (await findRow(ctx, companyId))?.pinHash;
  return sealed ? ctx.secrets.open(sealed) : undefined;
}

/** Saves the PIN's hash; `actor` is whoever set it (an admin, or the device owner at enrolment). */
export async function savePinHash(ctx: Context, actor: AuditActor, hash: string): Promise<void> {
  await inTransaction(ctx, async () => {
    await upsert(ctx, actor.companyId, { pinHash: ctx.secrets.seal(hash) });
    await recordAudit(ctx, actor, { action: 'kiosk.pin.set', objectType: 'kioskSettings' });
  });
}

export async function clearPinHash(ctx: Context, caller: Caller): Promise<void> {
  await inTransaction(ctx, async () => {
    await prepared(ctx.db, 'UPDATE kiosk_settings SET pinHash = NULL, updatedAt = ? WHERE companyId = ?').run(
      ctx.clock.now(),
      caller.companyId,
    );
    await recordAudit(ctx, auditActor(caller), { action: 'kiosk.pin.cleared', objectType: 'kioskSettings' });
  });
}
