import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { findHost } from '../hosts/store.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { identityKeys, type PersonAtDoor, type PersonIds, samePhone } from '../rules/identity.ts';
import { newRecordId } from '../rules/ids.ts';
import { normalizeName } from '../rules/names.ts';
import {
  findLiveRow,
  insertRow,
  listRows,
  objectToRow,
  prepared,
  queryFieldsOf,
  rowToObject,
  updateRow,
} from '../store/rows.ts';
import { type BlocklistField, type BlocklistInput, blocklistColumns, blocklistIdentifiers } from './schema.ts';

export type BlocklistRow = Record<string, unknown> & {
  id: string;
  reason: string | null;
  cpfKey: string | null;
  rgKey: string | null;
  documentKey: string | null;
  emailKey: string | null;
  phoneKey: string | null;
};

export const blocklistQueryFields: QueryFields = queryFieldsOf(
  ['name', 'reason', 'phone', 'email', 'document', 'cpf', 'rg', 'createdById'],
  blocklistColumns,
);

const keyColumns = ['cpfKey', 'rgKey', 'documentKey', 'emailKey', 'phoneKey', 'phoneTail'] as const;

export function blocklistObject(row: BlocklistRow, caller: Caller): Record<string, unknown> {
  const object = rowToObject(row, blocklistColumns, caller.timeZone);
  for (const key of keyColumns) delete object[key];
  return object;
}

export async function getBlocklistEntry(ctx: Context, caller: Caller, id: string): Promise<BlocklistRow> {
  const row = await findLiveRow<BlocklistRow>(ctx.db, 'blocklist', caller.companyId, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** Who created or deleted an entry is one of the company's hosts: another company's id is refused. */
async function requireOwnHost(ctx: Context, caller: Caller, hostId: string | null | undefined): Promise<void> {
  if (hostId && !(await findHost(ctx, caller, hostId))) throw new ApiError('HOST_NOT_FOUND');
}

/** The entry's stored fields with the normalized keys the door compares. */
function storedFields(entry: BlocklistInput & PersonIds) {
  const { companyId: _company, ...fields } = entry;
  if (!blocklistIdentifiers.some((key) => entry[key])) throw new ApiError('MISSING_IDENTIFIER');
  return { ...objectToRow(fields, blocklistColumns), ...identityKeys(entry) };
}

export async function createBlocklistEntry(ctx: Context, caller: Caller, input: BlocklistInput): Promise<BlocklistRow> {
  const fields = storedFields(input);
  return await inTransaction(ctx, async () => {
    await requireOwnHost(ctx, caller, input.createdById);
    const id = newRecordId(ctx.random);
    const now = ctx.clock.now();
    await ctx.events.decide('blocklist.created', caller);
    await insertRow(ctx.db, 'blocklist', {
      ...fields,
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getBlocklistEntry(ctx, caller, id);
    await ctx.events.publish('blocklist.created', caller, () => blocklistObject(row, caller));
    return row;
  });
}

export async function updateBlocklistEntry(
  ctx: Context,
  caller: Caller,
  id: string,
  input: BlocklistInput,
): Promise<BlocklistRow> {
  return await inTransaction(ctx, async () => {
    const current = await getBlocklistEntry(ctx, caller, id);
    await requireOwnHost(ctx, caller, input.createdById);
    const merged = { ...(rowToObject(current, blocklistColumns, caller.timeZone) as PersonIds), ...input };
    const { cpfKey, rgKey, documentKey, emailKey, phoneKey, phoneTail } = storedFields(merged);
    await ctx.events.decide('blocklist.updated', caller);
    await updateRow(ctx.db, 'blocklist', caller.companyId, id, {
      ...objectToRow(input, blocklistColumns),
      companyId: caller.companyId,
      ...{ cpfKey, rgKey, documentKey, emailKey, phoneKey, phoneTail },
      updatedAt: ctx.clock.now(),
    });
    const row = await getBlocklistEntry(ctx, caller, id);
    await ctx.events.publish('blocklist.updated', caller, () => blocklistObject(row, caller));
    return row;
  });
}

export async function deleteBlocklistEntry(
  ctx: Context,
  caller: Caller,
  id: string,
  deletedById: string | null,
): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getBlocklistEntry(ctx, caller, id);
    await requireOwnHost(ctx, caller, deletedById);
    const now = ctx.clock.now();
    await ctx.events.decide('blocklist.deleted', caller);
    await updateRow(ctx.db, 'blocklist', caller.companyId, id, { deletedAt: now, updatedAt: now, deletedById });
    const deleted = { ...row, deletedAt: now, updatedAt: now, deletedById };
    await ctx.events.publish('blocklist.deleted', caller, () => blocklistObject(deleted, caller));
  });
}

export const listBlocklist = async (ctx: Context, caller: Caller, query: ListQuery) =>
  await listRows<BlocklistRow>(ctx.db, 'blocklist', caller.companyId, query);

export interface BlocklistMatch {
  entry: BlocklistRow;
  /** The entry's field that matched: an identifier, or only the name (`hold`). */
  on: BlocklistField | 'name';
}

/** The identifier kinds a door can tell two people apart by; CPF, RG and document are compared with each other. */
const identifierKinds = (keys: ReturnType<typeof identityKeys> | BlocklistRow) => ({
  number: keys.cpfKey !== null || keys.rgKey !== null || keys.documentKey !== null,
  email: keys.emailKey !== null,
  phone: keys.phoneKey !== null,
});

/**
 * Whether a person who matched no identifier of the entry is nevertheless its name, with nothing to tell them apart:
 * the same name (without regard to case, accents, punctuation and spacing) and no identifier of a kind the entry has.
 * Left blank, an e-mail must not be the way past the blocklist. Pure.
 */
export function heldByName(entry: BlocklistRow, name: string, keys: ReturnType<typeof identityKeys>): boolean {
  const entryName = normalizeName(String(entry.name ?? ''));
  if (entryName === '' || entryName !== normalizeName(name)) return false;
  const theirs = identifierKinds(entry);
  const given = identifierKinds(keys);
  return !(['number', 'email', 'phone'] as const).some((kind) => theirs[kind] && given[kind]);
}

/**
 * The blocklist entry a person at the door matches, if any (the oldest when several do). Identifiers are compared
 * normalized; CPF, RG and document numbers are compared with each other too, since a kiosk's "document" field
 * often receives one of the others; phone numbers match with or without their country and area codes. Only when
 * no identifier matches, an entry of the person's name with nothing to tell them apart (`heldByName`) is a match
 * `on: 'name'`: the visit is held for the front desk, not blocked (people share names).
 */
export async function screenVisitor(
  ctx: Context,
  caller: Caller,
  person: PersonAtDoor,
): Promise<BlocklistMatch | undefined> {
  const keys = identityKeys(person);
  return (await screenIdentifiers(ctx, caller, keys)) ?? (await screenName(ctx, caller, person.name ?? '', keys));
}

async function screenName(
  ctx: Context,
  caller: Caller,
  name: string,
  keys: ReturnType<typeof identityKeys>,
): Promise<BlocklistMatch | undefined> {
  if (normalizeName(name) === '') return undefined;
  // Names are compared normalized in JavaScript (SQLite's and PostgreSQL's lower() differ on accents): the
  // company's named entries are read, a short list.
  const named = (await prepared(
    ctx.db,
    `SELECT * FROM blocklist WHERE companyId = ? AND deletedAt IS NULL AND name IS NOT NULL AND name <> ''
     ORDER BY createdAt, rowid`,
  ).all(caller.companyId)) as BlocklistRow[];
  const entry = named.find((row) => heldByName(row, name, keys));
  return entry ? { entry, on: 'name' } : undefined;
}

async function screenIdentifiers(
  ctx: Context,
  caller: Caller,
  keys: ReturnType<typeof identityKeys>,
): Promise<BlocklistMatch | undefined> {
  const numbers = [keys.cpfKey, keys.rgKey, keys.documentKey];
  if (![...numbers, keys.emailKey, keys.phoneTail].some((key) => key !== null)) return undefined;
  // One indexed lookup per key, united: an OR over the keys would read every entry of the company.
  const live = 'SELECT rowid AS position, * FROM blocklist WHERE companyId = :companyId AND deletedAt IS NULL AND';
  const candidates = (await prepared(
    ctx.db,
    `${live} cpfKey IN (:a, :b, :c) UNION ${live} rgKey IN (:a, :b, :c) UNION ${live} documentKey IN (:a, :b, :c)
     UNION ${live} emailKey = :emailKey UNION ${live} phoneTail = :phoneTail
     ORDER BY createdAt, position`,
  ).all({
    companyId: caller.companyId,
    a: numbers[0],
    b: numbers[1],
    c: numbers[2],
    emailKey: keys.emailKey,
    phoneTail: keys.phoneTail,
  })) as BlocklistRow[];
  for (const entry of candidates) {
    const has = (key: string | null) => key !== null && numbers.includes(key);
    if (has(entry.cpfKey)) return { entry, on: 'cpf' };
    if (has(entry.rgKey)) return { entry, on: 'rg' };
    if (has(entry.documentKey)) return { entry, on: 'document' };
    if (entry.emailKey !== null && entry.emailKey === keys.emailKey) return { entry, on: 'email' };
    if (entry.phoneKey !== null && keys.phoneKey !== null && samePhone(entry.phoneKey, keys.phoneKey)) {
      return { entry, on: 'phone' };
    }
  }
  return undefined;
}
