import { queueAccountMail } from '../accounts/mail.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { type ListQuery, parseLimit, type QueryField, type QueryFields } from '../http/list-query.ts';
import { newHostId } from '../rules/ids.ts';
import { containing, findLiveRow, insertRow, listRows, objectToRow, prepared, updateRow } from '../store/rows.ts';
import { type HostRow, hostColumnQueryFields, hostColumns } from './contract.ts';
import { hostObject } from './present.ts';
import { type HostCreateInput, type HostDirectoryEntry, type HostUpdateInput, hostDirectoryPaging } from './schema.ts';

/** The list-query field `hostName` of what belongs to a live host (invitees, meetings): compares the host's name. */
export const hostNameQueryField: QueryField = {
  kind: 'text',
  related: {
    foreignKey: 'hostId',
    select: (comparison) =>
      `SELECT id FROM hosts WHERE companyId = :companyId AND deletedAt IS NULL AND name ${comparison}`,
  },
};

export const hostQueryFields: QueryFields = {
  ...hostColumnQueryFields,
  company: { kind: 'text', column: 'companyId' },
};

/** A phone is plausible when, with its country code, it has the length of an E.164 number. */
export function isPhonePlausible(phone: string | null | undefined, countryCode: string | null | undefined): boolean {
  if (!phone || !countryCode) return false;
  const digits = phone.replace(/\D/g, '').length;
  const total = digits + countryCode.replace(/\D/g, '').length;
  return digits >= 6 && total >= 8 && total <= 15;
}

export async function findHost(ctx: Context, caller: Caller, id: string): Promise<HostRow | undefined> {
  return await findLiveRow<HostRow>(ctx.db, 'hosts', caller.companyId, id);
}

export async function getHost(ctx: Context, caller: Caller, id: string): Promise<HostRow> {
  const row = await findHost(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

async function emailTaken(ctx: Context, caller: Caller, email: string): Promise<boolean> {
  return (
    (await prepared(ctx.db, 'SELECT 1 FROM hosts WHERE companyId = ? AND email = ? AND deletedAt IS NULL').get(
      caller.companyId,
      email,
    )) !== undefined
  );
}

/** Fields of the input that are instructions, not stored state. */
function storedFields(input: HostUpdateInput) {
  const { resendInvitationEmail: _resend, ...stored } = input;
  return stored;
}

export async function createHost(ctx: Context, caller: Caller, input: HostCreateInput): Promise<HostRow> {
  if (input.phone && !input.countryCode) throw new ApiError('MISSING_COUNTRY_CODE');
  return await inTransaction(ctx, async () => {
    if (await emailTaken(ctx, caller, input.email)) throw new ApiError('ALREADY_EXISTS');
    const now = ctx.clock.now();
    const id = newHostId(ctx.random);
    await ctx.events.decide('host.created', caller);
    await insertRow(ctx.db, 'hosts', {
      ...objectToRow(storedFields(input), hostColumns),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
      isPhoneValid: isPhonePlausible(input.phone, input.countryCode) ? 1 : 0,
    });
    const row = await getHost(ctx, caller, id);
    if (input.sendInvitationEmail && row.isActive)
      await queueAccountMail(ctx, { companyId: caller.companyId, hostId: id }, 'welcome');
    await ctx.events.publish('host.created', caller, () => hostObject(row, caller.timeZone));
    return row;
  });
}

export async function updateHost(ctx: Context, caller: Caller, id: string, input: HostUpdateInput): Promise<HostRow> {
  return await inTransaction(ctx, async () => {
    const current = await getHost(ctx, caller, id);
    if (input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase()) {
      throw new ApiError('CANNOT_CHANGE_HOST_EMAIL');
    }
    const phone = input.phone !== undefined ? input.phone : (current.phone as string | null);
    const countryCode = input.countryCode !== undefined ? input.countryCode : (current.countryCode as string | null);
    if (phone && !countryCode) throw new ApiError('MISSING_COUNTRY_CODE');
    const { email: _email, ...changes } = storedFields(input);
    await ctx.events.decide('host.updated', caller);
    await updateRow(ctx.db, 'hosts', caller.companyId, id, {
      ...objectToRow(changes, hostColumns),
      isPhoneValid: isPhonePlausible(phone, countryCode) ? 1 : 0,
      updatedAt: ctx.clock.now(),
    });
    const row = await getHost(ctx, caller, id);
    // The account e-mail (docs/console.md, "Signing in and accounts"): asked for again, or switched on.
    const invite =
      input.resendInvitationEmail === true || (input.sendInvitationEmail === true && !current.sendInvitationEmail);
    if (invite && row.isActive) await queueAccountMail(ctx, { companyId: caller.companyId, hostId: id }, 'welcome');
    await ctx.events.publish('host.updated', caller, () => hostObject(row, caller.timeZone));
    return row;
  });
}

export async function deleteHost(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getHost(ctx, caller, id);
    const now = ctx.clock.now();
    await ctx.events.decide('host.deleted', caller);
    await updateRow(ctx.db, 'hosts', caller.companyId, id, { deletedAt: now, updatedAt: now });
    await ctx.events.publish('host.deleted', caller, () =>
      hostObject({ ...row, deletedAt: now, updatedAt: now }, caller.timeZone),
    );
  });
}

export const listHosts = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<HostRow>(ctx.db, 'hosts', caller.companyId, query);

/**
 * The company's active hosts ordered by name, optionally those whose name contains `search`: what every person of
 * the company may read to choose a host (a co-host, whom a visitor is for), without anyone's contact data.
 */
export async function hostDirectory(
  ctx: Context,
  caller: Caller,
  query: Record<string, unknown>,
): Promise<HostDirectoryEntry[]> {
  const limit = parseLimit(query, hostDirectoryPaging);
  const search = query.search;
  if (search !== undefined && (typeof search !== 'string' || search.length > 200)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'search' });
  }
  const pattern = search?.trim() ? containing(search.trim()) : undefined;
  const sql = `SELECT id, name, position, sector FROM hosts
    WHERE companyId = :companyId AND deletedAt IS NULL AND isActive = 1
      ${pattern ? "AND name LIKE :pattern ESCAPE '\\'" : ''}
    ORDER BY name, id LIMIT :limit`;
  return (await prepared(ctx.db, sql).all({
    companyId: caller.companyId,
    limit,
    ...(pattern ? { pattern } : {}),
  })) as HostDirectoryEntry[];
}
