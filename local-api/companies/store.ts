import { deviceOwnerActor, recordAudit } from '../audit/store.ts';
import { type Context, inTransaction } from '../context.ts';
import { type Caller, systemCredentialId } from '../credentials/caller.ts';
import { insertCredential } from '../credentials/store.ts';
import { ApiError } from '../http/errors.ts';
import { brandContrast, minimumContrast } from '../rules/contrast.ts';
import { hexId } from '../rules/ids.ts';
import { defaultTimeZone } from '../rules/time.ts';
import { objectToRow, prepared, rowToObject } from '../store/rows.ts';
import { type CompanyUpdateInput, companyColumns, companySecrets, secretMask } from './schema.ts';

const trialDays = 30;

/**
 * Creates a company and its first admin credential (its key generated unless given). Returns the key once: only
 * its hash is kept. The key's making is audited as the operator's (whoever holds the data folder: the command
 * line, the device).
 */
export async function createCompany(
  ctx: Context,
  input: { name: string; apiKey?: string | undefined; timezone?: string | undefined },
): Promise<{ id: string; apiKey: string }> {
  const id = hexId(ctx.random, 16);
  const now = ctx.clock.now();
  return await inTransaction(ctx, async () => {
    await ctx.db
      .prepare(
        `INSERT INTO companies (id, createdAt, updatedAt, name, trialUntil, timezone)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(id, now, now, input.name, now + trialDays * 86_400_000, input.timezone ?? null);
    const credential = await insertCredential(ctx, {
      companyId: id,
      role: 'admin',
      label: 'API key',
      key: input.apiKey,
    });
    await recordAudit(ctx, deviceOwnerActor(id), {
      action: 'key.created',
      objectType: 'credential',
      objectId: credential.id,
    });
    return { id, apiKey: credential.key };
  });
}

async function companyRow(ctx: Context, caller: Caller): Promise<Record<string, unknown>> {
  const row = (await prepared(ctx.db, 'SELECT * FROM companies WHERE id = ? AND deletedAt IS NULL').get(
    caller.companyId,
  )) as Record<string, unknown> | undefined;
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** The caller's company as docs/api.md, "Company" shows it, secrets masked. */
export async function companyObject(ctx: Context, caller: Caller): Promise<Record<string, unknown>> {
  const row = await companyRow(ctx, caller);
  const object = rowToObject(row, companyColumns, caller.timeZone);
  for (const key of companySecrets) object[key] = row[key] ? secretMask : null;
  return object;
}

/** A brand colour white text cannot be read on is refused, with the contrast it has and the one it needs. */
function checkBrandColor(color: string | null | undefined): void {
  if (!color) return;
  const contrast = brandContrast(color);
  if (contrast < minimumContrast) {
    throw new ApiError('BRAND_COLOR_CONTRAST', { field: 'brandColor', contrast, minimum: minimumContrast });
  }
}

/** The welcome messages after a PATCH: languages merge one by one, '' removes one. */
function mergedMessages(current: unknown, given: Readonly<Record<string, string | undefined>>) {
  const stored = JSON.parse(typeof current === 'string' ? current : '{}') as Record<string, string>;
  return Object.fromEntries(Object.entries({ ...stored, ...given }).filter(([, message]) => message));
}

/**
 * Updates the caller's company. Secrets are sealed before they reach SQLite; the mask leaves one unchanged. The
 * next request reads the new zone and language (the caller cache is emptied by the write).
 */
export async function updateCompany(
  ctx: Context,
  caller: Caller,
  input: CompanyUpdateInput,
): Promise<Record<string, unknown>> {
  const { plan: _plan, planIsActive: _active, trialUntil: _trial, ...changes } = input;
  checkBrandColor(changes.brandColor);
  const values: Record<string, unknown> = { ...changes };
  for (const key of companySecrets) {
    const value = changes[key];
    if (value === secretMask) delete values[key];
    else if (typeof value === 'string') values[key] = value === '' ? null : ctx.secrets.seal(value);
  }
  const row: Record<string, unknown> = { ...objectToRow(values, companyColumns), updatedAt: ctx.clock.now() };
  const timeZone = changes.timezone === undefined ? caller.timeZone : (changes.timezone ?? defaultTimeZone());
  const updated: Caller = { ...caller, timeZone, lang: changes.lang ?? caller.lang };
  await inTransaction(ctx, async () => {
    const current = await companyRow(ctx, caller);
    if (changes.localizedWelcomeMessage) {
      row.localizedWelcomeMessage = JSON.stringify(
        mergedMessages(current.localizedWelcomeMessage, changes.localizedWelcomeMessage),
      );
    }
    // This service keeps no hierarchy of companies: a parent is not the caller's to name (another tenant's id on a
    // shared hub, or its own). The value already stored is accepted back, for clients that send the object back.
    const parent = changes.parentCompanyId;
    if (parent && parent !== current.parentCompanyId) {
      throw new ApiError('INVALID_PARAMETER', { field: 'parentCompanyId' });
    }
    await ctx.events.decide('company.updated', caller);
    const columns = Object.keys(row);
    await prepared(
      ctx.db,
      `UPDATE companies SET ${columns.map((c) => `"${c}" = :${c}`).join(', ')} WHERE id = :__id AND deletedAt IS NULL`,
    ).run({ ...row, __id: caller.companyId });
    await ctx.events.publish('company.updated', caller, async () => await companyObject(ctx, updated));
  });
  return await companyObject(ctx, updated);
}

/** The caller a company's own background work (the retention sweep) acts as. */
export async function companyCaller(ctx: Context, companyId: string): Promise<Caller | undefined> {
  const row = (await ctx.db
    .prepare('SELECT id, timezone, lang FROM companies WHERE id = ? AND deletedAt IS NULL')
    .get(companyId)) as { id: string; timezone: string | null; lang: string } | undefined;
  return (
    row && {
      companyId: row.id,
      timeZone: row.timezone ?? defaultTimeZone(),
      lang: row.lang,
      role: 'admin',
      credentialId: systemCredentialId,
    }
  );
}
