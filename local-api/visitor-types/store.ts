import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { newCustomFieldId } from '../rules/ids.ts';
import { isLanguage } from '../rules/lang.ts';
import { findLiveRow, insertRow, listRows, objectToRow, prepared, rowToObject, updateRow } from '../store/rows.ts';
import { presets, type TypeRules } from './rules.ts';
import {
  type VisitorType,
  type VisitorTypeCreateInput,
  type VisitorTypeKind,
  type VisitorTypeUpdateInput,
  visitorTypeColumns,
  visitorTypeKinds,
} from './schema.ts';

export type VisitorTypeRow = Record<string, unknown> & {
  id: string;
  companyId: string;
  kind: VisitorTypeKind;
  requireAuthorization: number | null;
  customFieldIds: string | null;
};

export const visitorTypeQueryFields: QueryFields = {
  name: { kind: 'text' },
  kind: { kind: 'text', values: Object.fromEntries(visitorTypeKinds.map((k) => [k, k])) },
  isActive: { kind: 'boolean' },
  sort: { kind: 'number' },
};

export function visitorTypeObject(row: VisitorTypeRow, caller: Caller): VisitorType {
  const object = rowToObject(row, visitorTypeColumns, caller.timeZone, ['companyId', 'deletedAt']);
  object.type = 'visitorType';
  return object as unknown as VisitorType;
}

export async function findVisitorType(ctx: Context, caller: Caller, id: string): Promise<VisitorTypeRow | undefined> {
  return await findLiveRow<VisitorTypeRow>(ctx.db, 'visitor_types', caller.companyId, id);
}

export async function getVisitorType(ctx: Context, caller: Caller, id: string): Promise<VisitorTypeRow> {
  const row = await findVisitorType(ctx, caller, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/** A visit's or invitee's type: one of the company's live types, or VISITOR_TYPE_NOT_FOUND. */
export async function requireVisitorType(ctx: Context, caller: Caller, id: string | null | undefined): Promise<void> {
  if (id && !(await findVisitorType(ctx, caller, id))) throw new ApiError('VISITOR_TYPE_NOT_FOUND');
}

/** The rules of a type as `effectiveRules` reads them; undefined for no type (or one deleted since). */
export async function typeRules(
  ctx: Context,
  caller: Caller,
  id: string | null | undefined,
): Promise<TypeRules | undefined> {
  const row = id ? await findVisitorType(ctx, caller, id) : undefined;
  if (!row) return undefined;
  const type = visitorTypeObject(row, caller);
  return {
    visitorFields: type.visitorFields,
    customFieldIds: type.customFieldIds,
    ndaText: type.ndaText,
    localizedNdaText: type.localizedNdaText,
    pictureMode: type.pictureMode,
    requireAuthorization: type.requireAuthorization,
  };
}

/** Every id a type lists must name one of the company's custom fields: a typo would silently ask nothing. */
async function requireCustomFields(
  ctx: Context,
  caller: Caller,
  ids: readonly string[] | null | undefined,
): Promise<void> {
  if (!ids) return;
  const known = prepared(ctx.db, 'SELECT 1 FROM custom_fields WHERE id = ? AND companyId = ? AND deletedAt IS NULL');
  for (const id of ids) {
    if (!(await known.get(id, caller.companyId))) throw new ApiError('INVALID_PARAMETER', { field: 'customFieldIds' });
  }
}

/** A new type's values: a known kind's defaults (its names in the company's language, its rules), then the input. */
function withDefaults(caller: Caller, input: VisitorTypeCreateInput): VisitorTypeCreateInput {
  if (input.kind === 'custom') {
    if (!input.name) throw new ApiError('MISSING_NAME');
    return { badgeLabel: input.name.slice(0, 40), ...input };
  }
  const { localizedName, localizedBadgeLabel, ...rules } = presets[input.kind];
  const lang = isLanguage(caller.lang) ? caller.lang : 'en';
  return {
    name: localizedName[lang],
    localizedName,
    badgeLabel: localizedBadgeLabel[lang],
    localizedBadgeLabel,
    ...rules,
    customFieldIds: rules.customFieldIds ? [...rules.customFieldIds] : null,
    ...input,
  };
}

export async function createVisitorType(
  ctx: Context,
  caller: Caller,
  input: VisitorTypeCreateInput,
): Promise<VisitorTypeRow> {
  const values = withDefaults(caller, input);
  return await inTransaction(ctx, async () => {
    await requireCustomFields(ctx, caller, values.customFieldIds);
    const taken = prepared(ctx.db, 'SELECT 1 FROM visitor_types WHERE id = ?');
    let id = newCustomFieldId(ctx.random);
    while (await taken.get(id)) id = newCustomFieldId(ctx.random);
    const now = ctx.clock.now();
    await ctx.events.decide('visitortype.created', caller);
    await insertRow(ctx.db, 'visitor_types', {
      ...objectToRow(values, visitorTypeColumns),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getVisitorType(ctx, caller, id);
    await ctx.events.publish('visitortype.created', caller, () => visitorTypeObject(row, caller));
    return row;
  });
}

export async function updateVisitorType(
  ctx: Context,
  caller: Caller,
  id: string,
  input: VisitorTypeUpdateInput,
): Promise<VisitorTypeRow> {
  return await inTransaction(ctx, async () => {
    await getVisitorType(ctx, caller, id);
    await requireCustomFields(ctx, caller, input.customFieldIds);
    await ctx.events.decide('visitortype.updated', caller);
    await updateRow(ctx.db, 'visitor_types', caller.companyId, id, {
      ...objectToRow(input, visitorTypeColumns),
      updatedAt: ctx.clock.now(),
    });
    const row = await getVisitorType(ctx, caller, id);
    await ctx.events.publish('visitortype.updated', caller, () => visitorTypeObject(row, caller));
    return row;
  });
}

/** Visits and invitees keep naming a deleted type; the kiosk treats them as having none. */
export async function deleteVisitorType(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getVisitorType(ctx, caller, id);
    const now = ctx.clock.now();
    await ctx.events.decide('visitortype.deleted', caller);
    await updateRow(ctx.db, 'visitor_types', caller.companyId, id, { deletedAt: now, updatedAt: now });
    await ctx.events.publish('visitortype.deleted', caller, () =>
      visitorTypeObject({ ...row, updatedAt: now }, caller),
    );
  });
}

/** Types in the order the kiosk offers them. */
export async function listVisitorTypes(ctx: Context, caller: Caller, query: ListQuery): Promise<VisitorTypeRow[]> {
  return await listRows<VisitorTypeRow>(ctx.db, 'visitor_types', caller.companyId, {
    ...query,
    orderBy: 'sort, rowid',
  });
}
